"""Moving an upload window (``UploadDates``: a phase, a DP round's release phase, a
presentation window) and keeping its plan.

Two kinds of writes move a window, and every one goes through one of these functions:

* an **action** (*Close now*, a publication, *Open now*) moves it: ``window_move``. The
  first such move keeps the times the window had (``planned_opens_at`` /
  ``planned_closes_at``); a later action never replaces them. The window's pages show when
  it really opened and closed; a bundle (export, clone) carries the plan
  (``UploadDates.planned_window``), so next year's round gets the phase lengths that were
  planned, not a phase cut short by a publication.
* an **organizer's edit** of the dates (console, admin): ``window_dates_edit``. The dates
  typed are the new plan, so the record of an earlier action's move is cleared.
"""

import datetime as dt

from django.db.models import F
from django.db.models.functions import Coalesce

from pwscup.competitions.models import UploadDates

PLAN_FIELDS = ("planned_opens_at", "planned_closes_at")


def window_move(*, window: UploadDates, opens_at: dt.datetime, closes_at: dt.datetime) -> None:
    """An action moves ``window`` to ``opens_at`` → ``closes_at``; the times it had before
    the first such move stay its plan.

    One ``UPDATE``: the plan is set from the row's own former times when it has none (an SQL
    ``SET`` reads the row as it was), so two actions at once cannot record a moved window
    as the plan."""
    type(window).objects.filter(pk=window.pk).update(
        planned_opens_at=Coalesce(F("planned_opens_at"), F("opens_at")),
        planned_closes_at=Coalesce(F("planned_closes_at"), F("closes_at")),
        opens_at=opens_at,
        closes_at=closes_at,
    )
    window.refresh_from_db(fields=["opens_at", "closes_at", *PLAN_FIELDS])


def _minute(at: dt.datetime | None) -> dt.datetime | None:
    return None if at is None else at.astimezone(dt.UTC).replace(second=0, microsecond=0)


def same_minute(first: dt.datetime | None, second: dt.datetime | None) -> bool:
    """Whether two moments are the same to the minute: a form shows and sends minutes, so a
    stored time with seconds (an action's *now*) sent back as shown is no change."""
    return _minute(first) == _minute(second)


def window_dates_edit(
    *, window: UploadDates, opens_at: dt.datetime, closes_at: dt.datetime
) -> bool:
    """An organizer sets ``window``'s dates (checked by the caller): they are stored, and
    when they differ from the stored ones they are its new plan (the record of an action's
    move is cleared). Dates equal to the stored ones to the minute are no edit: a form shows
    and sends minutes, so a page saved again as it was shown (its limits changed, say)
    keeps the plan. Returns whether the dates are an edit.

    The stored dates are read from the database, not from ``window``: a model form has
    already put the typed dates on its instance."""
    stored = type(window).objects.filter(pk=window.pk).values_list("opens_at", "closes_at")
    stored = stored.first() or (None, None)
    edited = not (same_minute(stored[0], opens_at) and same_minute(stored[1], closes_at))
    updates = {"opens_at": opens_at, "closes_at": closes_at}
    if edited:
        updates.update(dict.fromkeys(PLAN_FIELDS))
    type(window).objects.filter(pk=window.pk).update(**updates)
    for name, value in updates.items():
        setattr(window, name, value)
    return edited


def schedule_line(
    *, label, window: UploadDates, closes_at: dt.datetime, state: str, held: str = ""
) -> dict:
    """A window's line of a round's schedule (``RoundKind.schedule_lines``): ``closes_at``
    when it really closes (an action, or the kind's lifecycle such as the 2015 freeze, may
    have ended it early), and ``planned_closes_at``: the planned close when the window
    closed before it, else ``None``; ``held``: why a ``held`` window takes no upload."""
    return plan_line(
        label=label,
        opens_at=window.opens_at,
        closes_at=closes_at,
        planned=window.planned_window()[1],
        state=state,
        held=held,
    )


def plan_line(*, label, opens_at, closes_at, planned, state: str, held: str = "") -> dict:
    """A line of a round's schedule for a window kept outside ``UploadDates`` (the
    sequential attack phase): ``closes_at`` when it really closes or closed (``None``: no
    close), and ``planned_closes_at``: ``planned`` when the window closed before it, else
    ``None``; ``held``: why a ``held`` window takes no upload (``""``: none)."""
    ended_early = None not in (closes_at, planned) and closes_at < planned
    return {
        "label": label,
        "opens_at": opens_at,
        "closes_at": closes_at,
        "planned_closes_at": planned if ended_early else None,
        "state": state,
        "held": held,
    }
