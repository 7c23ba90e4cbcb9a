"""Every API error is ``{"code": ..., "message": ...}``: a stable code for scripts and a
message in the caller's language (Accept-Language ja/en), e.g.
``{"code": "quota_exceeded", "message": "Your team has used its 3 submissions for today; …"}``.
A refused upload keeps the service's own message and status (403/413/429), as in the browser;
a daily quota's 429 also says when it resets: ``Retry-After`` (seconds) and ``retry_after``,
``resets_at`` (ISO time) in the body. A spent total quota is ``quota_exhausted``, no retry.
A request over the rate is ``throttled`` (429, ``Retry-After``), its wait in the message; a
thing not found is ``not_found``, Django's untranslated default text replaced by "Not found.".
"""

import logging
import re

from django.core.exceptions import SuspiciousOperation
from django.http import Http404
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import exceptions, serializers
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from pwscup.core.error_views import bad_request_error
from pwscup.core.errors import Refused
from pwscup.core.outages import is_outage, outage_api_body, outage_headers

logger = logging.getLogger(__name__)

# ``Refused`` carries an HTTP status; its code says which kind of refusal it is.
REFUSED_CODES = {
    400: "refused",
    403: "forbidden",
    404: "not_found",
    413: "too_large",
    429: "quota_exceeded",
}


@extend_schema_serializer(description=gettext_lazy("The body of every error answer."))
class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(
        help_text=gettext_lazy("Stable, e.g. not_found, quota_exceeded, throttled.")
    )
    message = serializers.CharField(help_text=gettext_lazy("Translated (Accept-Language)."))
    retry_after = serializers.IntegerField(
        required=False,
        help_text=gettext_lazy("Seconds until a daily quota resets (also Retry-After)."),
    )
    resets_at = serializers.DateTimeField(
        required=False, help_text=gettext_lazy("When a daily quota resets.")
    )
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text=gettext_lazy("Per field messages of an invalid request."),
    )


def _first_code(codes) -> str:
    if isinstance(codes, dict):
        for value in codes.values():
            return _first_code(value)
    if isinstance(codes, list):
        return _first_code(codes[0]) if codes else "invalid"
    return str(codes)


def _validation_body(exc: exceptions.ValidationError) -> dict:
    detail = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    fields = {
        name: [str(m) for m in (messages if isinstance(messages, list) else [messages])]
        for name, messages in detail.items()
    }
    message = " ".join(
        f"{name}: {m}" if name != "non_field_errors" else m
        for name, messages in fields.items()
        for m in messages
    )
    return {"code": "invalid", "message": message, "fields": fields}


# The text of Django's ``get_object_or_404`` (``"No Round matches the given query."``): English
# whatever the language, and naming a model. The API answers its own "Not found." instead.
DJANGO_NO_MATCH = re.compile(r"No \w+ matches the given query\.")


def _not_found(exc) -> bool:
    """Whether ``exc`` is Django's 404 without a message of ours: none, or the English text
    of ``get_object_or_404``. A message of ours (translated) is the answer's."""
    if not isinstance(exc, Http404):
        return False
    return not exc.args or bool(DJANGO_NO_MATCH.fullmatch(str(exc.args[0])))


def _throttled_message(exc: exceptions.Throttled) -> str:
    """A request rate exceeded, in the reader's language, with the wait in seconds (DRF's
    wait sentence is English: it formats its text before translating it)."""
    if exc.wait is None:
        return _("Too many requests; try again later.")
    wait = int(exc.wait)
    return ngettext(
        "Too many requests; try again in %(wait)d second.",
        "Too many requests; try again in %(wait)d seconds.",
        wait,
    ) % {"wait": wait}


def _media_message(context) -> str:
    """A body of a type the view does not read (JSON to an upload address): which types it
    reads, from its parsers, in the reader's language (DRF's text says only what is not)."""
    accepted = " / ".join(parser.media_type for parser in context["view"].get_parsers())
    return _('This address does not read a "%(given)s" body: send %(accepted)s.') % {
        "given": context["request"].content_type,
        "accepted": accepted,
    }


def exception_handler(exc, context):
    if isinstance(exc, Refused):
        headers, retry = exc.retry_details()
        code = exc.code or REFUSED_CODES.get(exc.status, "refused")
        return Response(
            {"code": code, "message": exc.message, **retry}, status=exc.status, headers=headers
        )
    if is_outage(exc):  # the database or the cache unreachable: 503, never a 500
        logger.error("API outage", exc_info=exc)
        return Response(outage_api_body(), status=503, headers=outage_headers())
    # A body Django refuses to read (too large, too many fields, a malformed multipart form),
    # met when the view reads ``request.data``: the answer of the site's ``handler400``. DRF's
    # multipart parser raises its ParseError from Django's MultiPartParserError.
    if isinstance(exc, exceptions.ParseError) and isinstance(exc.__context__, MultiPartParserError):
        exc = exc.__context__
    if isinstance(exc, (SuspiciousOperation, MultiPartParserError)):
        return Response(bad_request_error(exc), status=400)
    if _not_found(exc):
        exc = NotFound()  # "Not found.", translated
    response = drf_exception_handler(exc, context)
    if response is None:
        logger.exception("API error", exc_info=exc)
        return Response(
            {"code": "server_error", "message": _("The server failed; try again later.")},
            status=500,
        )
    if isinstance(exc, exceptions.ValidationError):
        response.data = _validation_body(exc)
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        response.data = {"code": "unsupported_media_type", "message": _media_message(context)}
    elif isinstance(exc, exceptions.Throttled):  # Retry-After: DRF's, from ``exc.wait``
        response.data = {"code": "throttled", "message": _throttled_message(exc)}
    elif isinstance(exc, exceptions.APIException):
        response.data = {"code": _first_code(exc.get_codes()), "message": str(exc.detail)}
    else:  # Http404 / PermissionDenied of Django, turned into DRF's by the default handler
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        code = "not_found" if response.status_code == 404 else "permission_denied"
        response.data = {"code": code, "message": str(detail)}
    return response


@extend_schema_serializer(description=gettext_lazy("A team as every endpoint names it."))
class TeamRefSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()


class RoundRefSerializer(serializers.Serializer):
    # A round as the round endpoints begin their answer: its competition's address, its own,
    # its name and its kind. (A comment, not a docstring: the schema would give it as the
    # description of every serializer made from it.)

    competition = serializers.CharField()
    slug = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField()


def errors(*codes: int) -> dict:
    """The error answers of an endpoint, for the schema."""
    return {code: OpenApiResponse(ErrorSerializer) for code in codes}


CSV_FILE = OpenApiResponse(OpenApiTypes.BINARY, description=gettext_lazy("The CSV file as stored."))


@extend_schema_field({"type": "string", "format": "binary", "minLength": 1})
class UploadField(serializers.FileField):
    """The multipart file of every upload endpoint. DRF refuses an empty file (400
    ``invalid``: *The submitted file is empty.*), so the schema says it: at least one byte."""


class BodyRequiredSchema(AutoSchema):
    """The schema of a view that refuses a request without a body, when its body is one of
    several shapes (a file, or one of a ``PolymorphicProxySerializer``'s objects):
    drf-spectacular marks a body required only when one serializer has required fields."""

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation and "requestBody" in operation:
            operation["requestBody"]["required"] = True
        return operation


# Where every round-scoped endpoint lives under /api/ (a kind's ``api_url_patterns``).
ROUND_PREFIX = "v1/competitions/<str:competition_slug>/rounds/<str:round_slug>/"


@extend_schema(exclude=True)
@api_view(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
def not_found(request, *args, **kwargs):
    raise NotFound
