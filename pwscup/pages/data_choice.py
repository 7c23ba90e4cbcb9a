"""A team's pick of the round's data pack, posted from the Data tab of a round of any kind
(``rounds/_data_choice.html``), saved by ``team_choice_set``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.access import round_access
from pwscup.competitions.choice_services import team_choice_set
from pwscup.core.errors import Refused
from pwscup.kinds.tabs import DATA, tab_url


@login_required
@require_POST
def data_choice_pick(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug)
    key = request.POST.get("choice", "")
    try:
        pick = team_choice_set(
            user=request.user, round=access.round, team=access.team, key=str(key)[:64]
        )
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(
            request, _("Your team's data: %(label)s.") % {"label": pick.choice.label_shown}
        )
    return redirect(tab_url(access.round, DATA))
