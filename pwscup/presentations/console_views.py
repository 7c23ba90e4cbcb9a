"""The organizer's presentations pages: the windows with every team's uploads, a window's
form, and publishing or hiding the slides behind a confirmation (POST only). Organizers of
the competition only (404 otherwise)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from pwscup.competitions.console_pages import competition_console_page
from pwscup.competitions.selectors import console_competition
from pwscup.core.errors import Refused
from pwscup.core.form_fields import form_page
from pwscup.presentations import selectors, services
from pwscup.presentations.forms import WindowForm, window_initial


def _window(competition, pk):
    window = selectors.window_for_console(competition=competition, pk=pk)
    if window is None:
        raise Http404("No such window.")
    return window


def _console_url(competition) -> str:
    return reverse("presentations:console", args=[competition.slug])


def _window_form_page(request, competition, form, save, *, window, done):
    """The window's form (``window`` None: a new one), handed to ``save``; a refusal (the
    window's slides are published) is shown on the form."""
    return form_page(
        request,
        form,
        save,
        template="presentations/window_form.html",
        context={"competition": competition, "window": window},
        back=_console_url(competition),
        done=done,
        refusals=True,
    )


@competition_console_page("presentations/console.html")
def console(competition):
    return {"windows": selectors.console_overview(competition=competition)}


@login_required
def window_new(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    form = WindowForm(request.POST or None, competition=competition)
    return _window_form_page(
        request,
        competition,
        form,
        lambda data: services.presentation_window_create(
            competition=competition,
            user=request.user,
            round=data.get("round"),
            **form.window_fields(),
        ),
        window=None,
        done=_("Presentation window scheduled."),
    )


@login_required
def window_edit(request, competition_slug, pk):
    competition = console_competition(user=request.user, slug=competition_slug)
    window = _window(competition, pk)
    form = WindowForm(
        request.POST or None,
        competition=competition,
        window=window,
        initial=window_initial(window),
    )
    return _window_form_page(
        request,
        competition,
        form,
        lambda data: services.presentation_window_update(
            window=window, user=request.user, **form.window_fields()
        ),
        window=window,
        done=_("Presentation window saved."),  # said when a field changed
    )


def _confirm(request, competition_slug, pk, *, publish: bool):
    competition = console_competition(user=request.user, slug=competition_slug)
    window = _window(competition, pk)
    missing = selectors.publication_missing(window=window) if publish else []
    status = 200
    if request.method == "POST":
        try:
            if publish:
                services.presentations_publish(window=window, user=request.user)
                messages.success(request, _("The slides are published to every participant."))
            else:
                services.presentations_hide(window=window, user=request.user)
                messages.success(request, _("The slides are hidden again."))
        except Refused as refusal:
            messages.error(request, refusal.message)
            status = refusal.status
        else:
            return redirect(_console_url(competition))
    return render(
        request,
        "presentations/confirm.html",
        {
            "competition": competition,
            "window": window,
            "publish": publish,
            "missing": missing,
            "shown": selectors.shown_slides_of(window=window),
        },
        status=status,
    )


@login_required
def window_publish(request, competition_slug, pk):
    return _confirm(request, competition_slug, pk, publish=True)


@login_required
def window_hide(request, competition_slug, pk):
    return _confirm(request, competition_slug, pk, publish=False)
