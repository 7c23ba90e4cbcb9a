"""The console's bundle pages (thin: forms in, services out) and the published schema."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from pwscup.bundles import selectors, services
from pwscup.bundles.forms import CloneForm, ImportForm
from pwscup.bundles.manifest import schema_text
from pwscup.competitions.selectors import console_competition, may_create_competitions
from pwscup.core.form_fields import digits_value, form_saved
from pwscup.kinds.bundles import EMPTY_PHASE_LENGTH

# What a form's other fields may add to the upload's body.
FORM_OVERHEAD_BYTES = 64 * 1024
# What the import and clone pages say of a phase closed before it opened.
SCHEDULE_NOTE = {"empty_phase_days": EMPTY_PHASE_LENGTH.days}


@cache_control(public=True, max_age=3600)
def manifest_schema(request):
    """The manifest's JSON Schema (draft 2020-12), as the import checks it."""
    return HttpResponse(schema_text(), content_type="application/schema+json; charset=utf-8")


@login_required
def bundle_export(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    try:
        data = services.competition_export(
            competition=competition,
            user=request.user,
            include_hidden=request.GET.get("include_hidden") == "1",
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("console:competition", competition.slug)
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}-bundle.zip"'
    return response


@login_required
def competition_clone(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    if not selectors.may_clone(user=request.user, competition=competition):
        raise PermissionDenied
    form = CloneForm(
        request.POST or None, initial={"name": competition.name}, competition=competition
    )
    saved = form_saved(
        request,
        form,
        lambda data: services.competition_clone(
            competition=competition, user=request.user, **form.new_competition()
        ),
    )
    if saved:
        messages.success(request, _("Competition cloned: you organize the copy."))
        return redirect("console:competition", saved.value.slug)
    return render(
        request, "bundles/clone.html", {"competition": competition, "form": form, **SCHEDULE_NOTE}
    )


class _BundleSizeHandler(FileUploadHandler):
    """Skips (reads and drops) an upload past the bundle limit instead of keeping it in a
    temporary file; the view then says why."""

    def receive_data_chunk(self, raw_data, start):
        if start + len(raw_data) > settings.PWSCUP_BUNDLE_MAX_UPLOAD_BYTES:
            self.request.bundle_too_large = True
            raise SkipFile
        return raw_data

    def file_complete(self, file_size):
        return None


def _too_large_message() -> str:
    return _("The bundle is larger than the limit of %(limit)s.") % {
        "limit": filesizeformat(settings.PWSCUP_BUNDLE_MAX_UPLOAD_BYTES)
    }


# The upload handlers are set before the body is read, which the CSRF check would do
# first: CSRF is checked inside, once they are in place (Django's documented pattern).
@csrf_exempt
@login_required
def competition_import(request):
    if not may_create_competitions(user=request.user):
        raise PermissionDenied
    length = digits_value(request.META.get("CONTENT_LENGTH") or "0", most=10**18)
    too_large = (
        request.method == "POST"
        and length is not None
        and length > settings.PWSCUP_BUNDLE_MAX_UPLOAD_BYTES + FORM_OVERHEAD_BYTES
    )
    if too_large:
        # Not read at all: the form is shown again, empty, with the reason.
        return render(
            request,
            "bundles/import.html",
            {"form": ImportForm(), "refusal": _too_large_message(), **SCHEDULE_NOTE},
            status=413,
        )
    request.upload_handlers.insert(0, _BundleSizeHandler(request))
    return _competition_import(request)


@csrf_protect
def _competition_import(request):
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and getattr(request, "bundle_too_large", False):
        form.add_error(None, _too_large_message())
    elif saved := form_saved(
        request,
        form,
        lambda data: services.competition_import(
            bundle_file=data["bundle"], user=request.user, **form.new_competition()
        ),
    ):
        messages.success(request, _("Competition imported: you organize it."))
        return redirect("console:competition", saved.value.slug)
    return render(request, "bundles/import.html", {"form": form, **SCHEDULE_NOTE})
