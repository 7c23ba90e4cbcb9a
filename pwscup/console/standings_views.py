"""The console's standings pages: one division's settings (the first's at the address it
always had), a new division, a division's removal (thin: the forms collect,
``pwscup.competitions.standings_services`` checks and writes)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from pwscup.competitions.selectors import console_competition
from pwscup.competitions.standings import divisions_counting, removal_refusal, standings_settings
from pwscup.competitions.standings_services import (
    standings_division_add,
    standings_division_remove,
    standings_update,
)
from pwscup.console.standings_forms import (
    CountedFormSet,
    DivisionForm,
    StandingsFormSet,
    StandingsRuleForm,
    countable_divisions,
    counted_initial,
    division_initial,
    standings_initial,
)
from pwscup.core.form_fields import confirm_page


def _forms(request, competition, settings, rounds, *, adding: bool):
    rule_initial, rows_initial = standings_initial(None if adding else settings, rounds)
    data = request.POST if request.method == "POST" else None
    current = None if adding else settings
    divisions = countable_divisions(competition, current)
    return (
        data,
        DivisionForm(data, initial={} if adding else division_initial(settings), prefix="division"),
        StandingsRuleForm(data, initial=rule_initial),
        StandingsFormSet(data, initial=rows_initial, items=rounds, prefix="rounds"),
        CountedFormSet(
            data,
            initial=counted_initial(current, divisions),
            items=divisions,
            prefix="divisions",
        ),
    )


def _page(request, competition, key, *, adding: bool):
    """The form of the division ``key`` (``None``: the first, or the competition's first
    standings when it has none) or, ``adding``, of a new division."""
    rounds = list(competition.rounds.all())
    settings = None if adding else standings_settings(competition=competition, key=key)
    if key is not None and settings is None and not adding:
        raise Http404(_("This competition has no such division."))
    data, division_form, rule_form, formset, counted_formset = _forms(
        request, competition, settings, rounds, adding=adding
    )
    errors = []
    forms_valid = data is not None and division_form.is_valid() and rule_form.is_valid()
    # Both formsets are validated, so that each shows its own errors.
    formsets_valid = all([formset.is_valid(), counted_formset.is_valid()])
    if forms_valid and formsets_valid:
        fields = {
            "user": request.user,
            "competition": competition,
            "division": division_form.division(),
            "rule": rule_form.cleaned_data["rule"],
            "entries": formset.entries(),
            "counted": counted_formset.counted(),
        }
        try:
            if adding:
                saved = standings_division_add(**fields)
            else:
                saved = standings_update(key=settings and settings.key, **fields)
        except ValidationError as error:
            errors = error.messages
        else:
            if saved is None and settings is not None:
                # No round nor division ticked: the service removed the division, as its
                # button does.
                messages.success(request, _("Division removed."))
                return redirect("console:competition", competition.slug)
            messages.success(request, _("Standings saved."))
            if key is None and not adding or saved is None:
                return redirect("console:standings", competition.slug)
            return redirect("console:standings_division", competition.slug, saved.key)
    return render(
        request,
        "console/standings.html",
        {
            "competition": competition,
            "division": settings,
            "adding": adding,
            "division_form": division_form,
            "rule_form": rule_form,
            "formset": formset,
            "counted_formset": counted_formset,
            "counted_by": ", ".join(d.name for d in divisions_counting(settings))
            if settings and not adding
            else "",
            "errors": errors,
            # The public page is a 404 until the standings are set; the first division's
            # is the competition's standings page, as before divisions.
            "public_url": settings
            and (
                reverse("competition_standings", args=[competition.slug])
                if key is None
                else reverse("competition_standings_division", args=[competition.slug, key])
            ),
        },
    )


@login_required
def standings_edit(request, competition_slug, key=None):
    competition = console_competition(user=request.user, slug=competition_slug)
    return _page(request, competition, key, adding=False)


@login_required
def standings_add(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    return _page(request, competition, None, adding=True)


@login_required
def standings_remove(request, competition_slug, key):
    """Asks first (GET: a confirmation page naming the division), removes on POST."""
    competition = console_competition(user=request.user, slug=competition_slug)
    division = standings_settings(competition=competition, key=key)
    if division is None:
        raise Http404(_("This competition has no such division."))
    return confirm_page(
        request,
        lambda: standings_division_remove(user=request.user, competition=competition, key=key),
        template="console/standings_remove.html",
        context={
            "competition": competition,
            "division": division,
            "refusal": removal_refusal(division),
        },
        back=reverse("console:competition", args=[competition.slug]),
        done=_("Division removed."),
    )
