"""The organizer's ranking program (a round whose ``ranking`` setting is ``program``): run on
request, on a worker, in the sandbox, with every frozen release's scores, the attack matrix
and the counted attacks' scores as ``res/standings.json`` and the counted attacks' files
under ``input/attacks/<attacker>/<upload id>/``; it returns each team's ``release`` and
``attack`` score under ``targets`` in its ``scores.json``, which rank the round
(``selectors.standings``)."""

import json
import logging
import shutil
from pathlib import Path

from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import round_audit_record
from pwscup.core.errors import Refused
from pwscup.scorer import selectors
from pwscup.scorer.counted_attacks import primary_matrix
from pwscup.scorer.models import Attack, RankingRun, ScorerRound
from pwscup.scorer.services.common import RANKING_TASK, result_message
from pwscup.scorer.services.runs import (
    prepared,
    program_run,
    submission_folder,
    work_folder,
)
from pwscup.scorer.services.scoring_runs import submission_name
from pwscup.submissions import broker
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.models import Status
from pwscup.submissions.services.jobs import job_execute, scorer_crash_message
from scoring.errors import ScoringError

log = logging.getLogger(__name__)
STANDINGS = "standings.json"


def ranking_request(*, scorer: ScorerRound, user=None) -> RankingRun:
    """Queue a run of the ranking program (refused unless the round ranks by its program,
    is frozen and has a program ready)."""
    config = selectors.round_config(scorer.round)
    if config.ranking != "program":
        raise Refused(
            _("This round is ranked by the platform's rules, not by a program."), status=409
        )
    scorer.refresh_from_db(fields=["frozen_at"])
    if scorer.frozen_at is None:
        raise Refused(_("The releases are not frozen yet: there is nothing to rank."), status=409)
    if selectors.current_program(scorer=scorer) is None:
        raise Refused(_("The round has no scoring program ready yet."), status=409)
    with transaction.atomic():
        run = RankingRun.objects.create(scorer=scorer)
        round_audit_record(
            user=user, round=scorer.round, action=AuditEntry.Action.RANKING_RUN, ranking_run=run.pk
        )
        transaction.on_commit(lambda: broker.job_send(RANKING_TASK, run.pk))
    return run


def standings_input(*, scorer: ScorerRound) -> dict:
    """What the ranking program reads: every frozen release's scores (by team slug), the
    matrix of attack primary scores ``{target: {attacker: value}}``, the attack that counts
    in each cell with every score it has there (``attacks``: ``{target: {attacker:
    {"upload": id, "scores": {...}}}}``), the settings and the disqualified teams."""
    from pwscup.accounts.selectors import disqualification_rule

    config = selectors.round_config(scorer.round)
    rule = disqualification_rule(competition_id=scorer.round.competition_id)
    targets = list(selectors.round_targets(scorer=scorer))
    counted = selectors.counted_attacks(scorer=scorer, config=config)
    return {
        "releases": {t.team.slug: t.release.scores for t in targets},
        "matrix": primary_matrix(counted, key=config.attack_primary),
        "attacks": {
            target: {
                attacker: {"upload": found.upload.pk, "scores": found.scores}
                for attacker, found in row.items()
            }
            for target, row in counted.items()
        },
        "disqualified": sorted(t.team.slug for t in targets if rule.marked(t.team.pk)),
        "settings": config.as_dict(),
    }


def counted_folders(standings: dict, *, scratch: Path) -> dict[str, Path]:
    """The files of each upload counted in ``standings`` (its ``attacks``), laid out as its
    attack run's ``res/`` was (a ZIP unpacked, with the limits of any ZIP), by
    ``<attacker>/<upload id>``: what the ranking run binds read-only under
    ``input/attacks/``. An upload counted on several targets is laid out once."""
    uploads = {
        found["upload"]: attacker
        for row in standings["attacks"].values()
        for attacker, found in row.items()
    }
    attacks = Attack.objects.filter(pk__in=uploads).only("pk", "file", "original_filename")
    return {
        f"{uploads[attack.pk]}/{attack.pk}": submission_folder(
            attack.file,
            name=submission_name(attack),
            into=scratch / uploads[attack.pk] / str(attack.pk),
        )
        for attack in attacks
    }


def ranking_score(*, run_id: int, task_id: str = "", worker: str = "") -> None:
    """The run's job: the program's ``ranking_command`` on the standings; FINISHED with each
    team's two scores, or FAILED with the program's message."""
    job_execute(model=RankingRun, pk=run_id, run=_ranking, task_id=task_id, worker=worker)


def _ranking(run: RankingRun) -> tuple[str, JobMessage | None, dict]:
    scorer = run.scorer
    program = selectors.current_program(scorer=scorer)
    if program is None:
        return Status.FAILED, JobMessage.platform("job.no_program"), {}
    config = selectors.round_config(scorer.round)
    packs = selectors.current_packs(scorer=scorer)
    work = scratch = None
    try:
        ready = prepared(program, packs=packs)
        standings = standings_input(scorer=scorer)
        scratch = work_folder()
        attacks = counted_folders(standings, scratch=scratch)
        text = json.dumps(standings, allow_nan=False, ensure_ascii=False)
        result, work = program_run(
            ready,
            kind="ranking",
            submission_name=STANDINGS,
            submission_bytes=text.encode("utf-8"),
            context={
                "phase": "ranking",
                "round": {"slug": scorer.round.slug},
                # Each target's team number, as an attack run is told it: an answer laid out
                # by team number (PWSCup 2025's column i) is read by it.
                "target_slots": {
                    t.team.slug: t.slot_number for t in selectors.round_targets(scorer=scorer)
                },
            },
            config=config.as_dict(),
            primary_key=None,
            attacks=attacks or None,
        )
        values = {"program": program, "tail": result.tail[-4000:]}
        if result.status != "ok":
            return Status.FAILED, result_message(result), values
        values["teams"] = result.targets
        return Status.FINISHED, None, values
    except ScoringError as error:
        return Status.FAILED, JobMessage.from_scoring_error(error), {"program": program}
    except Exception as error:  # noqa: BLE001 - a job must end with a reason, never hang
        log.exception("the ranking program of %s crashed", scorer)
        return Status.FAILED, scorer_crash_message(error), {"program": program}
    finally:
        for folder in (work, scratch):
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
