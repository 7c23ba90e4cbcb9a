"""Reading submissions, targets and the data a team may use."""

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from django.db.models import QuerySet, Sum

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


def local_day_start(*, phase: Phase, now: dt.datetime) -> dt.datetime:
    """Midnight of ``now``'s day in the round's time zone: when the daily quota resets."""
    local = now.astimezone(zoneinfo.ZoneInfo(phase.round.timezone))
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def quota_usage(*, model, phase: Phase, team: Team, now: dt.datetime) -> Quota:
    """What the team has used of the phase's limits; FAILED uploads do not count."""
    counted = model.objects.filter(phase=phase, team=team).exclude(status=Status.FAILED)
    day_start = local_day_start(phase=phase, now=now)
    return Quota(
        used_today=counted.filter(created_at__gte=day_start).count(),
        used_total=counted.count(),
        resets_at=day_start + dt.timedelta(days=1),
    )


def team_failed_uploads_since(*, team: Team, since: dt.datetime) -> int:
    """Failed uploads (anonymizations and attacks) of the team since ``since``."""
    return sum(
        model.objects.filter(team=team, status=Status.FAILED, created_at__gte=since).count()
        for model in (AnonymizationSubmission, AttackSubmission)
    )


def team_stored_upload_bytes(*, team: Team) -> int:
    """Bytes of every file the team has uploaded and the platform keeps (failed ones too)."""
    return sum(
        model.objects.filter(team=team).aggregate(total=Sum("size"))["total"] or 0
        for model in (AnonymizationSubmission, AttackSubmission)
    )


def team_submissions(*, phase: Phase, team: Team) -> QuerySet[AnonymizationSubmission]:
    return AnonymizationSubmission.objects.filter(phase=phase, team=team).order_by(
        "-created_at", "-id"
    )


def representative_submission(*, phase: Phase, team: Team) -> AnonymizationSubmission | None:
    """The submission that stands for the team on the leaderboard, as its target and in
    the final ranking — the same one everywhere.

    Until the round is frozen: the round's selection rule over the team's scored
    submissions. Once frozen: the submission the freeze published as the team's target.
    An upload still being scored at the freeze does not replace it when it finishes
    later (the automatic freeze waits for such uploads; freezing again republishes).
    """
    if phase.round.frozen_at is not None:
        target = (
            Target.objects.filter(round_id=phase.round_id, team=team)
            .select_related("submission")
            .first()
        )
        return target.submission if target is not None else None
    return submission_by_rule(phase=phase, team=team)


def submission_by_rule(*, phase: Phase, team: Team) -> AnonymizationSubmission | None:
    """The round's selection rule over the team's scored submissions (what a freeze publishes)."""
    finished = AnonymizationSubmission.objects.filter(
        phase=phase, team=team, status=Status.FINISHED
    )
    if phase.round.selection_rule == Round.SelectionRule.BEST:
        best = _best(list(finished), phase.round)
        return best
    selected = finished.filter(is_selected=True).first()
    return selected or finished.order_by("-created_at", "-id").first()


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
    found = []
    for key in list(keys)[:20]:
        kind, _, pk = str(key).partition("-")
        model = JOB_MODELS.get(kind)
        if model is None or not pk.isdigit():
            continue
        job = model.objects.filter(pk=int(pk), team=team).first()
        if job is not None:
            found.append((key, job))
    return found


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
