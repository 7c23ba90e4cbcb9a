"""The organizer console's page creating a DP round (mounted at console/<comp>/dp/new/)."""

import datetime as dt

from django.contrib.auth.decorators import login_required
from django.utils import timezone

from pwscup.competitions.round_create import round_create_page, round_identity
from pwscup.competitions.selectors import console_competition
from pwscup.dp import services
from pwscup.dp.round_form import DPRoundForm

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
