"""The first round kind: the PWSCup 2015 anonymize-then-attack game, behind the
``RoundKind`` interface. Its pages' URL names predate kinds and are kept ("leaderboard",
"attack_upload", ...), so it is the one kind whose pages are mounted without a namespace.

This module is imported by ``AppConfig.ready()`` only (the models are loaded by then), so it
imports the game's modules at the top; nothing in the game imports it (the key is
``pwscup.pwscup2015.KEY``).
"""

from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.models import Phase
from pwscup.competitions.phased_kinds import PhasedKind
from pwscup.core.errors import scoring_validation_errors
from pwscup.core.stored import stored_bytes
from pwscup.kinds.base import RoundKind
from pwscup.pwscup2015 import KEY, broker
from pwscup.pwscup2015.actions import ADMIN_ACTIONS, pwscup2015_actions
from pwscup.pwscup2015.admin.rounds import Pwscup2015RoundPage
from pwscup.pwscup2015.console import urls as console_urls
from pwscup.pwscup2015.console.views import pwscup2015_panel_context
from pwscup.pwscup2015.demo import pwscup2015_demo_load
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    BuiltinAttack,
    RoundOperation,
)
from pwscup.pwscup2015.ranking_cache import ranking_invalidate
from pwscup.pwscup2015.services import round_assign_samples
from pwscup.pwscup2015.services.rounds import round_data_check
from pwscup.pwscup2015.views import files as file_views
from pwscup.pwscup2015.views import kit as kit_views
from pwscup.pwscup2015.views import leaderboards as leaderboard_views
from pwscup.pwscup2015.views import operations as operation_views
from pwscup.pwscup2015.views import tabs as tab_views
from pwscup.pwscup2015.views import targets as target_views
from pwscup.pwscup2015.views import uploads as upload_views
from pwscup.submissions.services.jobs import JobKind


class Pwscup2015Kind(PhasedKind, RoundKind):
    key = KEY
    label = _("Anonymize-then-attack (PWSCup 2015)")
    description = _(
        "Teams anonymize a table under utility gates, then re-identify each other's "
        "anonymized tables; ranked by the re-identification rate they suffer."
    )
    namespaced = False
    local_check = "python -m scoring check"
    counted_row = "pwscup2015"  # its table counts: migrations/0007_page_generation_trigger.py
    phase_labels = dict(Phase.Kind.choices)

    def validate_config(self, config, *, round=None):
        """Without a round, only the shape; with one, the full check against its original
        (``round_data_check``; the creation paths run it on the uploaded original)."""
        import scoring

        config = super().validate_config(config)
        if round is None:
            return config
        try:
            checked = round_data_check(
                original=stored_bytes(round.original_file), config_raw=config
            )
        except scoring.ScoringError as error:
            raise scoring_validation_errors(error, field="config") from error
        return checked.config

    def teams_changed(self, round):
        if round.pwscup2015.is_per_team:
            round_assign_samples(round=round)

    def teams_standing_changed(self, round):
        ranking_invalidate(round_ids=[round.pk])

    def demo_load(self, competition, *, organizer):
        pwscup2015_demo_load(competition=competition)

    def round_note(self, round):
        return round.pwscup2015.get_data_mode_display()

    def phase_ended_at(self, phase):
        if phase.kind == Phase.Kind.ANONYMIZATION:
            return phase.round.pwscup2015.frozen_at
        return None

    def results_published(self, round):
        return round.pwscup2015.results_published

    def site_url_patterns(self):
        return [
            path("submissions/<int:pk>/file", upload_views.submission_file, name="submission_file"),
            path(
                "submissions/<int:pk>/select",
                upload_views.submission_select,
                name="submission_select",
            ),
            path("attacks/<int:pk>/file", upload_views.attack_file, name="attack_file"),
            path("submissions/<int:pk>/note", upload_views.submission_note, name="submission_note"),
            path("attacks/<int:pk>/note", upload_views.attack_note, name="attack_note"),
        ]

    def url_patterns(self):
        return [
            path("original.csv", file_views.original_download, name="original_download"),
            path("config.json", file_views.config_download, name="config_download"),
            path("sample.csv", file_views.sample_download, name="sample_download"),
            path("kit.zip", kit_views.kit_download, name="kit_download"),
            path("upload/", upload_views.anonymization_upload, name="anonymization_upload"),
            path("status.json", upload_views.status_json, name="status_json"),
            path("operations.json", operation_views.operations_json, name="operations_json"),
            path("attack/", upload_views.attack_upload, name="attack_upload"),
            path(
                "targets/<slug:team_slug>/anonymized.csv",
                target_views.target_download,
                name="target_download",
            ),
            path(
                "targets/<slug:team_slug>/candidate.csv",
                target_views.candidate_download,
                name="candidate_download",
            ),
            path("leaderboard/", leaderboard_views.leaderboard, name="leaderboard"),
            path("matrix/", leaderboard_views.matrix, name="matrix"),
            path("final/", leaderboard_views.final, name="final_ranking"),
        ]

    def round_page(self, request, access, tab):
        return tab_views.round_page(request, access, tab)

    def console_panel(self, request, round):
        return render_to_string(
            "pwscup2015/console_panel.html",
            pwscup2015_panel_context(request, round),
            request=request,
        )

    def console_actions(self, round):
        return pwscup2015_actions(round)

    def console_url_patterns(self):
        return console_urls.urlpatterns

    def admin_actions(self):
        return ADMIN_ACTIONS

    def admin_round_page(self):
        return Pwscup2015RoundPage

    def console_create_url(self, competition):
        return reverse("pwscup2015_console:wizard_upload", args=[competition.slug])

    def organizer_permissions(self):
        # Organizers look at what the platform made (the core's default: "view") and rescore
        # an anonymization from its page; they change nothing else.
        return {AnonymizationSubmission: ("view", "change")}

    def jobs(self):
        return [
            JobKind(AnonymizationSubmission, broker.SCORE_ANONYMIZATION, round_path="phase__round"),
            JobKind(AttackSubmission, broker.SCORE_ATTACK, round_path="phase__round"),
            JobKind(
                BuiltinAttack,
                broker.SCORE_BUILTIN_ATTACKS,
                round_path="target__round",
                team_path="target__team",
            ),
            JobKind(RoundOperation, broker.RUN_ROUND_OPERATION, round_path="round", team_path=None),
        ]

    def results_url(self, round):
        return reverse("final_ranking", args=[round.competition.slug, round.slug])

    def results_summary(self, round):
        if not round.pwscup2015.results_published:
            return []
        return [{"label": _("Final ranking"), "url": self.results_url(round)}]
