"""Reads every kind's uploads share: quotas, the team-wide bounds, who may see an upload."""

import datetime as dt
import zoneinfo
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet, Sum

from pwscup.accounts.models import Team
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import user_is_organizer
from pwscup.kinds import all_kinds
from pwscup.submissions.models import Status
from pwscup.submissions.registry import registered_upload_models


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
    """The models of every team upload: every round kind's (``RoundKind.upload_models``) and
    those registered outside the kinds (``pwscup.submissions.registry``, the slides)."""
    kinds = [model for kind in all_kinds() for model in kind.upload_models()]
    return kinds + [model for model in registered_upload_models() if model not in kinds]


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


def upload_visible_to(*, user, upload, owner_only: bool = False) -> bool:
    """A team's uploaded file: its members, and (unless ``owner_only``) the organizers."""
    if not user.is_authenticated:
        return False
    if upload.team.members.filter(pk=user.pk).exists():
        return True
    return not owner_only and user_is_organizer(user=user, competition=upload.team.competition)
