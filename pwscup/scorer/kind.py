"""The round scored by the organizer's program behind the ``RoundKind`` interface
(pwscup/kinds/): each hook is one call into the kind's modules."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.phased_kinds import PhasedKind
from pwscup.kinds.two_sided import TwoSidedKind
from pwscup.scorer import KEY, selectors, services
from pwscup.scorer.actions import LIFECYCLE, scorer_actions
from pwscup.scorer.models import (
    Attack,
    ProgramVersion,
    RankingRun,
    Release,
    ScorerRound,
)
from pwscup.scorer.services.common import PHASE_LABELS, hidden_wait_text
from pwscup.submissions.services.jobs import JobKind
from pwscup.submissions.two_sided_lifecycle import two_sided_auto_freeze


class ScorerKind(PhasedKind, TwoSidedKind):
    key = KEY
    label = _("Scoring program by the organizers")
    description = _(
        "Teams upload a release and attack the others' frozen releases; the organizer's own "
        "scoring program (Codabench's convention) scores both in a sandbox, and the platform "
        "plays the two-sided game around it: targets, the attack matrix, protection and "
        "attack power."
    )
    phase_labels = PHASE_LABELS
    lifecycle = LIFECYCLE
    auto_freeze = two_sided_auto_freeze(ScorerRound)
    counted_row = "scorer"  # migrations/0007_page_generation_trigger.py

    # --- configuration and state -------------------------------------------------------------

    def validate_config(self, config: dict, *, round=None) -> dict:
        return services.scorer_config_validate(config)

    def teams_changed(self, round) -> None:
        scorer = selectors.scorer_of(round)
        if scorer is not None:
            services.slots_for_teams(scorer=scorer)

    def phase_held(self, phase) -> str:
        """Every phase waits for the hidden data a bundle left out (its uploads are refused
        until the organizers upload it, ``hidden_ready_check``)."""
        scorer = selectors.scorer_of(phase.round)
        return hidden_wait_text(scorer=scorer) if scorer is not None else ""

    def release_phase_note(self, scorer) -> str:
        if selectors.hidden_packs_missing(scorer=scorer):
            return gettext("Waiting for the organizer's hidden data")
        if selectors.current_program(scorer=scorer) is None:
            return gettext("Waiting for the organizer's scoring program")
        return ""

    # --- pages, API and console ---------------------------------------------------------------

    def console_actions(self, round):
        return scorer_actions(round)

    # --- uploads and jobs ---------------------------------------------------------------------

    def jobs(self):
        return [
            JobKind(
                ProgramVersion, services.BUILD_TASK, round_path="scorer__round", team_path=None
            ),
            JobKind(Release, services.SCORE_RELEASE_TASK, round_path="scorer__round"),
            JobKind(Attack, services.SCORE_ATTACK_TASK, round_path="scorer__round"),
            JobKind(RankingRun, services.RANKING_TASK, round_path="scorer__round", team_path=None),
        ]

    # --- the demo, bundles, standings and the archive -----------------------------------------
