"""The DP round as a round kind (pwscup/kinds/): its pages, lifecycle and demo (its API,
console, standings, archive and bundle modules the core finds by their names)."""

from django.urls import path
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from pwscup.competitions.windows import schedule_line
from pwscup.core.errors import scoring_form_error
from pwscup.dp import archive, engine
from pwscup.dp.actions import dp_actions
from pwscup.dp.demo import dp_demo_load
from pwscup.dp.models import DPRound, Estimate
from pwscup.dp.services.common import CHECK_DP_ESTIMATE, RELEASE_PHASE_LABEL
from pwscup.dp.services.window_edit import DP_PHASES_EDIT
from pwscup.dp.views import charges, estimates, kit, pages, tabs
from pwscup.kinds.base import RoundKind
from pwscup.submissions.services.jobs import JobKind


class DPKind(RoundKind):
    key = "dp"
    label = _("Differential privacy: batch release vs interactive queries")
    description = _(
        "Each team spends an ε budget per level on Laplace-noised queries or Pk-anonymized "
        "releases of a hidden table, and estimates its histograms; scored by L2 and Spearman "
        "after the close, next to the paper's baselines."
    )
    local_check = "python -m scoring dp check"
    counted_row = "dp"  # migrations/0010_page_generation_trigger.py
    # The console's page *Dates and limits* of the release window (its own row's, not a phase).
    phases_edit = DP_PHASES_EDIT

    def validate_config(self, config: dict) -> dict:

        try:
            return engine.config_validate(config)
        except engine.DPInputError as error:
            raise scoring_form_error("config", error) from None

    def console_actions(self, round):
        return dp_actions(round)

    def jobs(self):
        return [JobKind(Estimate, CHECK_DP_ESTIMATE, round_path="dp_round__round")]

    def round_note(self, round) -> str:
        dp_round = DPRound.objects.filter(round=round).first()
        if dp_round is None:
            return ""
        levels = ", ".join(f"ε = {level['epsilon']}" for level in dp_round.config["levels"])
        targets = len(dp_round.config["workload"])
        return ngettext(
            "Levels %(levels)s · %(targets)s workload histogram",
            "Levels %(levels)s · %(targets)s workload histograms",
            targets,
        ) % {"levels": levels, "targets": targets}

    def url_patterns(self):
        return [
            path("dp/levels/<str:level>/", pages.level_page, name="level"),
            path("dp/levels/<str:level>/queries", charges.query, name="query"),
            path("dp/levels/<str:level>/releases", charges.release, name="release"),
            path(
                "dp/levels/<str:level>/releases/<int:number>/release.csv",
                charges.release_csv,
                name="release_csv",
            ),
            path("dp/levels/<str:level>/ledger.csv", charges.ledger_csv, name="ledger_csv"),
            path(
                "dp/levels/<str:level>/estimate", estimates.estimate_upload, name="estimate_upload"
            ),
            path(
                "dp/levels/<str:level>/estimate/from", estimates.estimate_from, name="estimate_from"
            ),
            path(
                "dp/levels/<str:level>/declared", estimates.declared_upload, name="declared_upload"
            ),
            path("dp/leaderboard/", pages.leaderboard, name="leaderboard"),
            path("dp/kit.zip", kit.kit_download, name="kit_download"),
            path("dp/sample_estimate.csv", kit.sample_estimate, name="sample_estimate"),
        ]

    def round_page(self, request, access, tab):
        return tabs.round_page(request, access, tab)

    def schedule_lines(self, round) -> list[dict]:
        from django.utils import timezone

        dp_round = DPRound.objects.filter(round=round).first()
        if dp_round is None:
            return []
        now = timezone.now()
        if now < dp_round.opens_at:
            state = "upcoming"
        else:
            state = "open" if dp_round.is_open(now) else "closed"
        return [
            schedule_line(
                label=str(RELEASE_PHASE_LABEL),
                window=dp_round,
                closes_at=dp_round.closes_at,
                state=state,
            )
        ]

    def schedule_plan(self, round) -> list[tuple]:
        dp_round = DPRound.objects.filter(round=round).first()
        return [] if dp_round is None else [dp_round.planned_window()]

    def results_published(self, round) -> bool:
        """The leaderboard is shown to everyone once the release phase has closed and the
        round is scored; before that nothing of it is final (nor shown)."""
        dp_round = DPRound.objects.filter(round=round).first()
        return dp_round is not None and archive.results_final(dp_round)

    def results_summary(self, round) -> list[dict]:
        url = self.leaderboard_url(round)
        return [{"label": _("DP leaderboard"), "url": url}] if url else []

    def demo_load(self, competition, *, organizer) -> None:
        dp_demo_load(competition=competition, organizer=organizer)
