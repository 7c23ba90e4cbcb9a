"""Hostile scoring programs, each written here: every one ends as a clear message, the worker
(this process) lives on, and nothing of the host is reachable from inside the sandbox."""

import os
import re
import socket
import subprocess
import time
from pathlib import Path

import pytest

from scoring.scorer.sandbox import HEAD_BYTES

ROOT = Path(__file__).resolve().parents[3]
WRITES_SCORES = (
    'import json, sys; json.dump({"score": 1}, open(sys.argv[2] + "/scores.json", "w"))\n'
)


def _processes_in(namespace: str, *, started_before: float) -> list[int]:
    """The host's processes in the PID namespace ``namespace`` (``pid:[inode]``) started
    before ``started_before`` (seconds since boot): one sandbox's, whatever the other tests'
    sandboxes run as the same user beside it under xdist, and even if a sandbox started
    since was given the namespace's number again once it was gone."""
    ticks = os.sysconf("SC_CLK_TCK")
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/ns/pid") != namespace:
                    continue
                with open(f"/proc/{entry}/stat") as stat:
                    # after the command's name in parentheses, field 22 (starttime) is 20th
                    started = int(stat.read().rpartition(")")[2].split()[19]) / ticks
            except (FileNotFoundError, ProcessLookupError, PermissionError):
                continue
            if started < started_before:
                pids.append(int(entry))
    return pids


@pytest.mark.parametrize(
    "body",
    ["while True:\n    pass\n", "import time\nprint('waiting', flush=True)\ntime.sleep(600)\n"],
    ids=["loop", "sleep"],
)
def test_a_program_that_never_ends_is_stopped_at_the_time_limit(make_program, run_program, body):
    started = time.monotonic()
    result = run_program(make_program(body))
    assert (result.status, result.code) == ("refused", "scorer.timeout")
    assert result.params["seconds"] == "3"
    assert time.monotonic() - started < 30  # killed, not waited for
    assert "3 秒以内に終わらなかった" in result.render("ja")


def test_a_program_that_allocates_10_gb_runs_out_of_memory(make_program, run_program):
    result = run_program(make_program("block = bytearray(10 * 1024**3)\n"))
    assert (result.status, result.code) == ("refused", "scorer.memory")
    assert result.params["limit_mb"] == 512
    assert "MemoryError" in result.tail
    assert "ran out of memory (the limit is 512 MB)" in result.render("en")


def test_a_fork_bomb_is_held_by_the_process_limit_and_killed_whole(make_program, run_program):
    bomb = """
    import os
    print(os.readlink("/proc/self/ns/pid"), flush=True)
    while True:
        try:
            os.fork()
        except OSError:
            pass
    """
    result = run_program(make_program(bomb))
    assert (result.status, result.code) == ("refused", "scorer.timeout")
    assert subprocess.run(["true"], check=False).returncode == 0  # the host still forks
    # Nothing of it is left: no process in its PID namespace (the other tests' sandboxes run
    # as nobody too, beside it under xdist, so the user alone does not tell them apart).
    namespace = re.search(r"pid:\[\d+\]", result.tail).group()
    ended = time.clock_gettime(time.CLOCK_BOOTTIME)
    if os.geteuid() == 0:  # another user's namespace links are readable by root only
        deadline = time.monotonic() + 5
        while _processes_in(namespace, started_before=ended) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _processes_in(namespace, started_before=ended) == []


def test_no_network_inside_not_even_the_hosts_loopback(make_program, run_program):
    program = """
    import json, socket, sys
    reached = []
    for address in [("127.0.0.1", 6379), ("1.1.1.1", 53), ("93.184.215.14", 80)]:
        try:
            socket.create_connection(address, timeout=1).close()
            reached.append(address[0])
        except OSError as error:
            print(address[0], type(error).__name__, error)
    json.dump({"reached": len(reached)}, open(sys.argv[2] + "/scores.json", "w"))
    """
    result = run_program(make_program(program))
    assert (result.status, result.scores) == ("ok", {"reached": 0})
    assert "127.0.0.1" in result.tail
    with socket.socket() as probe:  # the host's Redis answers outside (when it runs)
        probe.settimeout(1)
        if probe.connect_ex(("127.0.0.1", 6379)) != 0:
            pytest.skip("no Redis on the host's 127.0.0.1:6379 to compare with")


def test_host_files_do_not_exist_inside(make_program, run_program):
    secrets = [
        "/etc/passwd",
        "/etc/shadow",
        str(ROOT / "pwscup/settings/base.py"),
        "/root",
        "/home",
    ]
    assert Path(secrets[2]).is_file()
    program = f"""
    import json, os, sys
    seen = [path for path in {secrets!r} if os.path.exists(path)]
    print("root:", sorted(os.listdir("/")))
    json.dump({{"seen": len(seen)}}, open(sys.argv[2] + "/scores.json", "w"))
    """
    result = run_program(make_program(program))
    assert (result.status, result.scores) == ("ok", {"seen": 0})
    assert "root: ['app', 'bin', 'dev'" in result.tail
    assert "'etc'" not in result.tail and "'work'" not in result.tail


def test_writes_outside_the_output_fail_and_leave_the_host_untouched(
    make_program, run_program, place
):
    outside = ["/app/program/x", "/app/input/x", "/usr/x", "/x", str(place / "x")]
    program = f"""
    import json, sys
    written = []
    for path in {outside!r}:
        try:
            open(path, "w").write("x")
            written.append(path)
        except OSError as error:
            print(path, error)
    open("/tmp/scratch", "w").write("temporary files are fine")
    json.dump({{"written": len(written)}}, open(sys.argv[2] + "/scores.json", "w"))
    """
    result = run_program(make_program(program))
    assert (result.status, result.scores) == ("ok", {"written": 0})
    assert not (place / "x").exists() and not (place / "program" / "x").exists()


def test_printing_1_gb_is_stopped_at_the_bound_with_the_tail_kept(make_program, run_program):
    program = """
    import sys
    line = "x" * 1023 + "\\n"
    for _ in range(1024 * 1024):
        sys.stdout.write(line)
    """
    started = time.monotonic()
    result = run_program(make_program(program))
    assert (result.status, result.code) == ("refused", "scorer.printed_too_much")
    assert result.params["limit"] == f"{1024**2:,}"
    # What is kept: the output's first 1,024 bytes and its last 4,096, " … " between them.
    assert "xxxx" in result.tail and len(result.tail) <= HEAD_BYTES + len(" … ") + 4096
    assert time.monotonic() - started < 30


def test_an_output_folder_that_grows_without_end_is_stopped(make_program, run_program):
    program = """
    import sys
    for n in range(10_000):
        open(f"{sys.argv[2]}/part{n}", "wb").write(b"x" * 100_000)
    """
    result = run_program(make_program(program))
    assert (result.status, result.code) == ("refused", "scorer.output_too_large")


def test_a_non_zero_exit_shows_the_last_lines_printed(make_program, run_program):
    program = """
    import sys
    for n in range(200):
        print(f"line {n}")
    print("the submission has 3 columns; 4 expected", file=sys.stderr)
    sys.exit(3)
    """
    result = run_program(make_program(program))
    assert (result.status, result.code, result.params["status"]) == ("refused", "scorer.exit", 3)
    assert result.tail.endswith("line 199\nthe submission has 3 columns; 4 expected")
    assert "line 0\n" not in result.tail
    assert result.render("ja").startswith(
        "採点プログラムが提出を受け付けませんでした（終了ステータス 3）"
    )


@pytest.mark.parametrize(
    ("written", "code", "detail"),
    [
        ("{'score': 1", "scorer.scores.json", "json.invalid"),
        ('{"score": NaN}', "scorer.scores.json", "json.not_finite"),
        ('{"score": Infinity}', "scorer.scores.json", "json.not_finite"),
        ('{"score": 1e999}', "scorer.scores.json", "json.not_finite"),
        ("[1, 2]", "scorer.scores.shape", None),
        ('{"score": "high"}', "scorer.scores.shape", None),
        ('{"score": {"deep": 1}}', "scorer.scores.shape", None),
        ('{"accuracy": 0.5}', "scorer.scores.primary", None),
    ],
    ids=["not-json", "nan", "infinity", "overflow", "array", "text", "nested", "no-primary"],
)
def test_bad_scores_json_is_refused_with_its_reason(
    make_program, run_program, written, code, detail
):
    program = f"import sys\nopen(sys.argv[2] + '/scores.json', 'w').write({written!r})\n"
    result = run_program(make_program(program), primary_key="score")
    assert (result.status, result.code) == ("refused", code)
    if detail:
        assert result.params["detail"]["code"] == detail
    assert result.render("ja") and result.render("en") != result.render("ja")


def test_a_scores_json_linked_to_a_host_file_is_never_read(make_program, run_program):
    program = "import os, sys\nos.symlink('/etc/passwd', sys.argv[2] + '/scores.json')\n"
    result = run_program(make_program(program))
    assert (result.status, result.code) == ("refused", "scorer.scores.missing")


def test_a_sandbox_that_cannot_start_is_the_platforms_failure(make_program, run_program, place):
    hidden = place / "private"
    hidden.mkdir(mode=0o700)
    if os.geteuid() != 0:
        pytest.skip("the check of reachable folders is made when the worker runs as root")
    result = run_program(make_program(WRITES_SCORES), reference=hidden)
    assert (result.status, result.code) == ("failed", "scorer.sandbox.unreachable")
