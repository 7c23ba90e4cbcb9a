"""The API's multipart reader, refusing a part sent twice (``DEFAULT_PARSER_CLASSES``).

Django's ``QueryDict`` keeps every value of a repeated name and a view reading ``data["file"]``
gets the last one: a request holding two files (or two ``step`` values) would have its first
quietly dropped. An upload is kept as uploaded or refused, never partly: such a request is
refused with 400, naming the part, before any view reads it. DRF's parser is extended, not
replaced, through its public ``parse``."""

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import MultiPartParser


class SinglePartsMultiPartParser(MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        for values in (parsed.data, parsed.files):
            for name in values:
                if len(values.getlist(name)) > 1:
                    raise ParseError(
                        _("The request sends %(name)s more than once: send it once.")
                        % {"name": name}
                    )
        return parsed
