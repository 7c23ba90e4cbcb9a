"""A ``CommandLauncher`` template that runs bubblewrap itself as the "container runtime", with
the guarantees of ``sandbox_argv`` (no network, no host file beyond /usr, a fresh /proc,
/dev and a bounded /tmp, the limits set by prlimit inside): the template path tested with
the only sandbox every test host has."""

import os
import shlex
import shutil
from pathlib import Path

from scoring.scorer.launchers import MERGED_USR_LINKS, CommandLauncher

BWRAP_MOUNT_RO = "--ro-bind {source} {target}"
BWRAP_MOUNT_RW = "--bind {source} {target}"
BWRAP_ENV = "--setenv {name} {value}"


def bwrap_template() -> str:
    links = []
    for name in MERGED_USR_LINKS:
        host = Path("/") / name
        if host.is_symlink():
            links += ["--symlink", os.readlink(host), f"/{name}"]
        elif host.is_dir():
            links += ["--ro-bind", str(host), f"/{name}"]
    words = [
        shutil.which("bwrap") or "bwrap",
        "--unshare-all",
        "--unshare-user",
        "--die-with-parent",
        "--new-session",
        "--disable-userns",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/usr",
        "/usr",
        *links,
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        "{tmp_bytes}",
        "--tmpfs",
        "/tmp",
        "{mounts}",
        "--remount-ro",
        "/",
        "--chdir",
        "{workdir}",
        "--clearenv",
        "{env}",
        "--",
        "{prlimit}",
        "{command}",
    ]
    return shlex.join(words)


def bwrap_launcher() -> CommandLauncher:
    return CommandLauncher(
        template=bwrap_template(),
        mount_readonly=BWRAP_MOUNT_RO,
        mount_writable=BWRAP_MOUNT_RW,
        variable=BWRAP_ENV,
    )
