"""The console's standings page (thin: the forms collect, ``standings_update`` checks and
writes)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from pwscup.competitions.selectors import console_competition
from pwscup.competitions.standings import standings_settings, standings_update
from pwscup.console.standings_forms import StandingsFormSet, StandingsRuleForm, standings_initial


@login_required
def standings_edit(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    rounds = list(competition.rounds.all())
    settings = standings_settings(competition=competition)
    rule_initial, rows_initial = standings_initial(settings, rounds)
    data = request.POST if request.method == "POST" else None
    rule_form = StandingsRuleForm(data, initial=rule_initial)
    formset = StandingsFormSet(data, initial=rows_initial, rounds=rounds, prefix="rounds")
    errors = []
    if data is not None and rule_form.is_valid() and formset.is_valid():
        try:
            standings_update(
                user=request.user,
                competition=competition,
                rule=rule_form.cleaned_data["rule"],
                entries=formset.entries(),
            )
        except ValidationError as error:
            errors = error.messages
        else:
            messages.success(request, _("Standings saved."))
            return redirect("console:standings", competition.slug)
    return render(
        request,
        "console/standings.html",
        {
            "competition": competition,
            "rule_form": rule_form,
            "formset": formset,
            "errors": errors,
            # The public page is a 404 until the standings are set.
            "standings_set": settings is not None,
        },
    )
