"""The synthetic-data round behind the ``RoundKind`` interface (pwscup/kinds/): each hook is
one call into the kind's modules."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.selectors import (
    phases_schedule_lines,
    phases_schedule_plan,
    round_missing_phases,
)
from pwscup.kinds.base import RoundKind
from pwscup.submissions.services.jobs import JobKind
from pwscup.submissions.services.two_sided import RELEASE
from pwscup.synthetic import (
    KEY,
    api,
    archive,
    bundle,
    console,
    demo,
    selectors,
    services,
    standings,
    views,
)
from pwscup.synthetic.actions import synthetic_actions
from pwscup.synthetic.models import SynAttack, SynRelease, SynTarget
from pwscup.synthetic.services.common import PHASE_LABELS


class SyntheticKind(RoundKind):
    key = KEY
    label = _("Synthetic data and membership inference")
    description = _(
        "Teams publish a synthetic stand-in for their private training table, scored by "
        "model utility and marginal fidelity; then attack the others' releases by membership "
        "inference, scored by the true-positive rate at a low false-positive rate."
    )
    standings_module = standings
    archive_module = archive
    api_module = api
    phase_labels = PHASE_LABELS
    views_module = views
    console_module = console
    bundle_module = bundle
    demo_module = demo

    # --- configuration and state -------------------------------------------------------------

    def validate_config(self, config: dict, *, round=None) -> dict:
        return services.synthetic_config_validate(config)

    def teams_changed(self, round) -> None:
        services.teams_changed(round=round)

    def phase_ended_at(self, phase):
        """The freeze ends the release phase (its uploads are refused from then)."""
        if phase.kind != RELEASE:
            return None
        synthetic = selectors.synthetic_of(phase.round)
        return synthetic.frozen_at if synthetic is not None else None

    def results_published(self, round) -> bool:
        synthetic = selectors.synthetic_of(round)
        return bool(synthetic and synthetic.results_published)

    def missing_phases(self, round) -> list[str]:
        missing = round_missing_phases(round=round)
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
        draw = (
            selectors.team_draw_of(synthetic=synthetic, team=team)
            if synthetic is not None
            else None
        )
        if draw is None:
            return ""
        return gettext(
            "The rows of %(team)s are already drawn from the population of %(key)s (the team "
            "downloaded or uploaded its data): a synthetic round keeps a team's draw, so its "
            "data pack cannot change."
        ) % {"team": team.name, "key": draw.choice_key or "-"}

    def round_note(self, round) -> str:
        synthetic = selectors.synthetic_of(round)
        if synthetic is None:
            return ""
        if synthetic.results_published:
            return gettext("Results published")
        if synthetic.frozen_at is not None:
            return gettext("Releases frozen · attack phase")
        return gettext("Release phase")

    def schedule_lines(self, round) -> list[dict]:
        return phases_schedule_lines(round=round)

    def schedule_plan(self, round) -> list[tuple]:
        return phases_schedule_plan(round=round)

    # --- pages, API and console ---------------------------------------------------------------

    def console_actions(self, round):
        return synthetic_actions(round)

    def leaderboard_url(self, round) -> str | None:
        return views.results_url(round)

    def results_summary(self, round) -> list[dict]:
        if not self.results_published(round):
            return []
        return [{"label": _("Results"), "url": views.results_url(round)}]

    # --- uploads and jobs ---------------------------------------------------------------------

    def upload_models(self):
        return [SynRelease, SynAttack]

    def jobs(self):
        return [
            JobKind(SynRelease, services.SCORE_RELEASE_TASK, round_path="synthetic__round"),
            JobKind(SynTarget, services.SCORE_TARGET_TASK, round_path="synthetic__round"),
            JobKind(SynAttack, services.SCORE_ATTACK_TASK, round_path="target__synthetic__round"),
        ]

    # --- the demo, bundles and the archive ----------------------------------------------------
