"""The console's page *Dates and limits* of a round whose kind lets the core edit its phases
(``RoundKind.phases_edit``): extend a deadline, change a limit."""

from django.contrib.auth.decorators import login_required
from django.http import Http404

from pwscup.competitions.console_posts import dates_page
from pwscup.competitions.phases_edit import phases_edit_values, round_phases_edit
from pwscup.competitions.selectors import console_round
from pwscup.console.phase_forms import PhasesEditForm
from pwscup.kinds import kind_of


@login_required
def round_phases(request, competition_slug, round_slug):
    """Each phase's window (in the round's time zone) and limits, saved together by
    ``round_phases_edit``; a 404 for a round whose kind edits its dates on its own page."""
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    if kind_of(round_).phases_edit is None:
        raise Http404
    form = PhasesEditForm(
        request.POST or None, round=round_, stored=phases_edit_values(round=round_)
    )
    return dates_page(
        request,
        round_,
        form,
        lambda data: round_phases_edit(
            user=request.user,
            round=round_,
            phases=form.phases(),
            auto_freeze=form.auto_freeze(),
        ),
        template="console/round_phases.html",
    )
