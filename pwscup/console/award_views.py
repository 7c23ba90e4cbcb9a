"""The console's judged awards: the competition's awards with a form to add one, an
award's edit form, and its removal (a page that asks first, as the console's other removals). Organizers of the competition only (the
same 404 as for a competition that does not exist otherwise, as every console page)."""

from django.contrib.auth.decorators import login_required
from django.forms.models import model_to_dict
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from pwscup.accounts.selectors import award_of, awards_of
from pwscup.accounts.services import award_create, award_delete, award_update
from pwscup.competitions.selectors import console_competition
from pwscup.console.award_forms import AwardForm
from pwscup.core.form_fields import confirm_page, form_page
from pwscup.core.languages import in_reader_language


def _award(competition, pk):
    award = award_of(competition=competition, pk=pk)
    if award is None:
        raise Http404("No such award.")
    return award


@login_required
def awards_page(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    return form_page(
        request,
        AwardForm(request.POST or None, competition=competition),
        lambda data: award_create(user=request.user, competition=competition, **data),
        template="console/awards.html",
        context={"competition": competition, "awards": awards_of(competition=competition)},
        back=reverse("console:awards", args=[competition.slug]),
        done=_("Award recorded: it is shown on the pages now."),
    )


@login_required
def award_edit(request, competition_slug, pk):
    competition = console_competition(user=request.user, slug=competition_slug)
    award = _award(competition, pk)
    initial = model_to_dict(award, fields=AwardForm.base_fields)
    return form_page(
        request,
        AwardForm(request.POST or None, competition=competition, initial=initial),
        lambda data: award_update(user=request.user, award=award, **data),
        template="console/award_form.html",
        context={"competition": competition, "award": award},
        back=reverse("console:awards", args=[competition.slug]),
        done=_("Award saved."),  # said when a field changed
    )


@login_required
def award_remove(request, competition_slug, pk):
    """Asks first (GET: a page naming the award and its team: the judges' decision), removes
    on POST."""
    competition = console_competition(user=request.user, slug=competition_slug)
    award = _award(competition, pk)
    return confirm_page(
        request,
        lambda: award_delete(user=request.user, award=award),
        template="console/award_remove.html",
        context={
            "competition": competition,
            "award": award,
            "name": in_reader_language(award.name_en, award.name_ja),
        },
        back=reverse("console:awards", args=[competition.slug]),
        done=_("Award removed."),
    )
