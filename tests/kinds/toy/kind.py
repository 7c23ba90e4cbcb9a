"""The toy game behind the ``RoundKind`` interface: each hook is one call into the toy's
modules (the layout of every kind)."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.selectors import phases_schedule_lines
from pwscup.kinds import RoundKind
from pwscup.kinds.tabs import render_tab
from pwscup.submissions.services.jobs import JobKind
from tests.kinds.toy import actions, api, archive, bundle, console, selectors, services, views
from tests.kinds.toy.models import ToyUpload
from tests.kinds.toy.services import SCORE_TOY


class ToyGameKind(RoundKind):
    key = "toygame"
    label = _("Toy game")
    description = _("A game for the tests.")

    def validate_config(self, config, *, round=None):
        return services.toy_config_check(config)

    # --- pages, API and console -----------------------------------------------------------

    def url_patterns(self):
        return views.urlpatterns

    def round_page(self, request, access, tab):
        # A real kind extends rounds/base.html with its content in {% block tab %}; the toy
        # shows the core's frame only (title, tab bar), in the reader's language.
        return render_tab(request, access, tab, "rounds/base.html")

    def submission_types(self):
        return api.SUBMISSION_TYPES

    def api_round_status(self, request, access):
        return api.round_status(request, access)

    def api_leaderboard(self, request, access):
        return api.round_leaderboard(request, access)

    def console_url_patterns(self):
        return console.urlpatterns

    def console_create_url(self, competition):
        return reverse("toygame_console:create", args=[competition.slug])

    def console_panel(self, request, round):
        return console.panel(request, round)

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

    def leaderboard_url(self, round):
        return reverse("toygame:leaderboard", args=[round.competition.slug, round.slug])

    # --- uploads and jobs ---------------------------------------------------------------------

    def upload_models(self):
        return [ToyUpload]

    def jobs(self):
        return [JobKind(ToyUpload, SCORE_TOY, round_path="round")]

    # --- bundles and the archive --------------------------------------------------------------

    def bundle_export(self, round, *, anchor, options=None):
        return bundle.round_bundle(round, anchor=anchor)

    def bundle_import(self, *, competition, entry, start, user):
        return bundle.round_from_bundle(competition=competition, entry=entry, start=start)

    def archive_members(self, round, *, secrets):
        return archive.archive_members(round, secrets=secrets)
