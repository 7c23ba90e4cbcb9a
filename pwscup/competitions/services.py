"""Writing competitions, rounds and phases; checking a round's data with ``scoring``."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.competitions.addresses import kept_under_address, slug_check
from pwscup.competitions.dates import dates_check
from pwscup.competitions.models import AuditEntry, Competition, Phase, RankingVersion, Round
from pwscup.competitions.selectors import phases_open_and_coming
from pwscup.competitions.windows import window_dates_edit, window_move
from pwscup.core.text_limits import DESCRIPTION_MAX_LENGTH, text_length_check
from pwscup.core.time_zones import in_zone_text, time_zone_check
from pwscup.kinds.bundles import EMPTY_PHASE_LENGTH
from pwscup.kinds.registry import get_kind
from pwscup.kinds.round_basics import RoundBasics


def phase_window_check(
    *,
    opens_at: dt.datetime,
    closes_at: dt.datetime,
    time_zone=None,
    labels=None,
    order_message: str | None = None,
) -> None:
    """A phase opens and closes on dates the platform accepts (``dates_check`` in the
    round's ``time_zone``; ``labels`` name the two fields in its messages) and closes after
    it opens (``order_message``: the refusal's words for another kind of window, with the
    opening as ``%(opens)s``, written as the pages write a moment). Raises
    ``ValidationError`` keyed ``opens_at`` / ``closes_at``."""
    dates_check(
        {"opens_at": opens_at, "closes_at": closes_at},
        labels=labels
        or {name: Phase._meta.get_field(name).verbose_name for name in ("opens_at", "closes_at")},
        time_zone=time_zone,
    )
    if opens_at is not None and closes_at is not None and closes_at <= opens_at:
        message = order_message or _("A phase must close after it opens (it opens at %(opens)s).")
        raise ValidationError({"closes_at": message % {"opens": in_zone_text(opens_at, time_zone)}})


def competition_create(
    *, name: str, slug: str, description: str = "", organizers=(), is_demo: bool = False
) -> Competition:
    """``is_demo``: ``manage.py load_demo``'s competition, which its next run may complete."""
    slug_check(slug=slug)
    text_length_check(
        field="description",
        label=_("The description"),
        value=description,
        max_length=DESCRIPTION_MAX_LENGTH,
    )
    competition = kept_under_address(
        lambda: Competition.objects.create(
            name=name, slug=slug, description=description, is_demo=is_demo
        ),
        slug=slug,
    )
    if organizers:
        competition.organizers.set(organizers)
    return competition


def competition_demo_mark(*, competition: Competition) -> None:
    """Mark a demo made before demos were marked (``load_demo`` on a database holding only
    the demo's accounts and that competition) as ``load_demo``'s own."""
    Competition.objects.filter(pk=competition.pk).update(is_demo=True)
    competition.is_demo = True


def competition_organizers_add(*, competition: Competition, users) -> None:
    competition.organizers.add(*users)


def round_kind_check(*, kind: str) -> None:
    """Refuse a kind no app registered (``ValidationError`` keyed ``kind``)."""
    get_kind(kind)


@transaction.atomic
def round_of_kind_create(*, basics: RoundBasics, kind: str, config: dict, **fields) -> Round:
    """Create a round of a registered kind with its ``basics`` (competition, name, address,
    time zone, order): the kind validates (and normalises) ``config``
    (``RoundKind.validate_config``), the core checks the kind, the address and the time zone
    (``time_zone_check``; ``None``: the site's ``default_time_zone()``). ``fields``: the
    round's other columns the kind fills (``original_rows``). The kind's app then adds its
    own rows (its models point at the round) and phases (``phase_set``).

    Raises ``ValidationError`` keyed by field (``kind``, ``slug``, ``timezone``, or the
    kind's own keys).
    """
    round_kind = get_kind(kind)
    competition, order, timezone = basics.competition, basics.order, basics.time_zone()
    errors = round_basics_errors(competition=competition, slug=basics.slug, timezone=timezone)
    if errors:
        raise ValidationError(errors)
    normalised = round_kind.validate_config(config)
    return kept_under_address(
        lambda: Round.objects.create(
            competition=competition,
            kind=kind,
            name=basics.name,
            slug=basics.slug,
            config=normalised,
            timezone=timezone,
            order=competition.rounds.count() + 1 if order is None else order,
            **fields,
        ),
        slug=basics.slug,
        competition=competition,
    )


def round_core_check(*, round: Round, slug, timezone, quota_reset_hour=None) -> None:
    """What every round's own fields must be on an edit, whatever its kind: the address
    (``slug_check``, the round's own one not taken), the time zone and the hour its daily
    limits reset at (``quota_reset_hour_check``; ``None``: not edited). Raises
    ``ValidationError`` keyed by field. The kind's settings are not looked at: they are the
    kind's (its console checks them)."""
    more = []
    if quota_reset_hour is not None:
        more.append(("quota_reset_hour", lambda: quota_reset_hour_check(quota_reset_hour)))
    errors = round_basics_errors(
        competition=round.competition, slug=slug, timezone=timezone, current=round, more=more
    )
    if errors:
        raise ValidationError(errors)


def round_basics_errors(*, competition, slug, timezone, current=None, more=()) -> dict:
    """The one check of what every round has, whatever its kind, on its creation and on an
    edit: its address in ``competition`` (``slug_check``; ``current``: the round being
    edited; a ``slug`` of ``None`` is not checked) and its time zone (``time_zone_check``),
    then the caller's ``more`` checks (``(field, check)`` pairs). Returns each refused
    field's message (empty: all pass), for the caller to raise with its own."""
    checks = [("timezone", lambda: time_zone_check(timezone)), *more]
    if slug is not None:
        checks.insert(
            0, ("slug", lambda: slug_check(slug=slug, competition=competition, current=current))
        )
    errors = {}
    for field, check in checks:
        try:
            check()
        except ValidationError as error:
            errors[field] = error.message_dict[field][0]
    return errors


def quota_reset_hour_check(hour) -> int:
    """Return ``hour`` if it is an hour a round's daily limits may reset at (a whole hour,
    0 to 23, local time of the round); else raise ``ValidationError`` keyed
    ``quota_reset_hour``. The one check of the console, the admin and a bundle."""
    if isinstance(hour, int) and not isinstance(hour, bool) and 0 <= hour <= 23:
        return hour
    raise ValidationError(
        {
            "quota_reset_hour": _(
                "The daily limits reset at a whole hour from 0 to 23 (local time of the "
                "round), not %(value)s."
            )
            % {"value": repr(hour)[:40]}
        }
    )


@transaction.atomic
def round_core_update(*, user, round: Round, **fields) -> list[str]:
    """Edit what every round has (``fields``: ``round_core_apply``'s name, address, order,
    time zone and the hour its daily limits reset at), for a round of any kind (the admin's
    round page and the console's round page call it): ``round_core_apply``, then the
    changed fields recorded in the audit log. Returns the changed field names."""
    changed = round_core_apply(round=round, **fields)
    if changed:
        round_audit_record(
            user=user, round=round, action=AuditEntry.Action.ROUND_EDITED, fields=changed
        )
    return changed


def round_core_apply(
    *,
    round: Round,
    name: str,
    slug: str,
    order: int,
    timezone: str,
    quota_reset_hour: int | None = None,
) -> list[str]:
    """``round_core_update`` without its audit line, for a kind's edit that saves these
    fields with its own and records the whole save in one line (the 2015 game's
    ``console_round_update``); call it inside that edit's transaction. Checks
    ``round_core_check``; bumps the round's ranking version when a field changes (its pages
    show the name and the reset hour). Returns the changed field names."""
    round_core_check(round=round, slug=slug, timezone=timezone, quota_reset_hour=quota_reset_hour)
    values = {"name": name, "slug": slug, "order": order, "timezone": timezone}
    if quota_reset_hour is not None:
        values["quota_reset_hour"] = quota_reset_hour
    stored = Round.objects.select_for_update().get(pk=round.pk)
    changed = [field for field, value in values.items() if getattr(stored, field) != value]
    if not changed:
        return []
    ranking_version_bump(round_ids=[round.pk])
    for field in changed:
        setattr(stored, field, values[field])
    kept_under_address(
        lambda: stored.save(update_fields=changed),
        slug=slug,
        competition=round.competition,
        current=stored,
    )
    for field in changed:  # the caller's round once kept (a refused move leaves it as it was)
        setattr(round, field, values[field])
    return changed


def phase_set(
    *,
    round: Round,
    kind: str,
    opens_at: dt.datetime,
    closes_at: dt.datetime,
    daily_limit: int | None = None,
    total_limit: int | None = None,
    leaderboard_public: bool = False,
    target_limit: int | None = None,
) -> Phase:
    phase_window_check(opens_at=opens_at, closes_at=closes_at, time_zone=round.timezone)
    settings = dict(
        daily_limit=daily_limit,
        total_limit=total_limit,
        target_limit=target_limit,
        leaderboard_public=leaderboard_public,
    )
    phase = Phase.objects.filter(round=round, kind=kind).first()
    if phase is None:
        return Phase.objects.create(
            round=round, kind=kind, opens_at=opens_at, closes_at=closes_at, **settings
        )
    # The organizer's dates: an edit of them is the phase's new plan (``window_dates_edit``).
    window_dates_edit(window=phase, opens_at=opens_at, closes_at=closes_at)
    for name, value in settings.items():
        setattr(phase, name, value)
    phase.save(update_fields=list(settings))
    return phase


def ranking_version_bump(*, round_ids) -> None:
    """One more ranking version of each round (``RankingVersion``): the cached rankings
    keyed by the former one are no longer read.

    Call it inside the transaction of the change (a score written, a selection, a rescore,
    a freeze...): the version then commits with the change or not at all, whatever the
    cache does meanwhile. Call it before the change writes an upload or job row or a live
    version (what a scoring job writes) and before it takes the round's row with
    ``select_for_update`` (as a freeze does): those rows are then always locked after this
    one, so two changes of the round queue on it instead of waiting on each other in a
    circle (an edit of the round's settings, phases or teams may bump last). The lock is
    held until the caller's transaction commits: keep the slow work (scoring a file) out of
    that transaction.

    ``UPDATE ... SET version = version + 1`` (an ``F`` expression: concurrent bumps all
    count); a round's first bump inserts its row inside a savepoint, and when a concurrent
    first bump inserted it meanwhile the unique key refuses ours and the UPDATE, run again,
    finds the row (as ``pwscup.submissions.services.live.live_bump``). Rounds in ascending
    order, so that two bumps of several rounds lock them in the same order.
    """
    for round_id in sorted({int(pk) for pk in round_ids if pk is not None}):
        row = RankingVersion.objects.filter(round_id=round_id)
        if row.update(version=F("version") + 1):
            continue
        try:
            with transaction.atomic():
                RankingVersion.objects.create(round_id=round_id, version=1)
        except IntegrityError:
            row.update(version=F("version") + 1)


def round_phases_close(*, round: Round, now=None) -> int:
    """Close now every phase of the round still open or not yet open: uploads are refused
    from ``now``. What *Close now* does, and what publishing does first (a published ranking
    never changes afterwards). A phase not yet open gets an empty window at ``now``; each
    keeps its plan (``window_move``). Returns how many phases were closed."""
    now = now or timezone.now()
    closed = 0
    for phase in Phase.objects.filter(round=round, closes_at__gt=now):
        window_move(window=phase, opens_at=min(phase.opens_at, now), closes_at=now)
        closed += 1
    return closed


@transaction.atomic
def round_open_phases_close(*, user, round: Round, now=None) -> tuple[list, list]:
    """*Close the open phases now* for a kind that closes only the phases open now (the
    two-sided kinds): each phase open now (``phases_open_and_coming``) closes at ``now`` and
    keeps its plan (``window_move``); a phase not open yet keeps its dates (PWSCup 2026's
    hand-over between the phases stays). The audit log names the phases closed, when, and
    the dates of those left planned; nothing is done, nor logged, when none is open.
    Returns ``(closed, left planned)``."""
    now = now or timezone.now()
    closed, coming = phases_open_and_coming(round=round, now=now)
    for phase in closed:
        window_move(window=phase, opens_at=phase.opens_at, closes_at=now)
    if closed:
        planned = {}
        for phase in coming:
            planned[f"{phase.kind}_phase_opens"] = phase.opens_at.isoformat()
            planned[f"{phase.kind}_phase_closes"] = phase.closes_at.isoformat()
        round_audit_record(
            user=user,
            round=round,
            action=AuditEntry.Action.PHASES_CLOSED,
            phases=[phase.kind for phase in closed],
            closes=now.isoformat(),
            **planned,
        )
    return closed, coming


def round_phase_open_now(*, round: Round, kind: str, now=None) -> Phase:
    """Open the round's phase ``kind`` now, ahead of its schedule (a lecturer running both
    phases in one lesson): every phase scheduled before it and still open, or still to come,
    closes now, as *Close now* closes it. A phase open already stays as it is; else it opens
    now and keeps its closing time when that is still ahead, or runs from now for its planned
    length (``planned_window``: also when *Close now* or a publication collapsed it), or for
    the bundles' ``EMPTY_PHASE_LENGTH`` when a phase collapsed before plans were kept has
    none (the one rule for a phase that lost its length, ``pwscup.kinds.bundles``).
    Every phase moved keeps its plan (``window_move``). Returns the phase."""
    now = now or timezone.now()
    phase = Phase.objects.get(round=round, kind=kind)
    for earlier in Phase.objects.filter(
        round=round, opens_at__lt=phase.opens_at, closes_at__gt=now
    ).exclude(pk=phase.pk):
        window_move(window=earlier, opens_at=min(earlier.opens_at, now), closes_at=now)
    if phase.opens_at <= now < phase.closes_at:
        return phase
    closes_at = phase.closes_at
    if closes_at <= now:
        planned_opens_at, planned_closes_at = phase.planned_window()
        planned = planned_closes_at - planned_opens_at
        closes_at = now + (planned if planned > dt.timedelta(0) else EMPTY_PHASE_LENGTH)
    window_move(window=phase, opens_at=now, closes_at=closes_at)
    return phase


def audit_record(
    *, user, competition: Competition, action: str, round: Round | None = None, **detail
) -> AuditEntry:
    """Keep one organizer action; ``detail`` holds plain words and numbers only."""
    return AuditEntry.objects.create(
        competition=competition, round=round, user=user, action=action, detail=detail
    )


def round_audit_record(*, user, round: Round, action: str, **detail) -> AuditEntry | None:
    """Keep one organizer action on ``round`` in its competition's log; nothing when no one
    acts (``user`` is ``None``: a command, the demo, a bundle's import)."""
    if user is None:
        return None
    return audit_record(
        user=user, competition=round.competition, round=round, action=action, **detail
    )


def scoped_audit_record(scoped, *, user, action: str, **detail) -> AuditEntry:
    """Keep one organizer action on ``scoped``, a row of a competition that may belong to
    one of its rounds (an award, a presentation window): in its round's log, or else the
    competition's."""
    return audit_record(
        user=user, competition=scoped.competition, round=scoped.round, action=action, **detail
    )
