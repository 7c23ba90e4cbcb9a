"""Which of a pair of texts, English and Japanese, a reader is shown: the one rule for every
label an organizer gives in both languages (score columns, data packs, award names)."""

from django.utils.translation import get_language


def reads_japanese() -> bool:
    """The active language is Japanese (``ja``, or a regional ``ja-…``)."""
    return (get_language() or "").split("-")[0] == "ja"


def sentence_gap() -> str:
    """What stands between two sentences of a text or a page: a space in English, nothing in
    Japanese, where "。" ends a sentence and the next one follows it directly."""
    return "" if reads_japanese() else " "


def sentences(parts) -> str:
    """Sentences (the non-empty ones) one after another, as the active language writes
    them (``sentence_gap``).

    >>> from django.utils import translation
    >>> with translation.override("ja"):
    ...     sentences(["閉じました。", "", "公開しました。"])
    '閉じました。公開しました。'
    >>> sentences(["Closed.", "Published."])
    'Closed. Published.'
    """
    return sentence_gap().join(str(part) for part in parts if part)


def in_reader_language(english: str, japanese: str) -> str:
    """The Japanese text for a Japanese reader, else the English one; the other one when
    that one is empty.

    >>> from django.utils import translation
    >>> with translation.override("ja"):
    ...     in_reader_language("Utility", "有用性"), in_reader_language("Utility", "")
    ('有用性', 'Utility')
    >>> with translation.override("en"):
    ...     in_reader_language("", "有用性")
    '有用性'
    """
    first, other = (japanese, english) if reads_japanese() else (english, japanese)
    return first or other
