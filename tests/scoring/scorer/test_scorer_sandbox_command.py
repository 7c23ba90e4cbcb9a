"""The sandbox started by a command-line template (``CommandLauncher``, a container runtime's
place) instead of bubblewrap's own launcher: the template is filled as documented, and with
bubblewrap itself as the "runtime" the hostile programs meet the same guarantees (no
network, no host file, the time and memory limits, exit codes and the tail), while a bad
template or a missing runtime is the platform's failure, never the submission's."""

import socket
from pathlib import Path

import pytest

from scoring.scorer.launchers import CommandLauncher, Mount
from scoring.scorer.limits import SandboxLimits
from tests.scoring.scorer.cli_runs import scoring_cli
from tests.scoring.scorer.sandbox_templates import bwrap_launcher

ROOT = Path(__file__).resolve().parents[3]
WRITES_SCORES = (
    'import json, sys; json.dump({"score": 1}, open(sys.argv[2] + "/scores.json", "w"))\n'
)


def test_the_template_is_filled_word_by_word_without_a_shell():
    launcher = CommandLauncher(
        "podman run --rm --network=none --read-only --memory={memory_mb}m "
        "--pids-limit={processes} --timeout={timeout_seconds} -w {workdir} {mounts} {env} "
        "img {command}"
    )
    argv = launcher.argv(
        ["/bin/sh", "-c", "python3 $x; rm -rf /"],
        mounts=[Mount(Path("/w/in put"), "/app/input"), Mount(Path("/w/out"), "/app/output", True)],
        environment={"PATH": "/env/bin:/usr/bin", "A": "x y"},
        limits=SandboxLimits(memory_bytes=512 * 2**20, processes=64, timeout_seconds=2.5),
        chdir="/app/program",
        status_fd=9,
        extra_readonly=[Path("/envs/k")],
    )
    assert argv == [
        "podman", "run", "--rm", "--network=none", "--read-only", "--memory=512m",
        "--pids-limit=64", "--timeout=3", "-w", "/app/program",
        "-v", "/envs/k:/envs/k:ro", "-v", "/w/in put:/app/input:ro", "-v", "/w/out:/app/output",
        "--env", "PATH=/env/bin:/usr/bin", "--env", "A=x y",
        "img", "/bin/sh", "-c", "python3 $x; rm -rf /",
    ]  # fmt: skip


def test_a_program_scores_normally_through_the_template(make_program, run_program):
    result = run_program(make_program(WRITES_SCORES), launcher=bwrap_launcher())
    assert (result.status, result.scores) == ("ok", {"score": 1}), result.render("en")


def test_no_network_inside_through_the_template(make_program, run_program):
    program = """
    import json, socket, sys
    reached = []
    for address in [("127.0.0.1", 6379), ("1.1.1.1", 53)]:
        try:
            socket.create_connection(address, timeout=1).close()
            reached.append(address[0])
        except OSError as error:
            print(address[0], type(error).__name__, error)
    json.dump({"reached": len(reached)}, open(sys.argv[2] + "/scores.json", "w"))
    """
    result = run_program(make_program(program), launcher=bwrap_launcher())
    assert (result.status, result.scores) == ("ok", {"reached": 0}), result.tail
    assert "127.0.0.1" in result.tail
    with socket.socket() as probe:
        probe.settimeout(1)
        if probe.connect_ex(("127.0.0.1", 6379)) != 0:
            pytest.skip("no Redis on the host's 127.0.0.1:6379 to compare with")


def test_host_files_do_not_exist_inside_through_the_template(make_program, run_program):
    secrets = ["/etc/passwd", "/etc/shadow", str(ROOT / "pwscup/settings/base.py"), "/home"]
    assert Path(secrets[2]).is_file()
    program = f"""
    import json, os, sys
    seen = [path for path in {secrets!r} if os.path.exists(path)]
    print("root:", sorted(os.listdir("/")))
    json.dump({{"seen": len(seen)}}, open(sys.argv[2] + "/scores.json", "w"))
    """
    result = run_program(make_program(program), launcher=bwrap_launcher())
    assert (result.status, result.scores) == ("ok", {"seen": 0}), result.tail
    assert "'etc'" not in result.tail and "root: ['app'" in result.tail


def test_the_time_limit_stops_a_run_through_the_template(make_program, run_program):
    result = run_program(make_program("while True:\n    pass\n"), launcher=bwrap_launcher())
    assert (result.status, result.code) == ("refused", "scorer.timeout")


def test_the_memory_limit_holds_through_the_template(make_program, run_program):
    result = run_program(
        make_program("block = bytearray(10 * 1024**3)\n"), launcher=bwrap_launcher()
    )
    assert (result.status, result.code) == ("refused", "scorer.memory")


def test_an_exit_status_and_the_tail_come_through_the_template(make_program, run_program):
    result = run_program(
        make_program("print('bad input')\nraise SystemExit(3)\n"), launcher=bwrap_launcher()
    )
    assert (result.status, result.code) == ("refused", "scorer.exit")
    assert result.params["status"] == 3 and "bad input" in result.tail


@pytest.mark.parametrize(
    ("template", "words"),
    [
        ("podman run img {command}", ["{mounts}"]),
        ("bwrap {mounts} {nope} {command}", ["{nope}", "nope"]),
        ("bwrap {mounts} 'unclosed {command}", ["quotation"]),
    ],
)
def test_a_bad_template_is_the_platforms_failure(make_program, run_program, template, words):
    result = run_program(make_program(WRITES_SCORES), launcher=CommandLauncher(template))
    assert (result.status, result.code) == ("failed", "scorer.sandbox.template")
    for word in words:
        assert word in result.render("en"), result.render("en")
    assert "プラットフォーム設定の問題" in result.render("ja")


def test_a_missing_runtime_is_the_platforms_failure(make_program, run_program):
    launcher = CommandLauncher("pwscup-no-such-runtime run {mounts} img {command}")
    result = run_program(make_program(WRITES_SCORES), launcher=launcher)
    assert (result.status, result.code) == ("failed", "scorer.sandbox.missing")
    assert "pwscup-no-such-runtime" in result.render("en")


def test_the_command_line_tries_a_template(place, sandbox_base):
    """``scorer run --sandbox-command``: an operator tries a runtime's template on a host."""
    import json
    import zipfile

    from tests.scoring.scorer.sandbox_templates import (
        BWRAP_ENV,
        BWRAP_MOUNT_RO,
        BWRAP_MOUNT_RW,
        bwrap_template,
    )

    program = place / "program.zip"
    with zipfile.ZipFile(program, "w") as archive:
        archive.writestr("metadata", "command: python3 $program/score.py $input $output\n")
        archive.writestr("score.py", WRITES_SCORES)
    arguments = [
        *("scorer", "run", "--program", str(program), "--output", str(place / "out")),
        *("--cache", str(sandbox_base / "envs"), "--timeout", "20"),
        *("--sandbox-command", bwrap_template(), "--sandbox-mount-ro", BWRAP_MOUNT_RO),
        *("--sandbox-mount-rw", BWRAP_MOUNT_RW, "--sandbox-env", BWRAP_ENV),
    ]
    run = scoring_cli(*arguments)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["scores"] == {"score": 1}
    broken = scoring_cli(*arguments[:-8], "--sandbox-command", "x {command}")
    assert broken.returncode == 2 and "{mounts}" in broken.stderr
