"""``scripts/test`` installs Debian's Chromium itself when it is missing (as root, as
``.ci/run`` runs it), so that the README's test command alone runs the browser tests."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "ensure_chromium"


def fake_environment(tmp_path: Path, *, uid: int) -> tuple[dict, Path, Path]:
    """A PATH whose ``id`` reports ``uid`` and an apt-get that logs its arguments and
    installs a stand-in browser."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    browser = tmp_path / "usr-bin" / "chromium"
    log = tmp_path / "apt.log"
    (bin_dir / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    (bin_dir / "apt-get").write_text(
        "#!/bin/sh\n"
        f'echo "$DEBIAN_FRONTEND $*" >> {log}\n'
        f'if [ "$1" = install ]; then mkdir -p {browser.parent}; '
        f"printf '#!/bin/sh\\n' > {browser}; chmod +x {browser}; fi\n"
    )
    (bin_dir / "sudo").write_text("#!/bin/sh\nexit 1\n")  # no passwordless sudo
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "PWSCUP_CHROMIUM": str(browser),
        "PWSCUP_APT_GET": "apt-get",
    }
    return env, browser, log


def run(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([str(SCRIPT)], env=env, capture_output=True, text=True, check=False)


def test_scripts_test_calls_it_before_pytest():
    lines = (ROOT / "scripts" / "test").read_text().splitlines()
    assert lines.index("scripts/ensure_chromium") < next(
        i for i, line in enumerate(lines) if "-m pytest" in line and not line.startswith("#")
    )


def test_as_root_a_missing_chromium_is_installed_with_apt_get(tmp_path):
    env, browser, log = fake_environment(tmp_path, uid=0)
    result = run(env)
    assert result.returncode == 0, result.stderr
    assert os.access(browser, os.X_OK)
    assert log.read_text().splitlines() == [
        "noninteractive update -q",
        "noninteractive install -y -q chromium",
    ]


def test_a_present_chromium_is_left_alone(tmp_path):
    env, browser, log = fake_environment(tmp_path, uid=0)
    browser.parent.mkdir()
    browser.write_text("#!/bin/sh\n")
    browser.chmod(0o755)
    result = run(env)
    assert result.returncode == 0, result.stderr
    assert not log.exists()


def test_without_root_or_sudo_it_says_how_and_lets_the_other_tests_run(tmp_path):
    env, browser, log = fake_environment(tmp_path, uid=1000)
    result = run(env)
    assert result.returncode == 0
    assert "run as root: apt-get install -y chromium" in result.stderr
    assert not log.exists() and not browser.exists()
