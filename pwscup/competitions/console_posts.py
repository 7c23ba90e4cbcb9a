"""The answer of a form posted from a round's console page (a kind's panel, the round's data
choice): the one service call it makes says what it did, or why it refused, in a message
above the page the organizer goes back to."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect

from pwscup.core.errors import Refused


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
