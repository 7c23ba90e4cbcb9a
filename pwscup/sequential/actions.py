"""The sequential round's lifecycle actions in the organizer console
(``SequentialKind.console_actions``): redraw the per-team masters (before step 1 froze),
publish the results (which ends the attack phase, in a round that has one: the confirmation
speaks of attacks only there) and hide them again; the last two are
also the admin's (``SequentialKind.admin_actions``, on the core's list of rounds). Freezing
a release has its own confirmed form in the round's panel."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from pwscup.kinds.actions import (
    RoundAction,
    hide_results_action,
    publication_admin_actions,
    publish_results_action,
)
from pwscup.sequential import selectors, services


def _publish(*, user, round) -> str:
    services.results_publish(sequential=selectors.sequential_of(round=round), user=user)
    return _("The results are published.")


def _hide(*, user, round) -> None:
    sequential = selectors.sequential_of(round=round)
    services.results_publish(sequential=sequential, published=False, user=user)


def _redraw(*, user, round) -> str:
    sequential = selectors.sequential_of(round=round)
    drawn = services.masters_draw(sequential=sequential, redraw=True)
    services.audit(user=user, sequential=sequential, action="draw")
    text = ngettext("%(n)s master table drawn.", "%(n)s master tables drawn.", len(drawn))
    return text % {"n": len(drawn)}


def _names(teams) -> str:
    return _(", ").join(team.name for team in teams) or _("none")


def _redraw_details(*, round) -> list[str]:
    plan = selectors.masters_redraw_plan(sequential=selectors.sequential_of(round=round))
    return [
        _("Drawn again: %(teams)s.") % {"teams": _names(plan["redrawn"])},
        _("Kept (a release uploaded, or a master uploaded by the organizers): %(teams)s.")
        % {"teams": _names(plan["kept"])},
        _("Drawn for the first time: %(teams)s.") % {"teams": _names(plan["drawn"])},
    ]


REDRAW = RoundAction(
    gettext_lazy("Redraw the per-team masters"),
    gettext_lazy(
        "The master tables drawn from the pool are drawn again for the teams that have "
        "uploaded nothing yet; the teams that uploaded a release keep theirs, and teams "
        "without a master get one from what the pool has left. Possible until release 1 "
        "is frozen."
    ),
    gettext_lazy("Redraw the masters"),
    _redraw,
    secondary=True,
    details=_redraw_details,
)
PUBLISH_ATTACKED = publish_results_action(
    _publish,
    gettext_lazy(
        "The attack phase ends now (guesses are refused from this moment) and everyone sees "
        "the leaderboard and the attack matrix. A published ranking never changes afterwards."
    ),
    gettext_lazy("End the attacks and publish"),
)
HIDE_ATTACKED = hide_results_action(
    _hide, gettext_lazy("The leaderboard and the attack matrix become organizer-only again.")
)
# A round without an attack phase: its confirmation speaks of the leaderboard alone.
PUBLISH = publish_results_action(
    _publish,
    gettext_lazy(
        "Everyone sees the leaderboard from now on. A published ranking never changes afterwards."
    ),
)
HIDE = hide_results_action(_hide, gettext_lazy("The leaderboard becomes organizer-only again."))


#: The admin's list of rounds offers the publication and its undoing too, in the words every
#: kind shares (a sequential round's final ranking is its leaderboard): the console's
#: actions, audited alike.
ADMIN_ACTIONS = publication_admin_actions(PUBLISH.perform, HIDE.perform)


def sequential_actions(round_) -> dict[str, RoundAction]:
    sequential = selectors.sequential_of(round=round_)
    attacked = bool(sequential.config.get("attack_phase"))
    if sequential.results_published:
        actions = {"hide": HIDE_ATTACKED if attacked else HIDE}
    else:
        actions = {"publish": PUBLISH_ATTACKED if attacked else PUBLISH}
    if sequential.pool_file and not sequential.frozen_steps:
        actions["redraw"] = REDRAW
    return actions
