"""The scorer round's lifecycle actions in the organizer console
(``ScorerKind.console_actions``): close the phases, freeze, open the attack phase now, publish
or hide the results. Each calls one service."""

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from pwscup.competitions.models import Phase
from pwscup.core.time_zones import zone_or_default
from pwscup.kinds.actions import RoundAction
from pwscup.scorer import services
from pwscup.scorer.selectors import round_config, scorer_of


def _close(*, user, round) -> str:
    count = services.scorer_round_close(scorer=scorer_of(round))
    return ngettext("Closed %(n)d phase.", "Closed %(n)d phases.", count) % {"n": count}


def _freeze(*, user, round) -> str:
    targets = services.round_freeze(scorer=scorer_of(round), user=user)
    return ngettext(
        "Froze the round: %(n)d target published.",
        "Froze the round: %(n)d targets published.",
        len(targets),
    ) % {"n": len(targets)}


def _attack_now(*, user, round) -> str:
    targets, attack = services.attack_phase_open_now(scorer=scorer_of(round), user=user)
    return ngettext(
        "The attack phase is open until %(closes)s: %(n)d target published.",
        "The attack phase is open until %(closes)s: %(n)d targets published.",
        len(targets),
    ) % {"n": len(targets), "closes": _in_round_zone(attack.closes_at, round)}


def _in_round_zone(at, round) -> str:
    """``at`` as the round's pages show a date (its time zone, ``Y-m-d H:i T``)."""
    return date_format(at.astimezone(zone_or_default(round.timezone)), "Y-m-d H:i T")


def _publish(*, user, round) -> str:
    services.results_publish(scorer=scorer_of(round), user=user)
    return _("Results published.")


def _hide(*, user, round) -> str:
    services.results_hide(scorer=scorer_of(round), user=user)
    return _("Results hidden.")


def _rank(*, user, round) -> str:
    services.ranking_request(scorer=scorer_of(round), user=user)
    return _("The ranking program is queued; the results show its ranking once it has run.")


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
            "Each team's final release (the one it selected, else its newest scored one) is "
            "published to the other teams as a target: they download the public files your "
            "program made of it. Releases are refused from now. Freezing again republishes "
            "only the targets whose final release changed."
        ),
        gettext_lazy("Freeze the releases"),
        _freeze,
    ),
    "attack_now": RoundAction(
        gettext_lazy("Open the attack phase now"),
        gettext_lazy(
            "For a class that plays both phases in one sitting: the release phase closes now, "
            "the releases are frozen (each team's final release is published as a target) and "
            "the attack phase opens now. It keeps its closing time if that is still ahead, "
            "else it runs for its planned length (7 days if it has none) from now."
        ),
        gettext_lazy("Freeze and open the attack phase"),
        _attack_now,
    ),
    "rank": RoundAction(
        gettext_lazy("Run the ranking program"),
        gettext_lazy(
            "Your program's ranking command runs on a worker with every frozen release's "
            "scores and the attack matrix (res/standings.json); each team's release and "
            "attack scores it returns rank the round, replacing the previous run's."
        ),
        gettext_lazy("Run the ranking program"),
        _rank,
    ),
    "publish": RoundAction(
        gettext_lazy("Publish the results"),
        gettext_lazy(
            "Every phase still open closes now, and everyone will see the exact attack "
            "scores, the attack matrix and both rankings. A published ranking never changes "
            "afterwards."
        ),
        gettext_lazy("Close the phases and publish"),
        _publish,
    ),
    "hide": RoundAction(
        gettext_lazy("Hide the results"),
        gettext_lazy(
            "The exact attack scores, the matrix and the rankings become organizer-only again."
        ),
        gettext_lazy("Hide the results"),
        _hide,
        secondary=True,
    ),
}


def scorer_actions(round_) -> dict[str, RoundAction]:
    """The actions offered now: close while a phase is open; freeze until the results are
    published; publish or hide."""
    scorer = scorer_of(round_)
    if scorer is None:
        return {}
    now = timezone.now()
    shown = {"hide" if scorer.results_published else "publish"}
    if not scorer.results_published:
        shown.add("freeze")
        attack = next((p for p in round_.phases.all() if p.kind == Phase.Kind.ATTACK), None)
        if attack is not None and not attack.is_open(now):
            shown.add("attack_now")
    if any(not phase.has_closed(now) for phase in round_.phases.all()):
        shown.add("close")
    if scorer.frozen_at is not None and round_config(round_).ranking == "program":
        shown.add("rank")
    return {name: action for name, action in ACTIONS.items() if name in shown}
