"""The site's answer to a request Django refuses before any view could read it (its
``handler400``: a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, more than
``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields, a malformed multipart body such as a part whose
headers — a file name — pass Django's 1,024 bytes). Django's own handler answers a bare
"Bad Request (400)" in English; here an API client (a request under /api/, or one that prefers
``application/json``) gets the API's ``{"code", "message"}`` and a browser a small page, both
in the request's language and saying what to change. The API's exception handler
(``pwscup.core.rest``) answers the same refusals met while DRF parses a body with the same
:func:`bad_request_error`.
"""

from django.conf import settings
from django.core.exceptions import (
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

API_PREFIX = "/api/"  # pwscup/urls.py mounts the API there


def bad_request_error(exception: Exception) -> dict:
    """``{"code", "message"}`` of a request refused while its body was read."""
    if isinstance(exception, RequestDataTooBig):
        return {
            "code": "request_too_large",
            "message": _(
                "The request is too large: this site reads at most %(limit)s of form fields "
                "or JSON in one request (uploaded files are counted apart)."
            )
            % {"limit": filesizeformat(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)},
        }
    if isinstance(exception, TooManyFieldsSent):
        return {
            "code": "too_many_fields",
            "message": _(
                "The form sent more than %(limit)s fields, more than this site reads in one "
                "request. (The round wizard's roles form sends up to three per column: a table "
                "of thousands of columns is too wide for it; import the round in a competition "
                "bundle instead.)"
            )
            % {"limit": number_format(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS, force_grouping=True)},
        }
    if isinstance(exception, TooManyFilesSent):
        return {
            "code": "too_many_files",
            "message": _("The request sent more than %(limit)s files, more than this site reads.")
            % {"limit": number_format(settings.DATA_UPLOAD_MAX_NUMBER_FILES, force_grouping=True)},
        }
    if isinstance(exception, MultiPartParserError):
        return {
            "code": "malformed_upload",
            "message": _(
                "The upload could not be read: the form is malformed, or the file's name is too "
                "long (this site reads names of up to about 900 letters, or 300 Japanese "
                "characters). Rename the file and send it again."
            ),
        }
    return {"code": "bad_request", "message": _("The request could not be read.")}


def wants_json(request) -> bool:
    """An API client: a request under /api/, or one that prefers JSON to a page."""
    return request.path.startswith(API_PREFIX) or (
        request.get_preferred_type(["text/html", "application/json"]) == "application/json"
    )


def bad_request(request, exception: Exception | None = None):
    """``handler400``: the API's error format, or the 400 page (``templates/400.html``)."""
    error = bad_request_error(exception if exception is not None else SuspiciousOperation())
    if wants_json(request):
        return JsonResponse(error, status=400)
    return render(request, "400.html", {"error": error}, status=400)


# Django's own CSRF failure page is unstyled, names DEBUG=True and has no way back.
CSRF_FAILED = gettext_lazy(
    "The form could not be accepted: it was opened before you logged in or out (perhaps in "
    "another tab), or your browser does not send this site's cookies. Nothing was saved. "
    "Reload the page and send the form again."
)


def csrf_failure(request, reason: str = ""):
    """``CSRF_FAILURE_VIEW``: a form posted with a stale or missing CSRF token. The API's
    error format, or the site's 403 page saying what to do, in the request's language."""
    message = str(CSRF_FAILED)
    if wants_json(request):
        return JsonResponse({"code": "csrf_failed", "message": message}, status=403)
    return render(request, "403.html", {"exception": message}, status=403)
