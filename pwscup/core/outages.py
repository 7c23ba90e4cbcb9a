"""An outage — the database, or the cache's Redis, unreachable — answers 503, never 500.

Pages get ``templates/503.html`` and the API (everything under /api/) its ``{code, message}``
JSON with the code ``unavailable``; both in the reader's language and with ``Retry-After``.
This module owns the rule: the site's ``handler500`` (pwscup/urls.py) and the API's exception
handler (pwscup/core/rest.py) both ask it. Nothing here reads the database: the language is
chosen as LocaleMiddleware chooses it (language cookie, Accept-Language, LANGUAGE_CODE; the
session, which lives in the database, plays no part in it), and the page is rendered from a
plain template with no request context (no context processor, so no query).
"""

import sys

import redis
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template import loader
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.translation import gettext as _
from django.views import defaults
from django_redis.exceptions import ConnectionInterrupted

# The database (connection refused or timed out, the server gone, a SQLite lock held too long)
# and Redis unreachable when that reaches a view as an exception (the default cache ignores
# it; a direct client, or django-redis without IGNORE_EXCEPTIONS, does not). A programming
# error (ProgrammingError, IntegrityError, a Redis command refused) is not an outage: it
# stays a 500.
REDIS_UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
OUTAGE_ERRORS = (OperationalError, InterfaceError, *REDIS_UNREACHABLE)
# Seconds a browser or script should wait before trying again.
RETRY_AFTER_SECONDS = 30
API_NAMESPACE = "api"


def is_outage(exc: BaseException | None) -> bool:
    """``exc`` says a service the site needs is unreachable, not that the code is wrong."""
    if isinstance(exc, ConnectionInterrupted):  # django-redis's wrapper of the Redis error
        return isinstance(exc.__cause__, REDIS_UNREACHABLE)
    return isinstance(exc, OUTAGE_ERRORS)


def outage_message() -> str:
    """What the reader is told, in the active language."""
    return _(
        "The site is temporarily unavailable. Please try again in a minute; "
        "if you were uploading a file, upload it again."
    )


def outage_api_body() -> dict:
    """The API's error body for an outage."""
    return {"code": "unavailable", "message": outage_message()}


def outage_headers() -> dict:
    return {"Retry-After": str(RETRY_AFTER_SECONDS)}


def _is_api(request) -> bool:
    try:
        return API_NAMESPACE in resolve(request.path_info).namespaces
    except Resolver404:
        return False


def outage_response(request) -> HttpResponse:
    """The 503 answer to ``request``: JSON under /api/, else the 503 page."""
    language = translation.get_language_from_request(request)
    with translation.override(language):
        if _is_api(request):
            response = JsonResponse(outage_api_body(), status=503)
        else:
            page = loader.get_template("503.html").render(
                {"LANGUAGE_CODE": language, "message": outage_message()}
            )
            response = HttpResponse(page, status=503)
    for name, value in outage_headers().items():
        response[name] = value
    response["Content-Language"] = language
    # Kept by no cache: the next request may well be answered; its language depends on these.
    add_never_cache_headers(response)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def server_error(request, template_name=defaults.ERROR_500_TEMPLATE_NAME):
    """``handler500``: an outage's 503, or Django's own 500 page for any other error.

    Django calls it while handling the exception (django.core.handlers.exception), so the
    exception is the one ``sys.exc_info()`` holds, as Django's own debug page reads it; and
    Django logs the answer with the exception's traceback either way.
    """
    if is_outage(sys.exc_info()[1]):
        return outage_response(request)
    return defaults.server_error(request, template_name)
