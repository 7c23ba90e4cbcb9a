"""A PostgreSQL server of the test's own (stopped and started at will), never the shared one.

Debian's server binaries (``/usr/lib/postgresql/<version>/bin``) on a free loopback port, its
cluster in a folder of its own. PostgreSQL refuses to run as root: as root the cluster
belongs to the ``postgres`` account and the commands run as it (``runuser``)."""

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.support import free_port, port_answers, wait_for


def server_bin() -> Path | None:
    """The newest installed server's binaries, or ``None`` without one."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4])
    )
    return Path(found[-1]).parent if found else None


class PostgresServer:
    """``postgres`` on a free loopback port, trust authentication for ``postgres``."""

    def __init__(self):
        self.bin = server_bin()
        self.port = free_port()
        # Not under pytest's tmp_path: that folder is the test's user's alone (0700), and the
        # server may run as another account. Removed by ``remove()``.
        self.folder = Path(tempfile.mkdtemp(prefix="pwscup-postgres-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.as_root = os.geteuid() == 0

    def url(self, database: str = "pwscup") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def init(self) -> "PostgresServer":
        if self.as_root:
            account = pwd.getpwnam("postgres")
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        self._run(
            str(self.bin / "initdb"),
            *("-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync"),
            *("--encoding=UTF8", "--locale=C"),
        )
        return self

    def start(self) -> "PostgresServer":
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off"
        self._run(
            str(self.bin / "pg_ctl"), *("-D", str(self.data), "-l", str(self.log)),
            *("-o", options, "-w", "start"),
        )  # fmt: skip
        wait_for(lambda: port_answers(self.port), timeout=30, what="postgres to listen")
        return self

    def create_database(self, name: str = "pwscup") -> None:
        self._run(
            str(self.bin / "createdb"),
            *("-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"),
            name,
        )

    def stop(self) -> None:
        """A fast shutdown: every open connection is ended at once."""
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
