"""The organizer's presentations pages: the windows with every team's uploads, a window's
form, and publishing or hiding the slides behind a confirmation (POST only). Organizers of
the competition only (404 otherwise)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from pwscup.competitions.selectors import console_competition
from pwscup.core.errors import Refused
from pwscup.core.form_fields import form_saved
from pwscup.presentations import selectors, services
from pwscup.presentations.forms import WindowForm, window_initial


def _window(competition, pk):
    window = selectors.window_for_console(competition=competition, pk=pk)
    if window is None:
        raise Http404("No such window.")
    return window


def _back(competition):
    return redirect(reverse("presentations:console", args=[competition.slug]))


def _window_form_page(request, competition, form, window):
    """The window's form (``window`` None: a new one)."""
    context = {"competition": competition, "form": form, "window": window}
    return render(request, "presentations/window_form.html", context)


@login_required
def console(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    return render(
        request,
        "presentations/console.html",
        {
            "competition": competition,
            "windows": selectors.console_overview(competition=competition),
        },
    )


@login_required
def window_new(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    form = WindowForm(request.POST or None, competition=competition)
    if form_saved(
        request,
        form,
        lambda data: services.presentation_window_create(
            competition=competition,
            user=request.user,
            round=data.get("round"),
            **form.window_fields(),
        ),
    ):
        messages.success(request, _("Presentation window scheduled."))
        return _back(competition)
    return _window_form_page(request, competition, form, None)


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
    saved = form_saved(
        request,
        form,
        lambda data: services.presentation_window_update(
            window=window, user=request.user, **form.window_fields()
        ),
        refusals=True,
    )
    if saved:
        if saved.value:
            messages.success(request, _("Presentation window saved."))
        return _back(competition)
    return _window_form_page(request, competition, form, window)


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
            return _back(competition)
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
