"""The synthetic round's lifecycle actions in the organizer console (``SyntheticKind.lifecycle``,
offered by ``TwoSidedKind.console_actions``): close the phases, freeze, open the attack phase
now, publish or hide the results, as every two-sided round has them (``pwscup.kinds.two_sided``,
``pwscup.submissions.two_sided_lifecycle``); the freeze calls this kind's services."""

from django.utils.translation import gettext_lazy

from pwscup.submissions.two_sided_lifecycle import two_sided_lifecycle
from pwscup.synthetic import services
from pwscup.synthetic.selectors import synthetic_of

LIFECYCLE = two_sided_lifecycle(
    state=synthetic_of,
    row="synthetic",
    freeze=services.round_freeze,
    attack_now=services.attack_phase_open_now,
    freeze_text=gettext_lazy(
        "Each team's final release (the one it selected, else its last valid one) is "
        "published to the other teams with its challenge set and the auxiliary table, and "
        "the built-in attacks are run on it. Releases are refused from now. Freezing "
        "again republishes only the targets whose final release changed."
    ),
    attack_now_text=gettext_lazy(
        "For a class that plays both phases in one sitting: the release phase closes now, "
        "the releases are frozen (each team's final release is published with its "
        "challenge set and the auxiliary table) and the attack phase opens now. It keeps "
        "its closing time if that is still ahead, else it runs for its planned length "
        "(7 days if it has none) from now."
    ),
    publish_text=gettext_lazy(
        "Every phase still open closes now, and everyone will see the scores on the final "
        "half of the challenge sets, the attack matrix, both rankings and the ROC curves. "
        "A published ranking never changes afterwards."
    ),
    hide_text=gettext_lazy(
        "Everyone goes back to the provisional view on the dev half: the final half's "
        "scores, the ROC curves and the final rankings are hidden again, from the organizers "
        "too."
    ),
)
