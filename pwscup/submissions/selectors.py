"""Reads every kind's uploads share: quotas, the team-wide bounds, who may see an upload."""

import datetime as dt
import functools
import zoneinfo
from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Sum

from pwscup.accounts.models import Membership, Team
from pwscup.accounts.page_versions import VersionRead
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.competitions.selectors import organized_competitions, user_is_organizer
from pwscup.core.sql_names import column, table
from pwscup.submissions.models import KeptUpload, LiveVersion, Status
from pwscup.submissions.registry import job_kinds
from pwscup.submissions.voids import counted


@dataclass(frozen=True)
class Quota:
    used_today: int
    used_total: int
    resets_at: dt.datetime


@dataclass(frozen=True)
class QuotaDay:
    """The day a daily limit counts uploads in: from ``reset_hour`` o'clock to the same hour
    of the next day, local time of ``time_zone`` (the round's). The one rule of every kind's
    daily limits and of the failed-upload cap (``quota_day_of`` gives a round's).

    Wall-clock hours: a day across a change of clocks lasts 23 or 25 hours, and a reset hour
    the change skips starts the day at the change (``zoneinfo`` reads the skipped hour with
    the offset before it)."""

    time_zone: str
    reset_hour: int = 0

    def _reset_on(self, day: dt.date) -> dt.datetime:
        zone = zoneinfo.ZoneInfo(self.time_zone)
        # Through UTC and back: a reset hour that the day skips becomes a real local time.
        wall = dt.datetime.combine(day, dt.time(self.reset_hour), tzinfo=zone)
        return wall.astimezone(dt.UTC).astimezone(zone)

    def _day_of(self, now: dt.datetime) -> dt.date:
        """The local date whose reset began ``now``'s quota day."""
        local_day = now.astimezone(zoneinfo.ZoneInfo(self.time_zone)).date()
        # Aware times of one zone compare by their wall clocks: compare the instants.
        if self._reset_on(local_day).astimezone(dt.UTC) > now.astimezone(dt.UTC):
            return local_day - dt.timedelta(days=1)
        return local_day

    def start(self, now: dt.datetime) -> dt.datetime:
        """The last reset at or before ``now``: when ``now``'s quota day began."""
        return self._reset_on(self._day_of(now))

    def resets_at(self, now: dt.datetime) -> dt.datetime:
        """The next reset after ``now``: when ``now``'s quota day ends."""
        return self._reset_on(self._day_of(now) + dt.timedelta(days=1))


def quota_day_of(round: Round | None, *, time_zone: str | None = None) -> QuotaDay:
    """The quota day of a round's upload windows: its time zone and reset hour
    (``Round.quota_reset_hour``). A window of no round (a competition-wide presentation
    window) gives ``time_zone``, and its day starts at midnight."""
    if round is None:
        return QuotaDay(time_zone=time_zone)
    return QuotaDay(time_zone=time_zone or round.timezone, reset_hour=round.quota_reset_hour)


def quota_usage(*, model, phase: Phase, team: Team, now: dt.datetime) -> Quota:
    """What the team has used of the phase's limits; FAILED uploads do not count."""
    uploads = model.objects.filter(phase=phase, team=team)
    return uploads_quota_usage(uploads, day=quota_day_of(phase.round), now=now)


def counted_uploads(uploads: QuerySet) -> QuerySet:
    """The uploads that count against a window's limits: every one but the FAILED (a
    refused upload uses nothing) and the voided (``voids.counted``: the team may upload
    again)."""
    return counted(uploads).exclude(status=Status.FAILED)


def target_uses(uploads: QuerySet, *, field: str = "target") -> dict[int, int]:
    """How many of ``uploads`` (one team's, of one phase) count on each target, by the
    target's id in ``field``: what ``Phase.target_limit`` limits, one query."""
    counts = counted_uploads(uploads).values(field).annotate(used=Count("pk")).order_by()
    return {row[field]: row["used"] for row in counts if row[field] is not None}


def upload_counts(uploads: QuerySet, *, teams: bool = False) -> dict:
    """How many of a kind's kept ``uploads`` (a round's) are in each state, as the consoles'
    panels show them (one query): ``rows``, ``(label, count)`` per state in ``Status``'s
    order, under the model's own name of it (``STATUS_LABELS``) where it has one; ``all``,
    ``scored`` (finished) and ``failed``; with ``teams``, how many teams sent them (one
    query more)."""
    by_status = dict(
        uploads.order_by().values_list("status").annotate(n=Count("pk")).values_list("status", "n")
    )
    counts = {
        "rows": [
            (uploads.model.STATUS_LABELS.get(s) or label, by_status.get(s, 0))
            for s, label in Status.choices
        ],
        "all": sum(by_status.values()),
        "scored": by_status.get(Status.FINISHED, 0),
        "failed": by_status.get(Status.FAILED, 0),
    }
    if teams:
        counts["teams"] = uploads.values("team").distinct().count()
    return counts


def uploads_quota_usage(uploads: QuerySet, *, day: QuotaDay, now: dt.datetime) -> Quota:
    """What ``uploads`` (one team's, of one window: a phase, a release step, …) have used of
    its limits, with ``created_at`` and ``status`` fields; FAILED uploads do not count.
    "Today" is ``now``'s quota day (``day``: the window's round's, ``quota_day_of``)."""
    used = counted_uploads(uploads).aggregate(**_quota_counts(day, now))  # one query
    return Quota(
        used_today=used["today"],
        used_total=used["total"],
        resets_at=day.resets_at(now),
    )


def _quota_counts(day: QuotaDay, now: dt.datetime) -> dict:
    """The two counts of a window's limits: today's (from ``now``'s quota day's start), all."""
    return {"today": Count("pk", filter=Q(created_at__gte=day.start(now))), "total": Count("pk")}


def read_uploads_quota_usage(uploads, *, day: QuotaDay, now: dt.datetime) -> Quota:
    """``uploads_quota_usage`` over rows already read (every upload of one team's window,
    whatever its status): a page that lists them counts them without another query. The
    same rule: FAILED and voided uploads do not count, "today" is ``now``'s quota day."""
    day_start = day.start(now)
    using = [
        upload
        for upload in uploads
        if upload.status != Status.FAILED and getattr(upload, "voided_at", None) is None
    ]
    return Quota(
        used_today=sum(upload.created_at >= day_start for upload in using),
        used_total=len(using),
        resets_at=day.resets_at(now),
    )


def phase_quota(phase, uploads, *, now: dt.datetime) -> dict | None:
    """A team's quota line of ``phase`` (``rounds/_quota.html``: its limits, what the team's
    ``uploads`` of it, already read, use today and in all, when the day's count resets),
    for every kind whose uploads count in a core ``Phase``; ``None`` without the phase."""
    if phase is None:
        return None
    quota = read_uploads_quota_usage(uploads, day=quota_day_of(phase.round), now=now)
    return {
        "phase": phase,
        "used_today": quota.used_today,
        "used_total": quota.used_total,
        "resets_at": quota.resets_at,
    }


def upload_models() -> list[type]:
    """The models of every team upload: the kept uploads (``KeptUpload``) among the jobs of
    every round kind (``RoundKind.jobs``) and of the apps outside the kinds
    (``pwscup.submissions.registry``, the slides). A team's file is kept with the job that
    checks it, so its job says it; no kind lists its uploads a second time."""
    models = [job.model for job in job_kinds() if issubclass(job.model, KeptUpload)]
    return list(dict.fromkeys(models))


@dataclass(frozen=True)
class TeamUploads:
    """What a team's uploads hold against the team-wide bounds, over every kind's uploads:
    how many failed since a time, and the bytes of every file kept (failed ones too)."""

    failed_since: int
    stored_bytes: int


def team_uploads_held(*, team: Team, since: dt.datetime) -> TeamUploads:
    """The team's failed uploads since ``since`` and its stored bytes (``TeamUploads``), in
    one query: each upload model's two sums, joined with ``UNION ALL`` (a query a model, two
    a model before: 20 round trips on every upload over the 10 models)."""
    per_model = [
        model.objects.filter(team=team)
        .order_by()
        .values("team")
        .annotate(
            failed=Count("pk", filter=Q(status=Status.FAILED, created_at__gte=since)),
            stored=Sum("size"),
        )
        .values_list("failed", "stored")
        for model in upload_models()
    ]
    rows = list(per_model[0].union(*per_model[1:], all=True))
    return TeamUploads(
        failed_since=sum(failed for failed, _stored in rows),
        stored_bytes=sum(stored or 0 for _failed, stored in rows),
    )


def upload_visible_to(*, user, upload, owner_only: bool = False) -> bool:
    """A team's uploaded file: its members, and (unless ``owner_only``) the organizers."""
    if not user.is_authenticated:
        return False
    if upload.team.members.filter(pk=user.pk).exists():
        return True
    return not owner_only and user_is_organizer(user=user, competition=upload.team.competition)


# --- live status (``LiveVersion``; the writes are ``services/live.py``) --------------------


def live_etag_of(*, round_id: int | None, team_id: int | None, version: int | None) -> str:
    """The ETag of a scope at ``version`` (``None``: no row yet, version 0). The round and
    team are part of it, so that the ETag of one scope never answers for another."""
    return f'"live-{round_id or "none"}-{team_id or "round"}-{version or 0}"'


def live_version_read(*, round_id: int, team_id: int) -> VersionRead:
    """The team's live version in the round, as a kept page reads it again
    (``pwscup.accounts.conditional.round_page_etag``'s ``versions``)."""
    return VersionRead("submissions.LiveVersion", (("round_id", round_id), ("team_id", team_id)))


def live_etag(*, round_id: int | None, team_id: int | None = None) -> str:
    """The scope's ETag now. A page that shows the scope's jobs reads it BEFORE it reads the
    jobs, and embeds it for its script: a job that changes after this read bumps the
    version past it, so the next poll cannot miss the change."""
    version = (
        LiveVersion.objects.filter(round_id=round_id, team_id=team_id)
        .values_list("version", flat=True)
        .first()
    )
    return live_etag_of(round_id=round_id, team_id=team_id, version=version)


def _with_live_version(rows: QuerySet, version: QuerySet, *fields: str) -> tuple | None:
    """The first of ``rows`` as ``(*fields, live version)``, in the same query: ``version``
    is the ``LiveVersion`` of its scope (through ``OuterRef``); ``None``: no such row."""
    annotated = rows.annotate(live_version=Subquery(version.values("version")[:1]))
    return annotated.values_list(*fields, "live_version").first()


def live_team_poll_etag(*, user, competition_slug: str, round_slug: str) -> str | None:
    """The ETag of ``user``'s team's scope in the round, from ONE query that also checks the
    access (the round exists in the competition, the user is a member of a team of it: what
    ``round_access`` grants a team's member); ``None`` when it cannot say so (a visitor, no
    team, no such round): the poll then answers through the page's full access check."""
    if not user.is_authenticated:
        return None
    # Every open page of a team polls it while a job is pending: written as SQL once
    # (``pwscup.core.sql_names``, as the round pages' versions), not built by the ORM on each
    # poll; ``tests/pwscup/test_live_status.py`` holds it to the ORM's reading.
    with connection.cursor() as cursor:
        cursor.execute(_team_poll_sql(), [user.pk, competition_slug, round_slug])
        row = cursor.fetchone()
    if row is None or row[1] is None:
        return None
    round_id, team_id, version = row
    return live_etag_of(round_id=round_id, team_id=team_id, version=version)


@functools.cache
def _team_poll_sql() -> str:
    """The round of the address, the user's team of its competition and that scope's live
    version (``None``: no row yet), one row (none: no such round)."""
    membership, version, round_, competition = Membership, LiveVersion, Round, Competition
    return (
        f"SELECT s.round_id, s.team_id, (SELECT v.{column(version, 'version')} "
        f"FROM {table(version)} v WHERE v.{column(version, 'round')} = s.round_id "
        f"AND v.{column(version, 'team')} = s.team_id LIMIT 1) "
        f"FROM (SELECT r.{column(round_, 'pk')} AS round_id, "
        f"(SELECT m.{column(membership, 'team')} FROM {table(membership)} m "
        f"WHERE m.{column(membership, 'user')} = %s "
        f"AND m.{column(membership, 'competition')} = r.{column(round_, 'competition')} LIMIT 1) "
        f"AS team_id FROM {table(round_)} r INNER JOIN {table(competition)} c "
        f"ON c.{column(competition, 'pk')} = r.{column(round_, 'competition')} "
        f"WHERE c.{column(competition, 'slug')} = %s AND r.{column(round_, 'slug')} = %s "
        "LIMIT 1) s"
    )


def live_round_poll_etag(*, user, competition_slug: str, round_slug: str) -> str | None:
    """The ETag of the round's own scope for one of its organizers, from ONE query that also
    checks the access (``organized_competitions``, the console's rule); ``None`` otherwise."""
    organized = organized_competitions(user=user)
    version = LiveVersion.objects.filter(round=OuterRef("pk"), team__isnull=True)
    rounds = Round.objects.filter(
        slug=round_slug, competition__slug=competition_slug, competition__in=organized
    )
    row = _with_live_version(rounds, version, "pk")
    if row is None:
        return None
    round_id, version = row
    return live_etag_of(round_id=round_id, team_id=None, version=version)


def live_team_of_no_round_poll_etag(*, user, competition_slug: str) -> str | None:
    """The ETag of ``user``'s team's jobs of no round (its slides), from ONE query that also
    checks that the user is a member of a team of the competition; ``None`` otherwise."""
    if not user.is_authenticated:
        return None
    version = LiveVersion.objects.filter(round__isnull=True, team=OuterRef("team_id"))
    memberships = Membership.objects.filter(user=user, competition__slug=competition_slug)
    row = _with_live_version(memberships, version, "team_id")
    if row is None:
        return None
    team_id, version = row
    return live_etag_of(round_id=None, team_id=team_id, version=version)
