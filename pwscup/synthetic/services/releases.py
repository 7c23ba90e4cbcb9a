"""A team's releases (spec §2): kept through the core's upload pipeline while the release
phase is open and the round is not frozen, checked and scored by a worker
(``release_score``), and the team's choice of its final release."""

from django.utils import timezone
from django.utils.translation import get_language

from pwscup.accounts.models import Team
from pwscup.core.errors import Refused
from pwscup.core.stored import stored_bytes
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.services.jobs import job_execute
from pwscup.submissions.services.two_sided import (
    RELEASE,
    two_sided_release_select,
    two_sided_upload_keep,
)
from pwscup.synthetic import engine, selectors
from pwscup.synthetic.models import SynRelease, SyntheticRound, TeamDraw
from pwscup.synthetic.services.common import SCORE_RELEASE_TASK
from pwscup.synthetic.services.draws import team_draw
from scoring.synthetic.release import read_release
from scoring.synthetic.utility import model_auc, release_scores


def release_upload(
    *, synthetic: SyntheticRound, team: Team, user, uploaded_file, now=None
) -> SynRelease:
    """Keep ``teamX_synthetic.csv`` as uploaded (QUEUED, through the core's upload
    pipeline: size cap, limits, failed-upload cap) and send its check and scores to a
    worker; refused (403) outside the release phase or once the round is frozen."""
    team_draw(synthetic=synthetic, team=team)
    return two_sided_upload_keep(
        state=synthetic,
        kind=RELEASE,
        model=SynRelease,
        uploads=SynRelease.objects.filter(synthetic=synthetic, team=team),
        task=SCORE_RELEASE_TASK,
        team=team,
        uploaded_file=uploaded_file,
        stored_name=f"{team.slug}_synthetic.csv",
        now=now or timezone.now(),
        synthetic=synthetic,
        user=user,
    )


def _auc_train(*, draw: TeamDraw, members, holdout, population) -> float:
    """U_ML's denominator for the team's draw, computed once and kept on the draw."""
    if draw.auc_train is None:
        draw.auc_train = model_auc(members, holdout, population)
        TeamDraw.objects.filter(pk=draw.pk).update(auc_train=draw.auc_train)
    return draw.auc_train


def release_score(*, release_id: int, task_id: str = "", worker: str = "") -> None:
    """The release's job (QUEUED → RUNNING → FINISHED/FAILED, the core's state machine): a
    release breaking a rule ends FAILED with the spec's message (column, row, value); a
    valid one gets U_ML, U_1, U_2, R_copy and DCR_5 of the members and of the holdout, and
    whether it passes the round's gates. One failing the copy gate ends FINISHED too (kept,
    scored, shown) with the gate's message; ``selectors.final_release`` never picks it."""

    def compute(release: SynRelease) -> dict:
        synthetic = release.synthetic
        draw = team_draw(synthetic=synthetic, team=release.team)
        pack = engine.draw_population(synthetic, draw)
        population = pack.population
        table = read_release(stored_bytes(release.file), population, name=release.original_filename)
        members = engine.rows_of(population, draw.members)
        holdout = engine.rows_of(population, pack.holdout)
        scores = release_scores(
            table,
            members,
            holdout,
            population,
            auc_train=_auc_train(
                draw=draw, members=members, holdout=holdout, population=population
            ),
        )
        config = population.config
        return {
            "rows": len(table),
            "scores": {
                **scores.as_dict(),
                "passes": scores.passes(**config.as_dict()["gates"]),
            },
            "copy_gate": selectors.release_copy_gate(scores.as_dict(), config=config),
        }

    def copy_gate_message(values: dict) -> JobMessage | None:
        copy_gate = values.pop("copy_gate", None)
        return JobMessage.from_scoring_error(copy_gate) if copy_gate is not None else None

    job_execute(
        model=SynRelease,
        pk=release_id,
        compute=compute,
        task_id=task_id,
        worker=worker,
        timed=True,
        remark=copy_gate_message,
    )


def release_select(*, release: SynRelease, now=None) -> None:
    """Make a valid release the team's final one (the freeze publishes it); refused once
    the round is frozen or the release phase has closed."""
    synthetic = release.synthetic

    def copy_gate_check(release: SynRelease) -> None:
        # A release failing the copy gate is kept and scored, never a final one.
        copy_gate = selectors.release_copy_gate(
            release.scores, config=engine.round_config(synthetic.round)
        )
        if copy_gate is not None:
            raise Refused(copy_gate.render(get_language()))

    two_sided_release_select(state=synthetic, release=release, now=now, check=copy_gate_check)
