"""Reading the 2015 game's submissions, targets and the data a team may use."""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from django.db.models import F, QuerySet, Window
from django.db.models.functions import RowNumber

import scoring
from pwscup.accounts.models import Team
from pwscup.competitions.models import Phase, Round
from pwscup.competitions.selectors import cached_table, round_original_table, table_config
from pwscup.core.files import opened
from pwscup.core.form_fields import digits_value
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    BuiltinAttack,
    Pwscup2015Round,
    Target,
    TeamDataset,
)
from pwscup.pwscup2015.ranking import anonymization_key, submission_safety
from pwscup.submissions.messages import JobFailure
from pwscup.submissions.models import Status
from pwscup.submissions.voids import counted, counts


def team_dataset(*, round: Round, team: Team) -> TeamDataset | None:
    return TeamDataset.objects.filter(round=round, team=team).first()


def team_original_table(*, round: Round, team: Team):
    """The original X a team anonymizes: the shared table, or its own sample."""
    if round.pwscup2015.is_per_team:
        dataset = team_dataset(round=round, team=team)
        if dataset is None:
            raise JobFailure("job.no_sample")
        table = cached_table(dataset.file, f"dataset-{dataset.pk}")
    else:
        table = round_original_table(round=round)
    return table, table_config(round=round, table=table)


def team_submissions(*, phase: Phase, team: Team) -> QuerySet[AnonymizationSubmission]:
    return AnonymizationSubmission.objects.filter(phase=phase, team=team).order_by(
        "-created_at", "-id"
    )


def phase_scored_scores(*, phase: Phase, team_ids) -> list[tuple[Team, dict]]:
    """``(team, scores)`` of every finished anonymization of ``phase`` by ``team_ids`` (one
    query): the faint points of the leaderboard's chart (a voided one is not drawn)."""
    finished = counted(
        AnonymizationSubmission.objects.filter(
            phase=phase, team_id__in=list(team_ids), status=Status.FINISHED
        )
    ).select_related("team")
    return [(s.team, s.scores) for s in finished.only("team", "scores").order_by("pk")]


def representative_submission(*, phase: Phase, team: Team) -> AnonymizationSubmission | None:
    """The submission that stands for the team on the leaderboard, as its target and in
    the final ranking — the same one everywhere (see ``representative_submissions``)."""
    return representative_submissions(phase=phase, team_ids=[team.pk]).get(team.pk)


def representative_submissions(
    *, phase: Phase, team_ids=None
) -> dict[int, AnonymizationSubmission]:
    """Every team's representative submission, by team id, in one query.

    Until the round is frozen: the round's selection rule over the team's scored
    submissions. Once frozen: the submission the freeze published as the team's target.
    An upload still being scored at the freeze does not replace it when it finishes
    later (the automatic freeze waits for such uploads; freezing again republishes).
    """
    if phase.round.pwscup2015.frozen_at is not None:
        targets = Target.objects.filter(round_id=phase.round_id).select_related("submission")
        if team_ids is not None:
            targets = targets.filter(team_id__in=list(team_ids))
        return {target.team_id: target.submission for target in targets}
    return submissions_by_rule(phase=phase, team_ids=team_ids)


def team_representative(
    *, phase: Phase, team: Team, submissions: list[AnonymizationSubmission]
) -> AnonymizationSubmission | None:
    """``representative_submission`` for a page that has read every submission of the team
    in ``phase`` (``team_submissions``): until the freeze the selection rule picks among
    them without another query; once frozen, the published target is read."""
    if phase.round.pwscup2015.frozen_at is not None:
        return representative_submission(phase=phase, team=team)
    return submission_by_rule_among(submissions, round=phase.round)


def submission_by_rule_among(
    submissions: list[AnonymizationSubmission], *, round: Round
) -> AnonymizationSubmission | None:
    """The selection rule of ``submissions_by_rule`` over one team's submissions already
    read (any order, any status, voided or not): the selected finished one, else the newest
    finished one; or, under "best", the best finished one; a voided one never. The tests
    hold both to the same answers."""
    finished = [s for s in submissions if s.status == Status.FINISHED and counts(s)]
    if round.pwscup2015.selection_rule == Pwscup2015Round.SelectionRule.BEST:
        return _best(finished, round)
    return max(finished, key=lambda s: (s.is_selected, s.created_at, s.pk), default=None)


def submission_by_rule(*, phase: Phase, team: Team) -> AnonymizationSubmission | None:
    """The round's selection rule over the team's scored submissions (what a freeze publishes)."""
    return submissions_by_rule(phase=phase, team_ids=[team.pk]).get(team.pk)


def submissions_by_rule(*, phase: Phase, team_ids=None) -> dict[int, AnonymizationSubmission]:
    """The selection rule over every team's scored submissions, by team id, in one query.

    "Selected, else the last valid one": a window over each team's finished submissions,
    the selected one first, then the newest. "Best": every finished submission is read
    once and the ranking rule picks each team's best. A voided submission is none of them
    (``pwscup.submissions.voids.counted``): the team's next valid one takes its place.
    """
    finished = counted(AnonymizationSubmission.objects.filter(phase=phase, status=Status.FINISHED))
    if team_ids is not None:
        finished = finished.filter(team_id__in=list(team_ids))
    if phase.round.pwscup2015.selection_rule == Pwscup2015Round.SelectionRule.BEST:
        by_team: dict[int, list[AnonymizationSubmission]] = {}
        for submission in finished.order_by():
            by_team.setdefault(submission.team_id, []).append(submission)
        return {team_id: _best(found, phase.round) for team_id, found in by_team.items()}
    newest_first = Window(
        RowNumber(),
        partition_by=[F("team_id")],
        order_by=[F("is_selected").desc(), F("created_at").desc(), F("id").desc()],
    )
    chosen = finished.annotate(position=newest_first).filter(position=1).order_by()
    return {submission.team_id: submission for submission in chosen}


def ranking_key(scores: dict, round: Round) -> tuple:
    """How good a submission is by the round's rule (lower is better)."""
    return anonymization_key(scores=scores, safety=submission_safety(scores, round), round=round)


def _best(submissions: list[AnonymizationSubmission], round: Round):
    if not submissions:
        return None
    return min(submissions, key=lambda s: (ranking_key(s.scores, round), -s.pk))


def round_targets(*, round: Round) -> QuerySet[Target]:
    return Target.objects.filter(round=round).select_related("team", "submission")


def team_attacks(*, phase: Phase, team: Team) -> QuerySet[AttackSubmission]:
    return (
        AttackSubmission.objects.filter(phase=phase, team=team)
        .select_related("target__team")
        .order_by("-created_at", "-id")
    )


JOB_MODELS = {
    Phase.Kind.ANONYMIZATION: AnonymizationSubmission,
    Phase.Kind.ATTACK: AttackSubmission,
}


def team_jobs(*, team: Team, keys) -> list[tuple[str, object]]:
    """The team's uploads named by keys such as ``anonymization-12`` or ``attack-5``
    (what the page's "being scored" notices watch); unknown keys and others' uploads
    are left out."""
    wanted = []
    for key in list(keys)[:20]:
        kind, _, text = str(key).partition("-")
        pk = digits_value(text)
        if kind in JOB_MODELS and pk is not None:
            wanted.append((key, kind, pk))
    loaded = {}  # one query per kind of upload, whatever the number of keys
    for kind, model in JOB_MODELS.items():
        pks = [pk for _key, wanted_kind, pk in wanted if wanted_kind == kind]
        if pks:
            for job in model.objects.filter(pk__in=pks, team=team):
                loaded[(kind, job.pk)] = job
    return [(key, loaded[(kind, pk)]) for key, kind, pk in wanted if (kind, pk) in loaded]


def _field_values(queryset) -> list:
    """Every stored column of the rows, so a column added later counts too."""
    names = [f.attname for f in queryset.model._meta.concrete_fields]
    return list(queryset.order_by("pk").values_list(*names))


def older_scorer_version(scored) -> str:
    """The older scorer version that computed these scores, or ``""`` when current.

    ``scored`` is a submission or a target (its built-in rates); a job that never
    completed has no version and is not stale.
    """
    version = scored.scorer_version
    return version if version and version != scoring.SCORER_VERSION else ""


@dataclass(frozen=True)
class StaleScores:
    """What of a round was scored with an older scorer version (see ``rescore_round``)."""

    anonymizations: int
    targets: int
    attacks: int
    versions: tuple[str, ...]
    current: str = scoring.SCORER_VERSION

    @property
    def count(self) -> int:
        return self.anonymizations + self.targets + self.attacks


def round_stale_scores(*, round: Round) -> StaleScores:
    current = scoring.SCORER_VERSION
    stale = [
        queryset.exclude(scorer_version="").exclude(scorer_version=current)
        for queryset in (
            AnonymizationSubmission.objects.filter(phase__round=round),
            BuiltinAttack.objects.filter(target__round=round),
            AttackSubmission.objects.filter(phase__round=round),
        )
    ]
    versions = set()
    for queryset in stale:
        versions.update(queryset.order_by().values_list("scorer_version", flat=True).distinct())
    return StaleScores(*(queryset.count() for queryset in stale), versions=tuple(sorted(versions)))


def target_truth(*, target: Target) -> np.ndarray:
    """The secret answer of a target: the 1-based reference row of each published row."""
    with opened(target.truth_file) as handle:
        return pd.read_csv(handle)["row"].to_numpy(dtype=np.int64)
