"""The messages of a correspondence table (``answer.*``, :mod:`scoring.correspondence`):
data only, part of the one catalogue of :func:`scoring.messages.render`.

A file with one kind of problem gets that kind's message; a file with several kinds gets
``answer.several``, whose ``problems`` are the ``answer.part_*`` of each kind (each listing
its first lines and their total), so one upload tells everything to fix.
"""

ANSWER_MESSAGES: dict[str, dict[str, str]] = {
    "answer.empty": {
        "en": "The correspondence table is empty; expected {expected} lines (one line per row "
        "of the published table, empty or 0 for no guess).",
        "ja": "対応表が空です。{expected} 行必要です（公開テーブルの各行に 1 行。"
        "推測しない行は空または 0）。",
    },
    "answer.line_count": {
        "en": "The correspondence table has {got} answer lines; expected {expected} "
        "(one line per row of the published table, empty or 0 for no guess).",
        "ja": "対応表の回答行は {got} 行ですが、{expected} 行必要です"
        "（公開テーブルの各行に 1 行。推測しない行は空または 0）。",
    },
    "answer.line_count_after_header": {
        "en": "The correspondence table has {got} answer lines after the header line; "
        "expected {expected} (one line per row of the published table, empty or 0 for "
        "no guess).",
        "ja": "対応表のヘッダー行の後の回答行は {got} 行ですが、{expected} 行必要です"
        "（公開テーブルの各行に 1 行。推測しない行は空または 0）。",
    },
    "answer.fields": {
        "en": "The correspondence table must hold one row number per line; {lines}.",
        "ja": "対応表は 1 行に 1 つの行番号だけを書きます。{lines}。",
    },
    "answer.not_integer": {
        "en": "The correspondence table must hold one integer (a row number) per line; "
        "not an integer at {lines}.",
        "ja": "対応表の各行には整数（行番号）を 1 つ書きます。整数でない行: {lines}。",
    },
    "answer.out_of_range": {
        "en": "Row numbers must be between 1 and {reference_rows} (or empty / 0 for no guess); "
        "out of range at {lines}.",
        "ja": "行番号は 1 から {reference_rows} まで（推測しない行は空または 0）です。"
        "範囲外の行: {lines}。",
    },
    "answer.out_of_range_unbounded": {
        "en": "Row numbers must be positive integers of at most 18 digits (or empty / 0 for no "
        "guess); out of range at {lines}.",
        "ja": "行番号は 18 桁までの正の整数（推測しない行は空または 0）です。範囲外の行: {lines}。",
    },
    "answer.length_mismatch": {
        "en": "The answer has {got} rows but the published table has {expected}.",
        "ja": "回答は {got} 行ですが、公開テーブルは {expected} 行です。",
    },
    "answer.several": {
        "en": "The correspondence table must hold one row number per line (empty or 0 for no "
        "guess); it has several problems: {problems}.",
        "ja": "対応表は 1 行に 1 つの行番号を書きます（推測しない行は空または 0）。"
        "複数の問題があります: {problems}。",
    },
    "answer.part_line_count": {
        "en": "{got} answer lines where {expected} are expected (one per row of the published "
        "table)",
        "ja": "回答行が {got} 行（公開テーブルの各行に 1 行、{expected} 行必要）",
    },
    "answer.part_line_count_after_header": {
        "en": "{got} answer lines after the header line where {expected} are expected (one per "
        "row of the published table)",
        "ja": "ヘッダー行の後の回答行が {got} 行（公開テーブルの各行に 1 行、{expected} 行必要）",
    },
    "answer.part_fields": {
        "en": "more than one field: {lines}",
        "ja": "複数のフィールドがある行: {lines}",
    },
    "answer.part_not_integer": {
        "en": "not an integer at {lines}",
        "ja": "整数でない行: {lines}",
    },
    "answer.part_out_of_range": {
        "en": "out of range (1 to {reference_rows}) at {lines}",
        "ja": "範囲外（1 から {reference_rows} まで）の行: {lines}",
    },
    "answer.part_out_of_range_unbounded": {
        "en": "out of range (a positive integer of at most 18 digits) at {lines}",
        "ja": "範囲外（18 桁までの正の整数）の行: {lines}",
    },
}
