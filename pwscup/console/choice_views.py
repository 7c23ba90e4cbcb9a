"""A round's data choice on its console page (every kind: a core setting of the round): the
packs it offers (``choices_set``) and an organizer's change of a team's pick
(``organizer_choice_change``, audited). A refused card comes back as it was typed, the reason
above the page and under the row and field at fault."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from pwscup.competitions.choice_selectors import round_choices
from pwscup.competitions.choice_services import choices_set, organizer_choice_change
from pwscup.competitions.console_posts import console_post_answer
from pwscup.competitions.selectors import console_round
from pwscup.console.choice_forms import choice_rows_formset
from pwscup.console.round_views import round_page
from pwscup.console.selectors import console_team


@login_required
@require_POST
def round_choices_save(request, competition_slug, round_slug):
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    formset = choice_rows_formset(choices=round_choices(round=round_), data=request.POST)
    if not formset.management_form.is_valid():  # not the card's post: no rows to give back

        def refuse() -> str:
            raise ValidationError(_("The data packs could not be read: send the form again."))

        return console_post_answer(request, round_, refuse)
    if not formset.is_valid():
        count = formset.total_error_count()
        messages.error(
            request,
            ngettext(
                "The data packs were not saved: %(n)d error, marked under Data choice.",
                "The data packs were not saved: %(n)d errors, marked under Data choice.",
                count,
            )
            % {"n": count},
        )
        return round_page(request, round_, choice_formset=formset)
    try:
        changed = choices_set(
            user=request.user, round=round_, rows=[form.cleaned_data for form in formset.forms]
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        _place_errors(formset, error)
        return round_page(request, round_, choice_formset=formset)
    if changed:
        messages.success(request, _("The round's data packs are saved."))
    return redirect("console:round", competition_slug, round_slug)


def _place_errors(formset, error: ValidationError) -> None:
    """Each error the service names by its row and field also under that field; one about a
    pack it names by its key alone (a picked pack that cannot be removed) under the row that
    showed that pack."""
    for item in error.error_list:
        params = item.params or {}
        row, field = params.get("row", 0), params.get("field", "")
        if not row and "key" in params:
            shown = [form.initial.get("key") for form in formset.forms]
            row = shown.index(params["key"]) + 1 if params["key"] in shown else 0
        if field and 1 <= row <= len(formset.forms):
            formset.forms[row - 1].add_error(field, ValidationError(item.message % params))


@login_required
@require_POST
def round_choice_team(request, competition_slug, round_slug, pk):
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    team = console_team(competition=round_.competition, pk=pk)

    def change() -> str:
        changed = organizer_choice_change(
            user=request.user, round=round_, team=team, key=str(request.POST.get("choice", ""))
        )
        return _("The data of %(team)s is changed.") % {"team": team.name} if changed else ""

    return console_post_answer(request, round_, change)
