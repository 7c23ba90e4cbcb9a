"""The first round kind: the PWSCup 2015 anonymize-then-attack game.

Its code stays where it grew (competitions, submissions, leaderboards, console): this module
only puts it behind the ``RoundKind`` interface. Its URL names predate kinds and are kept
("leaderboard", "attack_upload", ...), so it is the one kind mounted without a namespace. Its
demo rounds are still made by the ``load_demo`` command itself.

The imports of the game's modules happen in the methods: the registry is filled in
``AppConfig.ready()``, before those modules (views, forms) may be imported.
"""

from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.base import RoundKind


class Pwscup2015Kind(RoundKind):
    key = "pwscup2015"
    label = _("Anonymize-then-attack (PWSCup 2015)")
    description = _(
        "Teams anonymize a table under utility gates, then re-identify each other's "
        "anonymized tables; ranked by the re-identification rate they suffer."
    )
    namespaced = False

    def validate_config(self, config, *, round=None):
        """Without a round, only the shape; with one, the full check against its original
        (``round_data_check``; the creation paths run it on the uploaded original)."""
        import scoring
        from pwscup.competitions.services import read_file_bytes, round_data_check

        config = super().validate_config(config)
        if round is None:
            return config
        try:
            checked = round_data_check(
                original=read_file_bytes(round.original_file), config_raw=config
            )
        except scoring.ScoringError as error:
            raise ValidationError({"config": error.render(get_language())}) from error
        return checked.config

    def missing_phases(self, round):
        from pwscup.competitions.selectors import round_missing_phases

        return round_missing_phases(round=round)

    def round_note(self, round):
        return round.get_data_mode_display()

    def url_patterns(self):
        from pwscup.leaderboards import views as leaderboard_views
        from pwscup.submissions import kit_views, operation_views, target_views
        from pwscup.submissions import views as submission_views

        return [
            path("original.csv", submission_views.original_download, name="original_download"),
            path("config.json", submission_views.config_download, name="config_download"),
            path("kit.zip", kit_views.kit_download, name="kit_download"),
            path("submit/", submission_views.anonymization_upload, name="anonymization_upload"),
            path("status.json", submission_views.status_json, name="status_json"),
            path("operations.json", operation_views.operations_json, name="operations_json"),
            path("attack/", submission_views.attack_upload, name="attack_upload"),
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

    def round_page(self, request, access):
        from pwscup.submissions import views as submission_views

        return submission_views.round_detail(request, access)

    def console_panel(self, request, round):
        from pwscup.console.round_views import pwscup2015_panel_context

        return render_to_string(
            "console/_pwscup2015_panel.html",
            pwscup2015_panel_context(request, round),
            request=request,
        )

    def console_actions(self, round):
        from pwscup.console.round_views import pwscup2015_actions

        return pwscup2015_actions(round)

    def console_create_url(self, competition):
        return reverse("console:wizard_upload", args=[competition.slug])

    def upload_models(self):
        from pwscup.submissions.models import AnonymizationSubmission, AttackSubmission

        return [AnonymizationSubmission, AttackSubmission]

    def jobs(self):
        from pwscup.submissions import broker
        from pwscup.submissions.models import AnonymizationSubmission, AttackSubmission, Target
        from pwscup.submissions.services.jobs import BUILTIN_JOB, UPLOAD_JOB, JobKind

        return [
            JobKind(AnonymizationSubmission, UPLOAD_JOB, broker.SCORE_ANONYMIZATION),
            JobKind(AttackSubmission, UPLOAD_JOB, broker.SCORE_ATTACK),
            JobKind(Target, BUILTIN_JOB, broker.SCORE_BUILTIN_ATTACKS),
        ]

    def leaderboard_url(self, round):
        return reverse("leaderboard", args=[round.competition.slug, round.slug])

    def schedule_lines(self, round):
        from pwscup.competitions.selectors import phase_state

        return [
            {
                "label": phase.get_kind_display(),
                "opens_at": phase.opens_at,
                "closes_at": phase.closes_at,
                "state": phase_state(phase=phase),
            }
            for phase in round.phases.all()
        ]

    def results_url(self, round):
        return reverse("final_ranking", args=[round.competition.slug, round.slug])

    def results_summary(self, round):
        if not round.results_published:
            return []
        return [
            {
                "label": _("Final ranking"),
                "url": reverse("final_ranking", args=[round.competition.slug, round.slug]),
            }
        ]
