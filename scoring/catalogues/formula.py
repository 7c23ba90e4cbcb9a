"""A round total's formula message codes (``formula.*``, :mod:`scoring.formula`): data only.

Part of the one catalogue of :func:`scoring.messages.render`. ``detail`` and ``name`` are
echoed from the organizer's own formula (already clipped); ``column`` is the 1-based
character where reading stopped and ``near`` the quoted text around it.
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
    "formula.syntax_at": {
        "en": "The formula cannot be read at character {column} (near {near}): check the "
        "operator or name there.",
        "ja": "式の {column} 文字目（{near} の辺り）を読み取れません。その位置の演算子や名前を"
        "確かめてください。",
    },
    "formula.syntax_end": {
        "en": "The formula ends before it is complete (near {near}): a number, a name or a "
        "closing bracket is missing at the end.",
        "ja": "式が途中で終わっています（{near} の辺り）。末尾に数値、名前または閉じ括弧が"
        "足りません。",
    },
    "formula.bracket_unclosed": {
        "en": "The bracket at character {column} is never closed (near {near}).",
        "ja": "式の {column} 文字目の括弧が閉じられていません（{near} の辺り）。",
    },
    "formula.bracket_unmatched": {
        "en": "The closing bracket at character {column} has no opening bracket (near {near}).",
        "ja": "式の {column} 文字目の閉じ括弧に対応する開き括弧がありません（{near} の辺り）。",
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
