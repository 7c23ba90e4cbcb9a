"""The sequential-release round behind the ``RoundKind`` interface (pwscup/kinds/)."""

from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.base import RoundKind
from pwscup.sequential import KEY, archive, bundle, console, demo, selectors, services, standings
from pwscup.sequential.actions import sequential_actions
from pwscup.sequential.api import round_status as api_round
from pwscup.sequential.api import submissions as api_submissions
from pwscup.sequential.api import views as api
from pwscup.sequential.models import Release, SeqAttack, SequentialRound
from pwscup.sequential.services import (
    CHECK_RELEASE_TASK,
    SCORE_ATTACK_TASK,
    sequential_config_validate,
)
from pwscup.sequential.views import downloads, pages, tabs, uploads
from pwscup.submissions.services.jobs import JobKind


class SequentialKind(RoundKind):
    key = KEY
    label = _("Sequential release (m-invariance)")
    description = _(
        "Teams publish generalized releases of a table that changes between releases; "
        "scored by m-invariance, information loss and each person's identification risk."
    )
    standings_module = standings
    archive_module = archive
    api_module = api_round
    bundle_module = bundle
    demo_module = demo
    counted_row = "sequential"  # migrations/0010_page_generation_trigger.py

    def teams_changed(self, round) -> None:
        services.masters_draw_for_new_teams(round=round)

    def validate_config(self, config: dict) -> dict:
        return sequential_config_validate(config=config)

    def round_note(self, round) -> str:
        sequential = SequentialRound.objects.filter(round=round).first()
        if sequential is None:
            return ""
        return gettext("%(j)s of %(n)s releases frozen · m = %(m)s") % {
            "j": sequential.frozen_steps,
            "n": sequential.n_releases,
            "m": sequential.config.get("m"),
        }

    def url_patterns(self):
        return [
            path("seq/kit.zip", downloads.kit_download, name="kit"),
            path("seq/sample.csv", downloads.sample_download, name="sample"),
            path("seq/upload/", uploads.release_upload, name="upload"),
            path("seq/releases/<int:pk>/", pages.release_detail, name="release"),
            path("seq/releases/<int:pk>/file.csv", downloads.release_file, name="release_file"),
            path(
                "seq/releases/<int:pk>/risk_per_person.csv",
                downloads.release_risk_csv,
                name="release_risk",
            ),
            path("seq/leaderboard/", pages.leaderboard, name="leaderboard"),
            path("seq/attack/<slug:team_slug>/", uploads.attack_upload, name="attack"),
            path("seq/organizer/<slug:action>/", console.organizer_action, name="action"),
        ]

    def round_page(self, request, access, tab):
        return tabs.round_page(request, access, tab)

    def submission_types(self):
        return api_submissions.SUBMISSION_TYPES

    def api_round_endpoints(self):
        return api.ROUND_ENDPOINTS

    def console_panel(self, request, round) -> str:
        return render_to_string(
            "sequential/console_panel.html",
            console.panel_context(request=request, round=round),
            request=request,
        )

    def console_url_patterns(self):
        return [path("new/", console.round_create, name="create")]

    def console_create_url(self, competition) -> str | None:
        return reverse("sequential_console:create", args=[competition.slug])

    def console_actions(self, round):
        return sequential_actions(round)

    def upload_models(self):
        return [Release, SeqAttack]

    def jobs(self):
        return [
            JobKind(Release, CHECK_RELEASE_TASK, round_path="sequential__round"),
            JobKind(SeqAttack, SCORE_ATTACK_TASK, round_path="target__sequential__round"),
        ]

    def leaderboard_url(self, round) -> str | None:
        return reverse("sequential:leaderboard", args=[round.competition.slug, round.slug])

    def schedule_lines(self, round) -> list[dict]:
        """One line per release: its close (``None``: no deadline) and its state (frozen,
        open for uploads, closed, or not open yet)."""
        sequential = SequentialRound.objects.filter(round=round).first()
        if sequential is None:
            return []
        return [
            {
                "label": gettext("Release %(j)s") % {"j": row["step"]},
                "opens_at": None,
                "closes_at": row["closes_at"],
                "state": row["state"],
            }
            for row in selectors.step_schedule(sequential=sequential)
        ]

    def results_published(self, round) -> bool:
        return SequentialRound.objects.filter(round=round, results_published=True).exists()

    def results_summary(self, round) -> list[dict]:
        """The leaderboard, once the results are published: before, only the round's teams
        and organizers may open it (they reach it from the round's page)."""
        if not self.results_published(round):
            return []
        return [{"label": _("Leaderboard"), "url": self.leaderboard_url(round)}]
