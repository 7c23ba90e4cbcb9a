"""The one rule of every upload window (a phase, a release phase, a release, a presentation
window): open from ``opens_at`` (included) to ``closes_at`` (excluded), and the one set of
messages a refusal (403) gives, times printed in the round's time zone."""

import datetime as dt
import zoneinfo

from django.utils.translation import gettext as _

from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_closes_at
from pwscup.core.errors import Refused
from pwscup.kinds.actions import WindowEnd


def window_check(
    *,
    label: str,
    opens_at: dt.datetime | None,
    closes_at: dt.datetime | None,
    time_zone: str,
    now: dt.datetime,
) -> None:
    """Refuse (403) what is sent to an upload window outside its opening: before
    ``opens_at`` (included) or from ``closes_at`` (excluded) on, ``None`` being no bound —
    the rule of ``UploadDates.is_open``. The one place every kind's window (a phase, a
    release phase, a release, a presentation window) is checked and its refusal worded:
    ``label`` is the window's name as the kind shows it (its schedule line), ``closes_at``
    the window's real end (earlier than the planned one when the kind ended it), the times
    printed in ``time_zone`` (the round's)."""
    if window_not_open_yet(opens_at=opens_at, now=now):
        raise Refused(
            _("%(window)s is not open yet: it opens at %(at)s.")
            % {"window": label, "at": format_at(time_zone, opens_at)},
            status=403,
        )
    if closes_at is not None and now >= closes_at:
        raise Refused(
            _("%(window)s closed at %(at)s; uploads are no longer accepted.")
            % {"window": label, "at": format_at(time_zone, closes_at)},
            status=403,
        )


def window_freeze_check(
    *,
    label: str,
    opens_at: dt.datetime | None,
    time_zone: str,
    now: dt.datetime,
    early: bool = False,
) -> dict:
    """Refuse (409) an organizer's action that ends an upload window (a freeze, a close) before
    the window has opened (before ``opens_at``; ``None``: open already): it would end the window
    before any team could upload to it. ``early``: the organizer said explicitly that the
    window ends before it opens (the confirmation's box), then nothing is refused. The one
    rule of an ending before the opening, for every kind; ``label`` and ``time_zone`` as
    ``window_check`` takes them. Returns what the action's audit line adds:
    ``{"ended_before_opening": the opening}`` when the window ends before it, else ``{}``."""
    if not window_not_open_yet(opens_at=opens_at, now=now):
        return {}
    if early:
        return {"ended_before_opening": opens_at.isoformat()}
    raise Refused(
        _(
            "%(window)s opens at %(at)s: ended now, it would never take an upload. Nothing "
            "was done; to end it before it opens, tick the box on the confirmation page."
        )
        % {"window": label, "at": format_at(time_zone, opens_at)},
        status=409,
    )


def window_end_check(
    *, window: WindowEnd | None, time_zone: str, now: dt.datetime, early: bool = False
) -> dict:
    """``window_freeze_check`` on the window a kind's action ends (``RoundAction.ends``;
    ``None``: it ends none now, e.g. ended already: nothing to check)."""
    if window is None:
        return {}
    return window_freeze_check(
        label=window.label, opens_at=window.opens_at, time_zone=time_zone, now=now, early=early
    )


def window_not_open_yet(*, opens_at: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether a window opening at ``opens_at`` (``None``: no bound) is still to open at
    ``now``: what ``window_freeze_check`` refuses to end, and what the confirmation page warns
    of."""
    return opens_at is not None and now < opens_at


def phase_window_end(phase: Phase | None) -> WindowEnd | None:
    """A core phase as the window an action ends (its game's name, its opening)."""
    return None if phase is None else WindowEnd(label=phase.label, opens_at=phase.opens_at)


def phase_window_check(*, phase: Phase, now: dt.datetime, label: str | None = None) -> None:
    """``window_check`` on a core phase, until its real close (``phase_closes_at``: a kind
    may have ended it, the 2015 freeze); ``label``: the window's name (default: the phase's,
    as its game names it)."""
    window_check(
        label=label or phase.label,
        opens_at=phase.opens_at,
        closes_at=phase_closes_at(phase=phase),
        time_zone=phase.round.timezone,
        now=now,
    )


def format_at(time_zone: str, at: dt.datetime) -> str:
    """``at`` as the upload messages print it: local time, then the time zone's name."""
    return f"{at.astimezone(zoneinfo.ZoneInfo(time_zone)):%Y-%m-%d %H:%M} ({time_zone})"
