"""A release's or an attack's job: the round's current program run on the kept upload in the
sandbox (``services.runs``), its scores stored exactly as written, with the version that
computed them, its detailed page and (for a release) the files attackers will download."""

import io
import logging
import shutil
import zipfile
from pathlib import Path

from django.core.files.base import ContentFile

from pwscup.core.storage import kept_file_save
from pwscup.scorer import selectors
from pwscup.scorer.models import Attack, Release
from pwscup.scorer.services.common import result_message
from pwscup.scorer.services.runs import prepared, program_run, submission_folder, work_folder
from pwscup.scorer.services.upload_files import kept_files_refusal, res_name
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.models import Status
from pwscup.submissions.services.jobs import job_execute, scorer_crash_message
from scoring.errors import ScoringError

log = logging.getLogger(__name__)


def submission_name(upload) -> str:
    """The name the program finds the upload under in ``res/`` (a ZIP is unpacked there)."""
    return res_name(upload.original_filename)


def run_choice(upload) -> str:
    """The data choice whose packs (reference, truth) a run mounts. A release, and an attack
    covering every target, are scored on the uploading team's data; an attack on one target
    on the data of the team it attacks (PWSCup 2022: answers about the acquaintances of the
    target's dataset, whichever of the six datasets the attacker plays on)."""
    team = upload.team
    if isinstance(upload, Attack) and upload.target_id is not None:
        team = upload.target.team
    return selectors.team_choice_key(scorer=upload.scorer, team=team)


def target_choices(*, scorer, shown) -> dict:
    """Each shown target's data choice by its team's slug (``null``: the round offers none),
    so that a program scoring an upload covering every target finds each target's data."""
    return {
        frozen.team.slug: selectors.team_choice_key(scorer=scorer, team=frozen.team) or None
        for frozen in shown
    }


def target_slots(*, scorer, shown) -> dict:
    """Each shown target's slot number by its team's slug (``null``: no slot), so that a
    program reading an answer laid out by team number (PWSCup 2024: columns 2i-1 and 2i for
    the team in slot i) finds each target's columns."""
    slots = {}
    for frozen in shown:
        slot = selectors.slot_of(scorer=scorer, team=frozen.team)
        slots[frozen.team.slug] = slot.slot if slot is not None else None
    return slots


def run_context(*, upload, phase: str, target=None, targets=(), choices=None, slots=None) -> dict:
    """``input/context.json``: who submitted, its slot, its data choice (``null``: the round
    offers none), the phase, the target(s) and each one's data choice and slot, the round."""
    scorer = upload.scorer
    slot = selectors.slot_of(scorer=scorer, team=upload.team)
    choice = selectors.team_choice_key(scorer=scorer, team=upload.team)
    return {
        "team": upload.team.slug,
        "team_name": upload.team.name,
        "slot": slot.slot if slot is not None else None,
        "slot_folder": slot.folder if slot is not None else None,
        "choice": choice or None,
        "phase": phase,
        "upload": upload.number,
        "target": target,
        "targets": list(targets),
        "target_choices": choices or {},
        "target_slots": slots or {},
        "round": {"slug": scorer.round.slug, "name": scorer.round.name},
        "settings": scorer.round.config,
    }


def _public_zip(output: Path, names) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(names):
            archive.write(output / name, name.removeprefix("public/"))
    return buffer.getvalue()


def _stored_outputs(upload, result, *, public: bool) -> dict:
    """The run's files kept beside the upload: its detailed page, and the public ZIP."""
    values = {}
    if result.detailed_html is not None:
        values["detail"] = kept_file_save(
            upload.detail, "detailed_results.html", ContentFile(result.detailed_html)
        )
    if public and result.public:
        data = _public_zip(result.output, result.public)
        values["public"] = kept_file_save(upload.public, "public.zip", ContentFile(data))
        values["public_names"] = sorted(name.removeprefix("public/") for name in result.public)
    return values


def upload_score(*, model, upload_id: int, task_id: str, worker: str) -> None:
    """Run the current program on the upload and store what it wrote (FINISHED), or its
    refusal (FAILED, with its message and the last lines it printed)."""

    def run(upload) -> tuple[str, JobMessage | None, dict]:
        scorer = upload.scorer
        kind = "attack" if model is Attack else "release"
        refusal = kept_files_refusal(upload=upload, kind=kind)
        if refusal is not None:  # a rescore of an upload the files check refused
            return Status.FAILED, refusal, {}
        program = selectors.current_program(scorer=scorer)
        missing = selectors.hidden_missing_names(scorer=scorer)
        if missing:
            return Status.FAILED, JobMessage.platform("job.no_hidden_data", packs=missing), {}
        if program is None:
            return Status.FAILED, JobMessage.platform("job.no_program"), {}
        return _run(model, upload, program)

    job_execute(model=model, pk=upload_id, run=run, task_id=task_id, worker=worker, timed=True)


def _shown_targets(upload) -> list:
    """The frozen releases an attack run sees: its target, or every target but its own
    team's for an upload covering every target."""
    if upload.target_id is not None:
        return [upload.target]
    return list(selectors.attack_target_choices(scorer=upload.scorer, team=upload.team))


def _target_folders(shown, scratch: Path) -> dict[str, Path]:
    """The shown frozen releases, as uploaded, by the target team's slug."""
    return {
        frozen.team.slug: submission_folder(
            frozen.release.file,
            name=submission_name(frozen.release),
            into=scratch / frozen.team.slug,
        )
        for frozen in shown
    }


def _run(model, upload, program) -> tuple[str, JobMessage | None, dict]:
    """(status, message, values) of one run; every failure ends with a reason."""
    scorer = upload.scorer
    config = selectors.round_config(scorer.round)
    # The packs of the data the upload is scored on (``run_choice``).
    packs = selectors.current_packs(scorer=scorer, choice=run_choice(upload))
    attack = model is Attack
    work = work_folder() if attack else None
    result_work = None
    try:
        ready = prepared(program, packs=packs)
        shown = _shown_targets(upload) if attack else []
        targets = _target_folders(shown, work)
        target = upload.target.team.slug if attack and upload.target_id is not None else None
        result, result_work = program_run(
            ready,
            kind="attack" if attack else "release",
            submission_field=upload.file,
            submission_name=submission_name(upload),
            context=run_context(
                upload=upload,
                phase="attack" if attack else "release",
                target=target,
                targets=sorted(targets),
                choices=target_choices(scorer=scorer, shown=shown),
                slots=target_slots(scorer=scorer, shown=shown),
            ),
            config=config.as_dict(),
            primary_key=config.attack_primary if attack else config.release_primary,
            targets=targets or None,
        )
        values = {
            "program": program,
            "program_ms": round(result.program_seconds * 1000),
            "tail": result.tail[-4000:],
        }
        if result.status != "ok":
            if result.status == "failed":
                log.error("scorer run of %s %s failed: %s", model.__name__, upload.pk, result.code)
            return Status.FAILED, result_message(result), values
        values["scores"] = result.scores
        if attack and upload.target_id is None:
            values["targets"] = result.targets
        # A frozen target's public files are what the attackers downloaded and attacked: a
        # rescore by a new version replaces its scores, never the files the freeze published.
        public = not attack and not selectors.published_as_target(release=upload)
        values.update(_stored_outputs(upload, result, public=public))
        return Status.FINISHED, None, values
    except ScoringError as error:
        return Status.FAILED, JobMessage.from_scoring_error(error), {"program": program}
    except Exception as error:  # noqa: BLE001 - a job must end with a reason, never hang
        log.exception("scorer run of %s %s crashed", model.__name__, upload.pk)
        return Status.FAILED, scorer_crash_message(error), {"program": program}
    finally:
        for folder in (work, result_work):
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)


def release_score(*, release_id: int, task_id: str = "", worker: str = "") -> None:
    upload_score(model=Release, upload_id=release_id, task_id=task_id, worker=worker)


def attack_score(*, attack_id: int, task_id: str = "", worker: str = "") -> None:
    upload_score(model=Attack, upload_id=attack_id, task_id=task_id, worker=worker)
