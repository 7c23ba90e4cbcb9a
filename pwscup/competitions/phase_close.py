"""*Close the open phases now* for a kind that closes only the phases open now (the two-sided
kinds, ``pwscup.kinds.actions.open_phases_close_action``): its confirmation page's lines
(which phase closes, what stays planned), why it would change nothing (no phase open: between
the phases), and its message once done. Each phase by its game's name (``Phase.label``),
each time in the round's time zone as its pages write it."""

from django.utils.translation import gettext as _

from pwscup.competitions.audit_details import separator
from pwscup.competitions.selectors import phases_open_and_coming
from pwscup.competitions.services import round_open_phases_close
from pwscup.core.languages import sentences
from pwscup.core.time_zones import in_zone_text


def _stays(phases, zone) -> list[str]:
    """One line per phase not open yet: it keeps its dates."""
    return [
        _("Stays as planned: %(phase)s, from %(opens)s to %(closes)s.")
        % {
            "phase": phase.label,
            "opens": in_zone_text(phase.opens_at, zone),
            "closes": in_zone_text(phase.closes_at, zone),
        }
        for phase in phases
    ]


def close_details(*, round) -> list[str]:
    """The confirmation page's lines: each phase open now, which closes, and when it was to
    close; each phase not open yet, with the dates it keeps."""
    closing, coming = phases_open_and_coming(round=round)
    lines = [
        _("Closes now: %(phase)s (planned to close at %(closes)s).")
        % {"phase": phase.label, "closes": in_zone_text(phase.closes_at, round.timezone)}
        for phase in closing
    ]
    return lines + _stays(coming, round.timezone)


def close_refusal(*, round) -> str:
    """Why the action would change nothing now (no phase is open: before the first phase,
    between the phases, after the last), with what stays planned; ``""`` while one is open."""
    closing, coming = phases_open_and_coming(round=round)
    if closing:
        return ""
    nothing = _("No phase is open now: nothing is closed and no date changes.")
    return sentences([nothing, *_stays(coming, round.timezone)])


def close_open_phases(*, user, round) -> str:
    """Close the phases open now (``round_open_phases_close``) and say which, when, and what
    stays planned; between the phases, that nothing was open."""
    closed, coming = round_open_phases_close(user=user, round=round)
    if not closed:
        return close_refusal(round=round)
    done = _("Closed at %(at)s: %(phases)s.") % {
        "at": in_zone_text(closed[0].closes_at, round.timezone),
        "phases": separator().join(phase.label for phase in closed),
    }
    return sentences([done, *_stays(coming, round.timezone)])
