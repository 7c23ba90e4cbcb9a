"""The synthetic round's lifecycle actions in the organizer console
(``SyntheticKind.console_actions``): close the phases, freeze, publish or hide the results.
Each calls one service."""

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from pwscup.kinds.actions import RoundAction
from pwscup.synthetic import services
from pwscup.synthetic.selectors import synthetic_of


def _close(*, user, round) -> str:
    count = services.synthetic_round_close(synthetic=synthetic_of(round))
    return ngettext("Closed %(n)d phase.", "Closed %(n)d phases.", count) % {"n": count}


def _freeze(*, user, round) -> str:
    targets = services.round_freeze(synthetic=synthetic_of(round), user=user)
    return ngettext(
        "Froze the round: %(n)d target published.",
        "Froze the round: %(n)d targets published.",
        len(targets),
    ) % {"n": len(targets)}


def _publish(*, user, round) -> str:
    services.results_publish(synthetic=synthetic_of(round), user=user)
    return _("Results published.")


def _hide(*, user, round) -> str:
    services.results_hide(synthetic=synthetic_of(round), user=user)
    return _("Results hidden.")


ACTIONS = {
    "close": RoundAction(
        gettext_lazy("Close the open phases now"),
        gettext_lazy(
            "Every phase of the round still open (or not yet open) closes now: uploads are "
            "refused from this moment. Uploads already received are still scored."
        ),
        gettext_lazy("Close now"),
        _close,
    ),
    "freeze": RoundAction(
        gettext_lazy("Freeze the releases"),
        gettext_lazy(
            "Each team's final release (the one it selected, else its last valid one) is "
            "published to the other teams with its challenge set and the auxiliary table, and "
            "the built-in attacks are run on it. Releases are refused from now. Freezing "
            "again republishes only the targets whose final release changed."
        ),
        gettext_lazy("Freeze the releases"),
        _freeze,
    ),
    "publish": RoundAction(
        gettext_lazy("Publish the results"),
        gettext_lazy(
            "Every phase still open closes now, and everyone will see the scores on the final "
            "half of the challenge sets, the attack matrix, both rankings and the ROC curves. "
            "A published ranking never changes afterwards."
        ),
        gettext_lazy("Close the phases and publish"),
        _publish,
    ),
    "hide": RoundAction(
        gettext_lazy("Hide the results"),
        gettext_lazy(
            "The final half's scores, the matrix and the rankings become organizer-only again."
        ),
        gettext_lazy("Hide the results"),
        _hide,
        secondary=True,
    ),
}


def synthetic_actions(round_) -> dict[str, RoundAction]:
    """The actions offered now: close while a phase is open; freeze until the results are
    published; publish or hide."""
    synthetic = synthetic_of(round_)
    now = timezone.now()
    shown = {"hide" if synthetic.results_published else "publish"}
    if not synthetic.results_published:
        shown.add("freeze")
    if any(phase.closes_at > now for phase in round_.phases.all()):
        shown.add("close")
    return {name: action for name, action in ACTIONS.items() if name in shown}
