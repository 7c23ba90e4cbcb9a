"""The DP round in the organizer console: the page creating one (mounted at
console/<comp>/dp/new/) and the round's panel (the core renders ``PANEL_TEMPLATE`` with
``panel_context``)."""

import datetime as dt
import json

from django.contrib.auth.decorators import login_required
from django.urls import path
from django.utils import timezone

from pwscup.competitions.round_create import round_create_page, round_identity
from pwscup.competitions.selectors import console_competition
from pwscup.dp import services
from pwscup.dp.round_form import DPRoundForm
from pwscup.dp.selectors import dp_round_of, organizer_overview

__all__ = ["DPRoundForm", "round_create"]


@login_required
def round_create(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    now = timezone.now().replace(second=0, microsecond=0)
    if request.method == "POST":
        form = DPRoundForm(request.POST, request.FILES)
    else:
        form = DPRoundForm(initial={"opens_at": now, "closes_at": now + dt.timedelta(days=7)})

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
