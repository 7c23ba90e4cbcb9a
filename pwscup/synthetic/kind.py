"""The synthetic-data round behind the ``RoundKind`` interface (pwscup/kinds/): each hook is
one call into the kind's modules."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.phased_kinds import PhasedKind
from pwscup.kinds.choice_wording import ChoiceWording
from pwscup.kinds.two_sided import TwoSidedKind
from pwscup.submissions.services.jobs import JobKind
from pwscup.submissions.services.two_sided import TWO_SIDED_PHASE_LABELS
from pwscup.submissions.two_sided_lifecycle import two_sided_auto_freeze
from pwscup.synthetic import KEY, selectors, services
from pwscup.synthetic.actions import LIFECYCLE
from pwscup.synthetic.models import SynAttack, SynRelease, SynTarget, SyntheticRound


class SyntheticKind(PhasedKind, TwoSidedKind):
    key = KEY
    label = _("Synthetic data and membership inference")
    description = _(
        "Teams publish a synthetic stand-in for their private training table, scored by "
        "model utility and marginal fidelity; then attack the others' releases by membership "
        "inference, scored by the true-positive rate at a low false-positive rate."
    )
    local_check = "python -m scoring synth check"
    phase_labels = TWO_SIDED_PHASE_LABELS
    lifecycle = LIFECYCLE
    auto_freeze = two_sided_auto_freeze(SyntheticRound)
    counted_row = "synthetic"  # migrations/0004_page_generation_trigger.py
    counted_row_defer = ("holdout", "aux")  # the drawn ids: the scorer's, not the pages'
    # A team's rows are drawn from its pack at its first download (``services.draws``) and
    # kept: its pick is fixed then, for the organizers too (``choice_change_refusal``).
    choice_wording = ChoiceWording(
        rule=_(
            "The pick is fixed when the team's rows are drawn from its pack: at its first "
            "download of its members table or its starter kit (or its first upload). After "
            "that neither the team nor the organizers can change it."
        ),
        form_note=_(
            "Your pick is fixed at your team's first download of its members table or its "
            "starter kit."
        ),
        locked=_(
            "Fixed: your team's rows are drawn from this pack (at its first download of its "
            "data). It cannot change."
        ),
        refused=_(
            "Your team's rows are already drawn from its pack (at its first download of its "
            "data): a synthetic round keeps a team's draw, so its pick cannot change."
        ),
        console=_(
            "Its pick is fixed when its rows are drawn, at its first download of its data (or "
            "its first upload): after that nobody can change it."
        ),
        kept=_(
            "Your team plays on the round's original table (it was drawn before the data packs "
            "were offered); the packs below are for teams that joined later."
        ),
    )

    # --- configuration and state -------------------------------------------------------------

    def validate_config(self, config: dict, *, round=None) -> dict:
        return services.synthetic_config_validate(config)

    def teams_changed(self, round) -> None:
        services.teams_changed(round=round)

    def missing_phases(self, round) -> list[str]:
        missing = super().missing_phases(round)
        synthetic = selectors.synthetic_of(round)
        if synthetic is not None:
            missing += [
                gettext("the population of the data pack %(key)s") % {"key": key}
                for key in selectors.packs_missing(synthetic=synthetic)
            ]
        return missing

    def choice_change_refusal(self, round, team) -> str:
        """A team's rows are drawn from its pack's population once, and kept (its challenge
        set may already be published): its pack cannot change after that."""
        synthetic = selectors.synthetic_of(round)
        draw = synthetic and selectors.team_draw_of(synthetic=synthetic, team=team)
        if draw is None:
            return ""
        if not draw.choice_key:
            return gettext(
                "The rows of %(team)s were drawn from the round's original table before the "
                "data packs were offered (when the round was created or the team joined): a "
                "synthetic round keeps a team's draw, so its data pack cannot change."
            ) % {"team": team.name}
        return gettext(
            "The rows of %(team)s are already drawn from the population of %(key)s (the team "
            "downloaded or uploaded its data): a synthetic round keeps a team's draw, so its "
            "data pack cannot change."
        ) % {"team": team.name, "key": draw.choice_key}

    def choice_kept(self, round) -> dict[int, str]:
        """A team drawn from the round's original before the packs were offered keeps those
        rows (its draw is kept for good): its pack changes nothing."""
        synthetic = selectors.synthetic_of(round)
        if synthetic is None:
            return {}
        note = gettext(
            "drawn from the round's original table before the data packs were offered; its "
            "rows stay the original's, whatever pack is picked."
        )
        return {
            team_id: note for team_id in selectors.teams_drawn_before_packs(synthetic=synthetic)
        }

    # --- uploads and jobs ---------------------------------------------------------------------

    def jobs(self):
        return [
            JobKind(SynRelease, services.SCORE_RELEASE_TASK, round_path="synthetic__round"),
            JobKind(SynTarget, services.SCORE_TARGET_TASK, round_path="synthetic__round"),
            JobKind(SynAttack, services.SCORE_ATTACK_TASK, round_path="target__synthetic__round"),
        ]

    # --- the demo, bundles and the archive ----------------------------------------------------
