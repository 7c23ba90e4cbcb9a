"""A round's total formula on its console page (every kind: a core setting of the round),
saved by ``round_total_formula_set``; a refused formula comes back with its message next to
the field, and a line above the page saying so."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.competitions import attack_top
from pwscup.competitions.selectors import console_round
from pwscup.competitions.total_services import ATTACK_TOP_RULE, round_total_formula_set
from pwscup.console.forms import TotalFormulaForm
from pwscup.console.round_views import round_page


@login_required
@require_POST
def round_total(request, competition_slug, round_slug):
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    form = TotalFormulaForm(request.POST, offers_attack_top=attack_top.offered(round_))
    if form.is_valid():
        data = form.cleaned_data
        top = {}
        if "attack_top_n" in data:  # the round's kind has an attack matrix
            top = {
                "attack_top_n": data["attack_top_n"],
                "rule": {field: data[field] for field in ATTACK_TOP_RULE},
            }
        try:
            changed = round_total_formula_set(
                user=request.user, round=round_, formula=data["total_formula"], **top
            )
        except ValidationError as error:
            for field, messages_ in error.message_dict.items():
                form.add_error(field if field in form.fields else None, messages_)
        else:
            if changed:
                # The card holds N too: saving only N is not "the formula is saved".
                saved = (
                    _("The round's total formula and its attack against the top N are saved.")
                    if top
                    else _("The round's total formula is saved.")
                )
                messages.success(request, saved)
            return redirect("console:round", competition_slug, round_slug)
    # The page comes back scrolled to the top, the card far below it on a phone.
    messages.error(request, _("The total formula was not saved: its error is marked under Total."))
    round_.refresh_from_db()
    return round_page(request, round_, total_form=form)
