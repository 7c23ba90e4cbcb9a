"""The toy game behind the ``RoundKind`` interface: the core finds its modules (pages, API,
console, bundle, archive) by their names beside this one and reads the usual names in them;
the hooks below are what it answers its own way (the layout of every kind)."""

from django.utils.translation import gettext_lazy as _

from pwscup.competitions.selectors import phases_schedule_lines
from pwscup.kinds import RoundKind
from pwscup.submissions.services.jobs import JobKind
from tests.kinds.toy import actions, selectors, services
from tests.kinds.toy.models import ToyUpload
from tests.kinds.toy.services import SCORE_TOY


class ToyGameKind(RoundKind):
    key = "toygame"
    label = _("Toy game")
    description = _("A game for the tests.")
    # It declares no module: the core finds ``views.py``, ``api.py``, ``console.py``,
    # ``bundle.py`` and ``archive.py`` beside this file (``pwscup.kinds.layout``), reads the
    # usual names in them, and the toy writes no hand-off of its own. Its views module has no
    # ``round_page``: the core draws its tabs from its declarations (the Submit tab's form
    # and uploads of its submission types, the Results tab's standings).
    phase_labels = {services.UPLOAD_PHASE: "Upload window"}

    def validate_config(self, config, *, round=None):
        return services.toy_config_check(config)

    # --- pages, API and console -----------------------------------------------------------

    def round_note(self, round):
        return "a toy note"

    def results_summary(self, round):
        if not selectors.toy_published(round=round):
            return []
        return [{"label": "Toy results", "url": self.leaderboard_url(round)}]

    # --- lifecycle ----------------------------------------------------------------------------

    def console_actions(self, round):
        return actions.ACTIONS

    def results_published(self, round):
        return selectors.toy_published(round=round)

    def schedule_lines(self, round):
        return phases_schedule_lines(round=round)

    # --- uploads and jobs ---------------------------------------------------------------------

    def jobs(self):
        return [JobKind(ToyUpload, SCORE_TOY, round_path="round")]
