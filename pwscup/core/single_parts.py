"""Each part of an upload once: a request holding two files, or a field the upload reads
twice, is refused with 400 naming the part, before any view keeps anything.

Django's ``QueryDict`` keeps every value of a repeated name and a view reading ``data["file"]``
gets the last one: a request holding two files (or two ``step`` values) would have its first
quietly dropped. An upload is kept as uploaded or refused, never partly. The reader refuses a
repeated file of any name (``DEFAULT_PARSER_CLASSES``; DRF's parser extended through its
public ``parse``); a repeated field is refused only where the view reads it
(``parts_once`` with the upload form's fields): a form field no view reads, sent twice, is
ignored as any unknown field is."""

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import MultiPartParser


def parts_once(values, names) -> None:
    """Raise ``ParseError`` (400) when a name of ``names`` is sent more than once in
    ``values`` (a ``QueryDict``; a JSON body has no repeated names)."""
    if not hasattr(values, "getlist"):
        return
    for name in names:
        if len(values.getlist(name)) > 1:
            raise ParseError(
                _("The request sends %(name)s more than once: send it once.") % {"name": name}
            )


class SinglePartsMultiPartParser(MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        parts_once(parsed.files, list(parsed.files))
        return parsed
