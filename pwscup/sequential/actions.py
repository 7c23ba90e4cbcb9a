"""The sequential round's lifecycle actions in the organizer console
(``SequentialKind.console_actions``): publish the results (which ends the attack phase) and
hide them again. Freezing a release has its own confirmed form in the round's panel."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.kinds.actions import RoundAction
from pwscup.sequential import selectors, services


def _publish(*, user, round) -> str:
    sequential = selectors.sequential_of(round=round)
    services.results_publish(sequential=sequential, published=True)
    services.audit(user=user, sequential=sequential, action="publish")
    return _("The results are published.")


def _hide(*, user, round) -> str:
    sequential = selectors.sequential_of(round=round)
    services.results_publish(sequential=sequential, published=False)
    services.audit(user=user, sequential=sequential, action="hide")
    return _("Results hidden.")


PUBLISH = RoundAction(
    gettext_lazy("Publish the results"),
    gettext_lazy(
        "The attack phase ends now (guesses are refused from this moment) and everyone sees "
        "the leaderboard and the attack matrix. A published ranking never changes afterwards."
    ),
    gettext_lazy("End the attacks and publish"),
    _publish,
)
HIDE = RoundAction(
    gettext_lazy("Hide the results"),
    gettext_lazy("The leaderboard and the attack matrix become organizer-only again."),
    gettext_lazy("Hide the results"),
    _hide,
    secondary=True,
)


def sequential_actions(round_) -> dict[str, RoundAction]:
    sequential = selectors.sequential_of(round=round_)
    return {"hide": HIDE} if sequential.results_published else {"publish": PUBLISH}
