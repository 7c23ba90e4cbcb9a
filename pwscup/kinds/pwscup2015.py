"""The first round kind: the PWSCup 2015 anonymize-then-attack game.

Its code stays where it grew (competitions, submissions, leaderboards, console): this module
only puts it behind the ``RoundKind`` interface. Its URL names predate kinds and are kept
("leaderboard", "attack_upload", ...), so it is the one kind mounted without a namespace.
"""

from django.urls import path
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
