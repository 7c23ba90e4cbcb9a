"""The sequential-release round behind the ``RoundKind`` interface (pwscup/kinds/)."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.base import RoundKind
from pwscup.sequential import KEY, selectors, services
from pwscup.sequential.actions import ADMIN_ACTIONS, sequential_actions
from pwscup.sequential.api import round_status as api
from pwscup.sequential.models import Release, SeqAttack
from pwscup.submissions.services.jobs import JobKind


class SequentialKind(RoundKind):
    key = KEY
    label = _("Sequential release (m-invariance)")
    description = _(
        "Teams publish generalized releases of a table that changes between releases; "
        "scored by m-invariance, information loss and each person's identification risk."
    )
    local_check = "python -m scoring seq check"
    api_module = api  # the other modules are found by their names (pwscup.kinds.layout)
    counted_row = "sequential"  # migrations/0010_page_generation_trigger.py

    def teams_changed(self, round) -> None:
        services.masters_draw_for_new_teams(round=round)

    def validate_config(self, config: dict) -> dict:
        return services.sequential_config_validate(config=config)

    def round_note(self, round) -> str:
        sequential = selectors.sequential_or_none(round=round)
        if sequential is None:
            return ""
        return gettext("%(j)s of %(n)s releases frozen · m = %(m)s") % {
            "j": sequential.frozen_steps,
            "n": sequential.n_releases,
            "m": sequential.config.get("m"),
        }

    def console_actions(self, round):
        return sequential_actions(round)

    def admin_actions(self):
        return ADMIN_ACTIONS

    def jobs(self):
        return [
            JobKind(Release, services.CHECK_RELEASE_TASK, round_path="sequential__round"),
            JobKind(SeqAttack, services.SCORE_ATTACK_TASK, round_path="target__sequential__round"),
        ]

    def schedule_lines(self, round) -> list[dict]:
        """One line per release (``selectors.release_schedule_lines``); then, with an attack
        phase, its line (``selectors.attack_schedule_line``): both of the core's shape
        (``pwscup.competitions.windows.plan_line``)."""
        sequential = selectors.sequential_or_none(round=round)
        if sequential is None:
            return []
        lines = selectors.release_schedule_lines(sequential=sequential)
        if sequential.config.get("attack_phase"):
            lines.append(selectors.attack_schedule_line(sequential=sequential))
        return lines

    def results_published(self, round) -> bool:
        sequential = selectors.sequential_or_none(round=round)
        return sequential is not None and sequential.results_published
