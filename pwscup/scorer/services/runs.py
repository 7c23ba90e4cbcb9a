"""One run of the organizer's program on a worker host: the program and the round's data packs
unpacked once on the host's disk (by digest), the environment built once (by the hash of the
requirements, ``scoring.scorer.environment_ensure``), then ``scoring.scorer.scorer_run`` in
the sandbox. Never called in the web process: only the worker's jobs call ``program_run``.

Each host records its build of each version (``ProgramBuild``: building, ready or failed,
with its log) the first time it needs the environment, so the console shows every host's."""

import fcntl
import os
import shlex
import shutil
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from pwscup.scorer.models import DataPack, ProgramBuild, ProgramVersion
from scoring.scorer import (
    BwrapLauncher,
    CommandLauncher,
    Launcher,
    ScorerEnvironment,
    ScorerResult,
    environment_ensure,
    program_read,
    program_unpack,
    scorer_run,
)
from scoring.scorer.errors import EnvironmentBuildError
from scoring.scorer.round_config import parse_round_config
from scoring.scorer.unzip import UnzipLimits, unzip
from scoring.scorer.upload_layout import upload_lay_out

READY = ".ready"
MAX_LOG_CHARS = 200_000


def host_name() -> str:
    """This worker host's name, as its builds are recorded (``ProgramBuild.host``)."""
    return socket.gethostname()


def scorer_dir() -> Path:
    """The host's scorer folder (``PWSCUP_SCORER_DIR``), made reachable by the sandbox's user."""
    root = Path(settings.PWSCUP_SCORER_DIR)
    root.mkdir(parents=True, exist_ok=True)
    os.chmod(root, 0o711)
    return root


def _stored_copy(field, destination: Path) -> None:
    """The stored file (local folder or bucket) copied to ``destination`` on this host."""
    field.open("rb")
    try:
        with open(destination, "wb") as out:
            shutil.copyfileobj(field.file, out, 1024 * 1024)
    finally:
        field.close()


def _unpacked(field, *, sha256: str, kind: str, what: str, program: bool = False) -> Path:
    """The ZIP of ``field`` unpacked under ``<scorer dir>/<kind>/<sha256>`` once per host (a
    lock makes a second worker wait for the first; a half-made folder is made again)."""
    base = scorer_dir() / kind
    base.mkdir(exist_ok=True)
    os.chmod(base, 0o711)
    folder = base / sha256
    if (base / f"{sha256}{READY}").is_file():
        return folder
    with open(base / f"{sha256}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (base / f"{sha256}{READY}").is_file():
            return folder
        shutil.rmtree(folder, ignore_errors=True)
        with tempfile.TemporaryDirectory(dir=base) as scratch:
            archive = Path(scratch) / "archive.zip"
            _stored_copy(field, archive)
            if program:
                program_unpack(archive, folder)
            else:
                unzip(archive, folder, what=what, limits=UnzipLimits())
        for path in (folder, *folder.rglob("*")):
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
        (base / f"{sha256}{READY}").write_text(sha256, encoding="utf-8")
    return folder


@dataclass(frozen=True)
class Prepared:
    """What a run needs on this host: the program, its environment and the hidden data."""

    program: object
    environment: ScorerEnvironment
    reference: Path | None
    truth: Path | None


def program_environment(
    program: ProgramVersion, *, host: str | None = None
) -> tuple[object, ScorerEnvironment]:
    """The program unpacked and its environment, built if this host has not built it yet;
    the host's ``ProgramBuild`` of the version records the build (nothing is written once
    it is ready and the environment is found built)."""
    host = host or host_name()
    known = ProgramBuild.objects.filter(version=program, host=host).first()
    if known is None or known.state != ProgramBuild.State.READY:
        _build_record(program, host, ProgramBuild.State.BUILDING, started=True)
    try:
        folder = _unpacked(
            program.file, sha256=program.sha256, kind="programs", what="", program=True
        )
        unpacked = program_read(folder)
        environment = environment_ensure(
            unpacked.requirements,
            cache=scorer_dir() / "environments",
            pip_options=shlex.split(settings.PWSCUP_SCORER_PIP_OPTIONS),
        )
    except EnvironmentBuildError as error:
        _build_record(program, host, ProgramBuild.State.FAILED, log=error.log or str(error))
        raise
    except Exception as error:
        _build_record(program, host, ProgramBuild.State.FAILED, log=str(error))
        raise
    if known is None or known.state != ProgramBuild.State.READY or environment.built:
        log = environment.log or gettext("Nothing to install: the program has no requirements.")
        _build_record(program, host, ProgramBuild.State.READY, log=log)
    return unpacked, environment


def _build_record(
    program: ProgramVersion, host: str, state: str, *, log: str = "", started: bool = False
) -> None:
    now = timezone.now()
    values = {"state": state, "log": log[-MAX_LOG_CHARS:]}
    if started:
        values.update(started_at=now, finished_at=None)
    else:
        values["finished_at"] = now
    ProgramBuild.objects.update_or_create(
        version=program,
        host=host[:255],
        defaults=values,
        create_defaults={**values, "started_at": now},
    )


def pack_folder(pack: DataPack | None) -> Path | None:
    """A data pack unpacked on this host (``None`` without one)."""
    if pack is None:
        return None
    return _unpacked(pack.file, sha256=pack.sha256, kind="data", what="data pack")


def prepared(program: ProgramVersion, *, packs: dict[str, DataPack]) -> Prepared:
    """The program and the hidden packs of a run (``packs`` by role: its reference data and
    its truth, each optional) ready on this host."""
    unpacked, environment = program_environment(program)
    reference, truth = packs.get(DataPack.Role.REFERENCE), packs.get(DataPack.Role.TRUTH)
    return Prepared(unpacked, environment, pack_folder(reference), pack_folder(truth))


def sandbox_launcher() -> Launcher:
    """How this host starts a run's sandbox (``PWSCUP_SCORER_SANDBOX``): bubblewrap, or the
    container runtime's command-line template."""
    if settings.PWSCUP_SCORER_SANDBOX == "command":
        return CommandLauncher(
            template=settings.PWSCUP_SCORER_SANDBOX_COMMAND,
            mount_readonly=settings.PWSCUP_SCORER_SANDBOX_MOUNT_RO,
            mount_writable=settings.PWSCUP_SCORER_SANDBOX_MOUNT_RW,
            variable=settings.PWSCUP_SCORER_SANDBOX_ENV,
        )
    return BwrapLauncher()


def work_folder() -> Path:
    """A new folder of this host's for one run (removed by the caller), reachable by the
    sandbox's user like every folder above it."""
    runs = scorer_dir() / "runs"
    runs.mkdir(exist_ok=True)
    os.chmod(runs, 0o711)
    work = Path(tempfile.mkdtemp(dir=runs))
    os.chmod(work, 0o711)
    return work


def program_run(
    ready: Prepared,
    *,
    kind: str,
    submission_name: str,
    context: dict,
    config: dict,
    primary_key: str | None,
    submission_field=None,
    submission_bytes: bytes | None = None,
    targets: dict[str, Path] | None = None,
    attacks: dict[str, Path] | None = None,
) -> tuple[ScorerResult, Path]:
    """Run the program's ``kind`` command on the kept submission (``submission_field``) or
    on bytes the platform wrote (``submission_bytes``: the ranking program's input, which
    is given the counted ``attacks``); the frozen ``targets`` an attack is given;
    returns the result and the run's work folder (the caller reads the output, then
    removes the folder)."""
    work = work_folder()
    submission = work / "submission" / submission_name
    submission.parent.mkdir()
    os.chmod(submission.parent, 0o755)
    if submission_bytes is not None:
        submission.write_bytes(submission_bytes)
    else:
        _stored_copy(submission_field, submission)
    os.chmod(submission, 0o644)
    result = scorer_run(
        ready.program,
        environment=ready.environment,
        work=work / "run",
        kind=kind,
        submission=submission,
        reference=ready.reference,
        truth=ready.truth,
        context=context,
        limits=parse_round_config(config).sandbox_limits(),
        primary_key=primary_key,
        targets=targets,
        attacks=attacks,
        launcher=sandbox_launcher(),
    )
    return result, work


def submission_folder(field, *, name: str, into: Path) -> Path:
    """A kept upload (a target's release, a counted attack, as uploaded) laid out as the
    program's ``res/`` was (``scoring.scorer.upload_layout.upload_lay_out``, which
    ``python -m scoring scorer run --attacks`` lays out with too)."""
    into.mkdir(parents=True, exist_ok=True)
    scratch = into.parent / f"{into.name}.upload"
    _stored_copy(field, scratch)
    try:
        return upload_lay_out(scratch, name=name, into=into)
    finally:
        scratch.unlink(missing_ok=True)
