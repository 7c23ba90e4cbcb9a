"""A round total's formula message codes (``formula.*``, :mod:`scoring.formula`): data only.

Part of the one catalogue of :func:`scoring.messages.render`. ``detail`` and ``name`` are
echoed from the organizer's own formula (already clipped).
"""

FORMULA_MESSAGES: dict[str, dict[str, str]] = {
    "formula.empty": {
        "en": "The formula is empty.",
        "ja": "式が空です。",
    },
    "formula.too_long": {
        "en": "The formula is longer than {limit} characters.",
        "ja": "式が {limit} 文字を超えています。",
    },
    "formula.syntax": {
        "en": "The formula cannot be read: {detail}.",
        "ja": "式を読み取れません: {detail}。",
    },
    "formula.not_allowed": {
        "en": "The formula uses {what}, which is not allowed: only numbers, the round's score "
        "names, + - * / **, comparisons, and/or/not, x if c else y, min, max and abs.",
        "ja": "式に使えない {what} が含まれています。使えるのは数値、ラウンドのスコア名、"
        "+ - * / **、比較、and/or/not、x if c else y、min・max・abs だけです。",
    },
    "formula.unknown_name": {
        "en": "The formula names {name}, which is not a score of the round (its scores: {known}).",
        "ja": "式の {name} はラウンドのスコアではありません（ラウンドのスコア: {known}）。",
    },
    "formula.power_too_large": {
        "en": "The formula raises a number to a power larger than {limit}.",
        "ja": "式のべき指数が {limit} を超えています。",
    },
    "formula.division_by_zero": {
        "en": "The formula divides by zero ({detail}).",
        "ja": "式がゼロで割っています（{detail}）。",
    },
    "formula.not_finite": {
        "en": "The formula's result is not a finite number ({detail}).",
        "ja": "式の結果が有限の数ではありません（{detail}）。",
    },
}
