"""Test hosts on one machine: Linux network namespaces joined by a private LAN.

A :class:`HostNetwork` is a bridge in the root namespace (the LAN's switch; its address,
``gateway``, is the root side) and one network namespace per :class:`Host`, joined to the
bridge by a veth pair. A host sees only its loopback, its own address and the LAN: the
services of the root namespace that listen on loopback only (PostgreSQL, the machine's
Redis) are reached through TCP forwarders (socat) listening on the gateway
(:meth:`HostNetwork.forward`); a server of the test's own (Redis, moto's S3) simply listens
on the gateway. Each host has a folder of its own (its ``PWSCUP_VAR_DIR``, media folder and
``TMPDIR``): no folder is shared between hosts, as on separate machines.

A process runs inside a host with ``ip netns exec``; :meth:`Host.kill` sends SIGKILL to
every process of the host's namespace at once (the machine losing its power),
:meth:`Host.freeze` stops them all (SIGSTOP) so that the test can look at the database
before deciding. Everything is removed by :meth:`HostNetwork.close` (also on failure), and
namespaces left by a run that was killed itself are swept at the next start.

Needs root (``ip netns``, ``ip link``) and socat for the forwarders. Names carry this
process's id; the subnet is 10.231.N.0/24 with N free on this machine.
"""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path

IP = shutil.which("ip") or "/usr/sbin/ip"
SOCAT = shutil.which("socat") or "/usr/bin/socat"
ROOT = Path(__file__).resolve().parents[1]
SUBNET_PREFIX = "10.231"
LOCK_PATH = Path(tempfile.gettempdir()) / "pwscup-test-hosts.lock"
# Namespaces and bridges are named after the process that made them, so that a sweep can
# tell the ones of a process that died from the ones of a run still in progress.
NAMESPACE_NAME = re.compile(r"^pwscup-(\d+)x(\d+)-")
BRIDGE_NAME = re.compile(r"^pw(\d+)x(\d+)b$")
_NETWORKS = count(1)


def ip(*args: str, namespace: str | None = None) -> str:
    """Run ``ip`` (inside ``namespace`` if given); its output, or an error with its stderr."""
    command = [IP, *(("-n", namespace) if namespace else ()), *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()}")
    return done.stdout


def unavailable_reason() -> str | None:
    """Why test hosts cannot be made here (None: they can)."""
    if os.geteuid() != 0:
        return "test hosts are network namespaces: run as root"
    if not Path(IP).exists():
        return "the ip command (iproute2) is missing"
    if not Path(SOCAT).exists():
        return "socat is missing: apt-get install socat (scripts/test does as root)"
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def namespace_pids(namespace: str) -> list[int]:
    try:
        return [int(pid) for pid in ip("netns", "pids", namespace).split()]
    except RuntimeError:  # the namespace is gone
        return []


def _signal_all(pids, signum) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)


def _running(pid: int) -> bool:
    """Whether ``pid`` still runs (not stopped, not gone), from ``/proc/<pid>/stat``."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("T", "t", "Z", "X")


def sweep_stale() -> list[str]:
    """Remove the namespaces and bridges left by harness runs whose process is dead (a run
    killed before its teardown), with the processes still running in those namespaces."""
    removed = []
    for line in ip("netns", "list").splitlines():
        name = line.split()[0] if line.split() else ""
        match = NAMESPACE_NAME.match(name)
        if match and not _alive(int(match.group(1))):
            _signal_all(namespace_pids(name), signal.SIGKILL)
            with contextlib.suppress(RuntimeError):
                ip("netns", "delete", name)
            removed.append(name)
    for line in ip("-o", "link", "show", "type", "bridge").splitlines():
        name = line.split(":")[1].strip().split("@")[0]
        match = BRIDGE_NAME.match(name)
        if match and not _alive(int(match.group(1))):
            with contextlib.suppress(RuntimeError):
                ip("link", "delete", name)
            removed.append(name)
    return removed


def _free_subnet() -> int:
    """N of a 10.231.N.0/24 that no interface of the root namespace uses."""
    used = {
        int(match)
        for match in re.findall(rf"inet {re.escape(SUBNET_PREFIX)}\.(\d+)\.", ip("-4", "addr"))
    }
    start = os.getpid() % 250 + 1
    for offset in range(250):
        candidate = (start + offset - 1) % 250 + 1
        if candidate not in used:
            return candidate
    raise RuntimeError(f"every {SUBNET_PREFIX}.N.0/24 subnet is in use")


@dataclass
class Host:
    """One test host: a network namespace with an address on the LAN and a folder."""

    name: str
    namespace: str
    address: str
    folder: Path
    log_folder: Path
    processes: list[subprocess.Popen] = field(default_factory=list)

    @property
    def media(self) -> Path:
        """The host's ``PWSCUP_MEDIA_ROOT``."""
        return self.folder / "var" / "media"

    def env(self, base: dict) -> dict:
        """``base`` with this host's own folders: var, media, temporary files."""
        for folder in (self.media, self.folder / "tmp"):
            folder.mkdir(parents=True, exist_ok=True)
        return {
            **base,
            "PWSCUP_VAR_DIR": str(self.folder / "var"),
            "PWSCUP_MEDIA_ROOT": str(self.media),
            "TMPDIR": str(self.folder / "tmp"),
        }

    def start(self, command: list[str], *, env: dict, label: str) -> subprocess.Popen:
        """``command`` inside this host (from the repository, with ``env``); its output in
        ``<log folder>/<host>-<label>.log``."""
        log_path = self.log_path(label)
        with open(log_path, "a") as log:
            process = subprocess.Popen(
                [IP, "netns", "exec", self.namespace, *command],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append(process)
        return process

    def log_path(self, label: str) -> Path:
        return self.log_folder / f"{self.name}-{label}.log"

    def pids(self) -> list[int]:
        """Every process running in this host's namespace."""
        return namespace_pids(self.namespace)

    def freeze(self, timeout: float = 10) -> None:
        """Stop every process of the host (SIGSTOP) and return once each one is stopped:
        a signal is only queued by ``kill()``, and a process busy on the other core runs on
        until it is delivered, so "frozen" is read from ``/proc`` (state ``T``)."""
        pids = self.pids()
        _signal_all(pids, signal.SIGSTOP)
        deadline = time.monotonic() + timeout
        while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.005)

    def thaw(self) -> None:
        _signal_all(self.pids(), signal.SIGCONT)

    def kill(self) -> None:
        """SIGKILL every process of the host at once: the machine is gone."""
        _signal_all(self.pids(), signal.SIGKILL)
        self._reap(timeout=20)

    def stop(self, timeout: float = 20) -> None:
        """SIGTERM every process of the host, SIGKILL what is left after ``timeout``."""
        _signal_all(self.pids(), signal.SIGCONT)
        _signal_all(self.pids(), signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while self.pids() and time.monotonic() < deadline:
            time.sleep(0.1)
        _signal_all(self.pids(), signal.SIGKILL)
        self._reap(timeout=10)

    def files(self) -> list[Path]:
        """Every file in the host's folder."""
        return sorted(path for path in self.folder.rglob("*") if path.is_file())

    def _reap(self, *, timeout: float) -> None:
        for process in self.processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=timeout)


class HostNetwork:
    """A LAN of test hosts (see the module's docstring); a context manager that removes
    everything it made on exit."""

    def __init__(self, *, folder: Path | None = None):
        reason = unavailable_reason()
        if reason:
            raise RuntimeError(reason)
        self.tag = f"{os.getpid()}x{next(_NETWORKS)}"
        self.bridge = f"pw{self.tag}b"
        self.folder = Path(folder or tempfile.mkdtemp(prefix="pwscup-hosts-"))
        self.log_folder = self.folder / "logs"
        self.log_folder.mkdir(parents=True, exist_ok=True)
        self.hosts: dict[str, Host] = {}
        self.forwarders: list[subprocess.Popen] = []
        self.subnet: ipaddress.IPv4Network | None = None

    @property
    def gateway(self) -> str:
        """The root namespace's address on the LAN: where its servers listen for hosts."""
        return str(self.subnet.network_address + 1)

    def __enter__(self) -> HostNetwork:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def start(self) -> HostNetwork:
        sweep_stale()
        with open(LOCK_PATH, "a") as lock:
            # Two runs must not pick the same subnet: chosen and taken under one lock.
            fcntl.flock(lock, fcntl.LOCK_EX)
            self.subnet = ipaddress.ip_network(f"{SUBNET_PREFIX}.{_free_subnet()}.0/24")
            ip("link", "add", self.bridge, "type", "bridge")
            ip("addr", "add", f"{self.gateway}/24", "dev", self.bridge)
        ip("link", "set", self.bridge, "up")
        return self

    def add_host(self, name: str) -> Host:
        """A new host on the LAN (its loopback and LAN interface up, no route beyond)."""
        index = len(self.hosts) + 1
        namespace = f"pwscup-{self.tag}-{name}"
        outside, inside = f"pw{self.tag}v{index}", f"pw{self.tag}p{index}"
        address = str(self.subnet.network_address + 10 + index)
        ip("netns", "add", namespace)
        host = Host(
            name=name,
            namespace=namespace,
            address=address,
            folder=self.folder / "hosts" / name,
            log_folder=self.log_folder,
        )
        self.hosts[name] = host
        host.folder.mkdir(parents=True, exist_ok=True)
        ip("link", "add", outside, "type", "veth", "peer", "name", inside)
        ip("link", "set", inside, "netns", namespace)
        ip("link", "set", inside, "name", "eth0", namespace=namespace)
        ip("addr", "add", f"{address}/24", "dev", "eth0", namespace=namespace)
        ip("link", "set", "eth0", "up", namespace=namespace)
        ip("link", "set", "lo", "up", namespace=namespace)
        ip("link", "set", outside, "master", self.bridge, "up")
        return host

    def forward(self, port: int, *, target: str = "127.0.0.1") -> int:
        """A TCP forwarder from the gateway to ``target:port`` in the root namespace (e.g.
        PostgreSQL on loopback); returns the port it listens on at the gateway."""
        listen = _free_port(self.gateway)
        with open(self.log_folder / f"socat-{port}.log", "a") as log:
            process = subprocess.Popen(
                [
                    SOCAT,
                    f"TCP-LISTEN:{listen},bind={self.gateway},reuseaddr,fork",
                    f"TCP:{target}:{port}",
                ],
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,  # its per-connection children go with it (killpg)
            )
        self.forwarders.append(process)
        deadline = time.monotonic() + 20
        while not _answers(self.gateway, listen):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"socat did not listen on {self.gateway}:{listen}")
            time.sleep(0.05)
        return listen

    def close(self) -> None:
        """Stop every host's processes and the forwarders; remove namespaces and bridge."""
        for host in self.hosts.values():
            with contextlib.suppress(Exception):
                host.stop(timeout=10)
        for process in self.forwarders:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
        for host in self.hosts.values():
            with contextlib.suppress(RuntimeError):
                ip("netns", "delete", host.namespace)  # its veth pair goes with it
        with contextlib.suppress(RuntimeError):
            ip("link", "delete", self.bridge)


def _free_port(address: str) -> int:
    with socket.socket() as sock:
        sock.bind((address, 0))
        return sock.getsockname()[1]


def _answers(address: str, port: int) -> bool:
    try:
        with socket.create_connection((address, port), timeout=0.5):
            return True
    except OSError:
        return False
