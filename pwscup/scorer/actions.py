"""The scorer round's lifecycle actions in the organizer console
(``ScorerKind.console_actions``): close the phases, freeze, open the attack phase now, publish
or hide the results, as every two-sided round has them (``pwscup.kinds.two_sided``), and run
the organizer's ranking program. Each calls one service."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.kinds import two_sided
from pwscup.kinds.actions import RoundAction, offered_actions
from pwscup.scorer import services
from pwscup.scorer.selectors import round_config, scorer_of
from pwscup.submissions.two_sided_lifecycle import two_sided_lifecycle

LIFECYCLE = two_sided_lifecycle(
    state=scorer_of,
    row="scorer",
    freeze=services.round_freeze,
    attack_now=services.attack_phase_open_now,
    freeze_text=gettext_lazy(
        "Each team's final release (the one it selected, else its newest scored one) is "
        "published to the other teams as a target: they download the public files your "
        "program made of it. Releases are refused from now. Freezing again republishes "
        "only the targets whose final release changed."
    ),
    attack_now_text=gettext_lazy(
        "For a class that plays both phases in one sitting: the release phase closes now, "
        "the releases are frozen (each team's final release is published as a target) and "
        "the attack phase opens now. It keeps its closing time if that is still ahead, "
        "else it runs for its planned length (7 days if it has none) from now."
    ),
    publish_text=gettext_lazy(
        "Every phase still open closes now, and everyone will see the exact attack "
        "scores, the attack matrix and both rankings. A published ranking never changes "
        "afterwards."
    ),
    hide_text=gettext_lazy(
        "The exact attack scores, the matrix and the rankings become organizer-only again."
    ),
)


def _rank(*, user, round) -> str:
    services.ranking_request(scorer=scorer_of(round), user=user)
    return _("The ranking program is queued; the results show its ranking once it has run.")


_STEPS = two_sided.actions(LIFECYCLE)
ACTIONS = {
    **{name: _STEPS[name] for name in ("close", "freeze", "attack_now")},
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
    **{name: _STEPS[name] for name in ("publish", "hide")},
}


def scorer_actions(round_) -> dict[str, RoundAction]:
    """The actions offered now (``two_sided.offered``), and the ranking program's once the
    releases are frozen in a round ranked by it."""
    shown = two_sided.offered(LIFECYCLE, round_)
    scorer = scorer_of(round_)
    if scorer is not None and scorer.frozen_at is not None:
        if round_config(round_).ranking == "program":
            shown.add("rank")
    return offered_actions(ACTIONS, shown)
