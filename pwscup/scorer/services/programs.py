"""The organizer's program and the round's data packs: uploaded in the console, checked when
uploaded (the ZIP's bounds, the program's metadata and pinned requirements, read by our own
code: nothing of the organizer's runs in the web process), kept as uploaded; a program's
environment is built by a worker (``program_build``), whose log the console shows."""

import re
import tempfile
from pathlib import Path

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import round_audit_record
from pwscup.core.errors import scoring_form_error
from pwscup.core.files import sha256_of
from pwscup.core.storage import kept_file_save
from pwscup.scorer.models import DataPack, ProgramVersion, ScorerRound
from pwscup.scorer.services.common import BUILD_TASK
from pwscup.scorer.services.runs import MAX_LOG_CHARS, program_environment
from pwscup.submissions import broker
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.services.jobs import job_execute
from pwscup.submissions.services.two_sided import two_sided_locked
from pwscup.submissions.services.uploads import check_size, original_name
from scoring.errors import ScoringError
from scoring.scorer import EnvironmentBuildError, program_unpack
from scoring.scorer.unzip import UnzipLimits, unzip

# A pack of one data choice (``DataChoice.key``); the console offers the round's own keys.
CHOICE_KEY = re.compile(r"[-a-zA-Z0-9_]{1,32}")


def _checked_copy(uploaded_file, folder: Path) -> Path:
    """The upload written to ``folder`` (to be checked there), read from its start."""
    path = folder / "upload.zip"
    uploaded_file.seek(0)
    with open(path, "wb") as out:
        for chunk in uploaded_file.chunks():
            out.write(chunk)
    uploaded_file.seek(0)
    return path


def program_metadata(program) -> dict:
    """What the console shows of a program's metadata (and what a run needs to know)."""
    return {
        "commands": dict(program.commands),
        "requirements": program.requirements,
        "environment": dict(program.environment),
        "truth_mount": program.truth_mount,
        "public": list(program.public),
        "primary_key": program.primary_key,
    }


def program_upload(*, scorer: ScorerRound, uploaded_file, user=None) -> ProgramVersion:
    """Keep a new version of the round's program: its ZIP checked (bounds, metadata, pinned
    requirements), numbered after the others, QUEUED for its build on a worker. Raises
    ``ValidationError`` on ``program`` with the reason in the reader's language."""
    check_size(uploaded_file)
    with tempfile.TemporaryDirectory() as scratch:
        archive = _checked_copy(uploaded_file, Path(scratch))
        try:
            program = program_unpack(archive, Path(scratch) / "program")
        except ScoringError as error:
            raise scoring_form_error("program", error) from None
        metadata = program_metadata(program)
    digest = sha256_of(uploaded_file)
    with transaction.atomic():
        scorer = two_sided_locked(scorer)
        last = ProgramVersion.objects.filter(scorer=scorer).aggregate(Max("version"))
        version = ProgramVersion(
            scorer=scorer,
            version=(last["version__max"] or 0) + 1,
            original_filename=original_name(uploaded_file, default="program.zip"),
            sha256=digest,
            size=uploaded_file.size,
            metadata=metadata,
            uploaded_by=user,
        )
        kept_file_save(version.file, "program.zip", uploaded_file)
        version.save()
        round_audit_record(
            user=user,
            round=scorer.round,
            action=AuditEntry.Action.ROUND_EDITED,
            program_version=version.version,
            sha256=digest,
        )
        transaction.on_commit(lambda: broker.job_send(BUILD_TASK, version.pk))
    return version


def program_build(*, program_id: int, task_id: str = "", worker: str = "") -> None:
    """The version's job: its environment built on this worker host (pip, from its pinned
    requirements; cached by their hash, so an unchanged program is never built again), the
    build's log kept for the console. Other hosts build it on their first run; each host's
    build is recorded as a ``ProgramBuild`` (``runs.program_environment``)."""

    def build(version: ProgramVersion):
        status, message, log = ProgramVersion.Status.FINISHED, None, ""
        try:
            _program, environment = program_environment(version)
            log = environment.log or _("Nothing to install: the program has no requirements.")
        except EnvironmentBuildError as error:
            status, message, log = ProgramVersion.Status.FAILED, _message(error), error.log
        except ScoringError as error:
            status, message = ProgramVersion.Status.FAILED, _message(error)
        return status, message, {"build_log": log[-MAX_LOG_CHARS:]}

    job_execute(model=ProgramVersion, pk=program_id, run=build, task_id=task_id, worker=worker)


def _message(error: ScoringError) -> JobMessage:
    return JobMessage.from_scoring_error(error)


def hidden_packs_await(*, scorer: ScorerRound, packs) -> None:
    """Record the hidden packs (``(role, choice)``) a bundle left out: the round refuses
    uploads and scores nothing until each has a pack (``selectors.hidden_packs_missing``;
    uploading one is all it takes)."""
    awaited = [[role, choice] for role, choice in packs if role in DataPack.HIDDEN]
    ScorerRound.objects.filter(pk=scorer.pk).update(hidden_awaited=awaited)
    scorer.hidden_awaited = awaited


def pack_upload(
    *, scorer: ScorerRound, role: str, uploaded_file, user=None, choice: str = ""
) -> DataPack:
    """Keep a data pack of ``role`` for the data choice ``choice`` (``""``: of no choice; a
    ZIP, its bounds and member names checked by unpacking it once); the newest of each role
    and choice counts. Raises ``ValidationError`` on ``file`` or ``choice``."""
    if role not in DataPack.Role.values:
        raise ValidationError({"role": _("Unknown kind of data pack.")})
    if choice and not CHOICE_KEY.fullmatch(choice):
        raise ValidationError(
            {
                "choice": _(
                    "%(key)s is not the key of a data choice (1 to 32 letters, digits, - or _)."
                )
                % {"key": choice[:40]}
            }
        )
    check_size(uploaded_file)
    with tempfile.TemporaryDirectory() as scratch:
        archive = _checked_copy(uploaded_file, Path(scratch))
        try:
            members = unzip(archive, Path(scratch) / "pack", what="data pack", limits=UnzipLimits())
        except ScoringError as error:
            raise scoring_form_error("file", error) from None
    pack = DataPack(
        scorer=scorer,
        role=role,
        choice=choice,
        original_filename=original_name(uploaded_file, default=f"{role}.zip"),
        sha256=sha256_of(uploaded_file),
        size=uploaded_file.size,
        members=sorted(members),
        uploaded_by=user,
    )
    kept_file_save(pack.file, f"{role}.zip", uploaded_file)
    pack.save()
    round_audit_record(
        user=user,
        round=scorer.round,
        action=AuditEntry.Action.ROUND_EDITED,
        data_pack=f"{role} ({choice})" if choice else role,
        sha256=pack.sha256,
    )
    return pack
