"""The participants' presentations page, its upload form and the slides' files. Thin: the
access rule is ``selectors.slides_visible_to``, the writes are ``services``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.selectors import competitions_for_user, team_for_user
from pwscup.core.errors import Refused
from pwscup.core.files import private_file_response
from pwscup.core.form_fields import form_refusal
from pwscup.presentations import selectors, services
from pwscup.presentations.forms import SlidesUploadForm
from pwscup.presentations.models import PresentationWindow, Slides
from pwscup.submissions.round_pages import refused_json, wants_json
from pwscup.submissions.selectors import live_etag

PDF_CONTENT_TYPE = "application/pdf"
PNG_CONTENT_TYPE = "image/png"


def _competition(request, competition_slug):
    """The competition, for its participants and organizers (404 for anyone else)."""
    competition = get_object_or_404(competitions_for_user(user=request.user), slug=competition_slug)
    if selectors.presentations_for(user=request.user, competition=competition) is None:
        raise Http404("No presentations.")
    return competition


def _page(request, competition, *, form=None, status=200):
    # The team's live ETag, read before the slides: one that changes after it makes the
    # page's next poll a 200 (``static/live.js``).
    team = team_for_user(user=request.user, competition=competition)
    etag = live_etag(round_id=None, team_id=team.pk) if team is not None else ""
    context = selectors.presentations_page(user=request.user, competition=competition)
    context["live_etag"] = etag
    context["form"] = form or SlidesUploadForm()
    template = (
        "presentations/_uploads.html" if request.GET.get("fragment") else "presentations/page.html"
    )
    return render(request, template, context, status=status)


@login_required
def page(request, competition_slug):
    return _page(request, _competition(request, competition_slug))


@login_required
@require_POST
def upload(request, competition_slug, pk):
    competition = _competition(request, competition_slug)
    window = get_object_or_404(PresentationWindow, competition=competition, pk=pk)
    team = team_for_user(user=request.user, competition=competition)
    form = SlidesUploadForm(request.POST, request.FILES)
    try:
        if team is None:
            raise Refused(_("Only members of a team can upload slides."), status=403)
        if not form.is_valid():
            raise form_refusal(form)
        slides = services.slides_upload(
            window=window,
            team=team,
            user=request.user,
            uploaded_file=form.cleaned_data["file"],
            anonymization_policy=form.cleaned_data["anonymization_policy"],
            attack_policy=form.cleaned_data["attack_policy"],
        )
    except Refused as refusal:
        if wants_json(request):
            return refused_json(refusal)
        messages.error(request, refusal.message)
        return _page(request, competition, form=form, status=refusal.status)
    notice = _(
        "Slides received (%(upload)s): a worker checks the PDF and draws its first page; "
        "this page updates by itself."
    ) % {"upload": slides.label}
    if wants_json(request):
        return JsonResponse(
            {"id": slides.pk, "number": slides.number, "status": slides.status, "message": notice},
            status=202,
        )
    messages.success(request, notice)
    return redirect(reverse("presentations:page", args=[competition.slug]) + "#uploads")


def _visible_slides(request, competition_slug, pk) -> Slides:
    slides = get_object_or_404(
        Slides.objects.select_related("window__competition", "window__round", "team"),
        pk=pk,
        window__competition__slug=competition_slug,
    )
    if not selectors.slides_visible_to(user=request.user, slides=slides):
        raise Http404("No such slides.")
    return slides


def slides_pdf(request, competition_slug, pk):
    slides = _visible_slides(request, competition_slug, pk)
    name = f"{slides.window.competition.slug}-{slides.team.slug}-slides-{slides.number}.pdf"
    return private_file_response(slides.file, name, content_type=PDF_CONTENT_TYPE)


def slides_preview(request, competition_slug, pk):
    slides = _visible_slides(request, competition_slug, pk)
    name = f"{slides.team.slug}-slides-{slides.number}.png"
    response = private_file_response(
        slides.preview, name, content_type=PNG_CONTENT_TYPE, as_attachment=False
    )
    response["Cache-Control"] = "private, max-age=3600"
    return response
