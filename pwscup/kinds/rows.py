"""A kind's own row of a round (one-to-one with ``Round``), as its selectors read it."""

from django.core.exceptions import ObjectDoesNotExist


def kind_row(round_, related_name: str, read):
    """The kind's row of ``round_`` under ``related_name``: the one read with the round when
    the round came with it (``round_access`` reads a counted row with the round and caches
    both under the page generation, ``RoundKind.counted_row``; ``None`` when the round has
    none), else ``read()`` (a read now, as every other caller does)."""
    descriptor = getattr(type(round_), related_name, None)
    if descriptor is not None and descriptor.is_cached(round_):
        try:
            return getattr(round_, related_name)
        except ObjectDoesNotExist:
            return None
    return read()


def kind_row_with_round(round_, model, related_name: str):
    """``kind_row`` of a kind whose row (``model``, one-to-one with the round under
    ``related_name``) is read with its round: ``None`` when the round has none."""
    return kind_row(
        round_,
        related_name,
        lambda: model.objects.filter(round=round_).select_related("round").first(),
    )
