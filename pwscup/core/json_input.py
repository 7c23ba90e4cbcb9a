"""JSON typed or uploaded by people, read by the one bounded parser of ``scoring``.

Every configuration field (round configuration, utility gates, DP and sequential
configurations, uploaded configuration files, the admin's JSON fields) and the API's JSON
bodies go through :func:`scoring.bounded_json.loads_bounded`: size, nesting depth and
number literals are bounded, and a refusal is a message in the reader's language.
"""

import json

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from scoring.bounded_json import loads_bounded
from scoring.errors import ConfigError


def json_input(text, *, field: str | None = None):
    """The parsed JSON text, or a ``ValidationError`` (keyed by ``field`` when given)."""
    try:
        return loads_bounded(text)
    except ConfigError as error:
        message = error.render(get_language())
        raise ValidationError({field: message} if field else message) from None


class BoundedJSONDecoder(json.JSONDecoder):
    """A ``json.JSONDecoder`` for Django's ``forms.JSONField``: its ``bound_data`` (the
    text shown again after an error) then never recurses on hostile text either."""

    def decode(self, s, *args, **kwargs):
        try:
            return loads_bounded(s)
        except ConfigError as error:
            raise json.JSONDecodeError(str(error), s, 0) from None


class BoundedJSONFormField(forms.JSONField):
    """Django's ``forms.JSONField`` reading its text with the bounded parser (admin forms)."""

    def __init__(self, **kwargs):
        kwargs["decoder"] = BoundedJSONDecoder
        super().__init__(**kwargs)

    def to_python(self, value):
        if self.disabled or value in self.empty_values or not isinstance(value, str):
            return super().to_python(value)
        return json_input(value)


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with the bounded reader: a hostile body is a 400, never a 500."""

    def parse(self, stream, media_type=None, parser_context=None):
        data = stream.read() if stream is not None else b""
        try:
            return loads_bounded(data)
        except ConfigError as error:
            raise ParseError(error.render(get_language())) from None
