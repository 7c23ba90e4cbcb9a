"""Showing a round's results: the one service every kind whose row of the round carries the
``results_published`` flag publishes and hides its results through (the two-sided kinds and
the sequential round; the 2015 game publishes through its round operations)."""

from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import round_audit_record
from pwscup.notifications.services import notify_results_published


def results_shown(*, state, published: bool, user=None) -> None:
    """Show the results of ``state``'s round to everyone (``published``), or to its
    organizers only again: the flag on the kind's row (``state.results_published``), the
    audit log (an organizer's act) and, on a publication, the participants told (once)."""
    type(state).objects.filter(pk=state.pk).update(results_published=published)
    state.results_published = published
    action = AuditEntry.Action.RESULTS_PUBLISHED if published else AuditEntry.Action.RESULTS_HIDDEN
    round_audit_record(user=user, round=state.round, action=action)
    if published:
        notify_results_published(round=state.round)
