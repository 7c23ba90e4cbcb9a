"""Reading submissions, targets and the data a team may use."""

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from django.db.models import Count, F, Q, QuerySet, Sum, Window
from django.db.models.functions import RowNumber

import scoring
from pwscup.accounts.models import Team
from pwscup.accounts.selectors import user_is_organizer
from pwscup.competitions.models import Phase, Round
from pwscup.competitions.ranking import anonymization_key, submission_safety
from pwscup.competitions.selectors import cached_table, round_original_table, table_config
from pwscup.submissions.messages import JobFailure
from pwscup.submissions.models import (
    AnonymizationSubmission,
    AttackSubmission,
    Status,
    Target,
    TeamDataset,
)


def team_dataset(*, round: Round, team: Team) -> TeamDataset | None:
    return TeamDataset.objects.filter(round=round, team=team).first()


def team_original_table(*, round: Round, team: Team):
    """The original X a team anonymizes: the shared table, or its own sample."""
    if round.is_per_team:
        dataset = team_dataset(round=round, team=team)
        if dataset is None:
            raise JobFailure("job.no_sample")
        table = cached_table(dataset.file, f"dataset-{dataset.pk}")
    else:
        table = round_original_table(round=round)
    return table, table_config(round=round, table=table)


@dataclass(frozen=True)
class Quota:
    used_today: int
    used_total: int
    resets_at: dt.datetime


def day_start_in(time_zone: str, now: dt.datetime) -> dt.datetime:
    """Midnight of ``now``'s day in ``time_zone``: when a daily quota resets."""
    local = now.astimezone(zoneinfo.ZoneInfo(time_zone))
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def quota_usage(*, model, phase: Phase, team: Team, now: dt.datetime) -> Quota:
    """What the team has used of the phase's limits; FAILED uploads do not count."""
    uploads = model.objects.filter(phase=phase, team=team)
    return uploads_quota_usage(uploads, time_zone=phase.round.timezone, now=now)


def uploads_quota_usage(uploads: QuerySet, *, time_zone: str, now: dt.datetime) -> Quota:
    """What ``uploads`` (one team's, of one window: a phase, a release step, …) have used of
    its limits, with ``created_at`` and ``status`` fields; FAILED uploads do not count."""
    counted = uploads.exclude(status=Status.FAILED)
    day_start = day_start_in(time_zone, now)
    used = counted.aggregate(  # one query for both counts
        today=Count("pk", filter=Q(created_at__gte=day_start)), total=Count("pk")
    )
    return Quota(
        used_today=used["today"],
        used_total=used["total"],
        resets_at=day_start + dt.timedelta(days=1),
    )


def upload_models() -> list[type]:
    """The models of every round kind's team uploads (``RoundKind.upload_models``)."""
    from pwscup.kinds import all_kinds

    return [model for kind in all_kinds() for model in kind.upload_models()]


def team_failed_uploads_since(*, team: Team, since: dt.datetime) -> int:
    """Failed uploads of the team since ``since``, over every kind's uploads."""
    return sum(
        model.objects.filter(team=team, status=Status.FAILED, created_at__gte=since).count()
        for model in upload_models()
    )


def team_stored_upload_bytes(*, team: Team) -> int:
    """Bytes of every file the team has uploaded and the platform keeps (failed ones too),
    over every kind's uploads."""
    return sum(
        model.objects.filter(team=team).aggregate(total=Sum("size"))["total"] or 0
        for model in upload_models()
    )


def team_submissions(*, phase: Phase, team: Team) -> QuerySet[AnonymizationSubmission]:
    return AnonymizationSubmission.objects.filter(phase=phase, team=team).order_by(
        "-created_at", "-id"
    )


def phase_scored_scores(*, phase: Phase, team_ids) -> list[tuple[Team, dict]]:
    """``(team, scores)`` of every finished anonymization of ``phase`` by ``team_ids`` (one
    query): the faint points of the leaderboard's chart."""
    finished = AnonymizationSubmission.objects.filter(
        phase=phase, team_id__in=list(team_ids), status=Status.FINISHED
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
    if phase.round.frozen_at is not None:
        targets = Target.objects.filter(round_id=phase.round_id).select_related("submission")
        if team_ids is not None:
            targets = targets.filter(team_id__in=list(team_ids))
        return {target.team_id: target.submission for target in targets}
    return submissions_by_rule(phase=phase, team_ids=team_ids)


def submission_by_rule(*, phase: Phase, team: Team) -> AnonymizationSubmission | None:
    """The round's selection rule over the team's scored submissions (what a freeze publishes)."""
    return submissions_by_rule(phase=phase, team_ids=[team.pk]).get(team.pk)


def submissions_by_rule(*, phase: Phase, team_ids=None) -> dict[int, AnonymizationSubmission]:
    """The selection rule over every team's scored submissions, by team id, in one query.

    "Selected, else the last valid one": a window over each team's finished submissions,
    the selected one first, then the newest. "Best": every finished submission is read
    once and the ranking rule picks each team's best.
    """
    finished = AnonymizationSubmission.objects.filter(phase=phase, status=Status.FINISHED)
    if team_ids is not None:
        finished = finished.filter(team_id__in=list(team_ids))
    if phase.round.selection_rule == Round.SelectionRule.BEST:
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


def upload_visible_to(*, user, upload, owner_only: bool = False) -> bool:
    """A team's uploaded file: its members, and (unless ``owner_only``) the organizers."""
    if not user.is_authenticated:
        return False
    if upload.team.members.filter(pk=user.pk).exists():
        return True
    return not owner_only and user_is_organizer(user=user, competition=upload.team.competition)


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
        kind, _, pk = str(key).partition("-")
        if kind in JOB_MODELS and pk.isdigit():
            wanted.append((key, kind, int(pk)))
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
            Target.objects.filter(round=round),
            AttackSubmission.objects.filter(phase__round=round),
        )
    ]
    versions = set()
    for queryset in stale:
        versions.update(queryset.order_by().values_list("scorer_version", flat=True).distinct())
    return StaleScores(*(queryset.count() for queryset in stale), versions=tuple(sorted(versions)))
