"""The DP round in the organizer console: the page creating one (mounted at
console/<comp>/dp/new/) and the round's panel (the core renders ``PANEL_TEMPLATE`` with
``panel_context``)."""

import json

from django.contrib.auth.decorators import login_required
from django.urls import path
from django.utils import timezone

from pwscup.competitions.round_create import round_create_page, round_identity
from pwscup.competitions.selectors import console_competition
from pwscup.core.time_zones import default_time_zone
from pwscup.dp import services
from pwscup.dp.round_form import DPRoundForm
from pwscup.dp.selectors import dp_round_of, organizer_overview
from pwscup.submissions.two_sided_forms import windows_initial

__all__ = ["DPRoundForm", "round_create"]

# The form's one window (``opens_at``, ``closes_at``), started as the two-sided rounds'
# release phase.
WINDOW = ("",)


@login_required
def round_create(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    if request.method == "POST":
        form = DPRoundForm(request.POST, request.FILES)
    else:
        now, zone = timezone.now(), default_time_zone()
        form = DPRoundForm(initial=windows_initial(now=now, time_zone=zone, sides=WINDOW))

    def create(data):
        return services.dp_round_create(
            **round_identity(data, competition=competition, user=request.user),
            table=data["table"].read(),
            table_filename=data["table"].name,
            config_raw=form.config_raw(),
            opens_at=data["opens_at"],
            closes_at=data["closes_at"],
            daily_limit=data["daily_limit"],
            total_limit=data["total_limit"],
        )

    return round_create_page(request, competition, form, create, "dp/console_create.html")


urlpatterns = [path("new/", round_create, name="create")]


PANEL_TEMPLATE = "dp/_console_panel.html"


def panel_context(round) -> dict | None:
    """The panel's configuration and the teams' ledgers; ``None`` (no panel) for a round
    without its DP row."""
    try:
        dp_round = dp_round_of(round)
    except Exception:  # noqa: BLE001 - a round without its DP row shows no panel
        return None
    return {
        "round": round,
        "dp_round": dp_round,
        "config_json": json.dumps(dp_round.config, indent=2, ensure_ascii=False),
        "overview": organizer_overview(dp_round=dp_round),
        "closed": dp_round.has_closed(timezone.now()),
    }
