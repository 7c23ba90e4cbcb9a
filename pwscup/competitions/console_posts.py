"""The answer of a form posted from a round's console page (a kind's panel, the round's data
choice): the one service call it makes says what it did, or why it refused, in a message
above the page the organizer goes back to."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from pwscup.core.errors import Refused
from pwscup.core.form_fields import form_page


def console_post_answer(request, round_, perform):
    """``perform()`` (one service call) returns the message of what it did (``""``: nothing
    changed, nothing to say); its refusal (``Refused``, or a ``ValidationError``: its messages
    as one) is shown instead; back to the round's console page."""
    try:
        done = perform()
    except Refused as refusal:
        messages.error(request, refusal.message)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if done:
            messages.success(request, done)
    return redirect("console:round", round_.competition.slug, round_.slug)


def dates_page(request, round_, form, save, *, template: str):
    """A round's page *Dates and limits* (the core's, or a kind's own): ``form`` saved by
    ``save`` (``form_page``), said in the same words for every kind, then back to the round's
    console page."""
    return form_page(
        request,
        form,
        save,
        template=template,
        context={"competition": round_.competition, "round": round_},
        back=reverse("console:round", args=[round_.competition.slug, round_.slug]),
        done=_("The round's dates and limits are saved."),
        unchanged=_("Nothing changed: the dates and limits are as they were."),
    )
