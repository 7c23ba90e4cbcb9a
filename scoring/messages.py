"""Participant-facing messages of the scoring library, in English and Japanese.

A :class:`scoring.errors.ScoringError` carries a ``code`` and JSON-serialisable
``params``; :func:`render` turns them into text in one language. The platform stores
the code and parameters of a failed job and renders them in each reader's language;
the command line renders them in the language of ``--lang`` or ``LANG``.

Parameter values are plain text and numbers, or two structured kinds:

* a *listing* ``{"listing": KIND, "items": [[n, detail], ...], "total": N}`` — the first
  offending rows or lines (at most ten) and always their total, e.g.
  ``row 3 ('x'), row 9 ('y') (2 rows in total)``;
* a *nested message* ``{"code": CODE, "params": {...}}``, or a list of them (joined).

Echoed cell values are clipped to :data:`ECHO_LIMIT` characters when the error is
made (:func:`clip`), so a 10 MB cell never travels further than the message.

Examples
--------
>>> render("submission.row_count", {"got": 3, "expected": 4}, "ja")
'提出ファイルのデータ行は 3 行ですが、4 行必要です（元のテーブルの各行に 1 行ずつ。削除した行は空のセルだけの行として残します）。'
>>> listing = {"listing": "lines_values", "items": [[2, "x"]], "total": 1}
>>> render("answer.not_integer", {"lines": listing}, "en")
"The correspondence table must hold one integer (a row number) per line; not an integer at line 2 ('x') (1 line in total)."
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

LANGUAGES = ("en", "ja")
ECHO_LIMIT = 80
MAX_LISTED = 10
ELLIPSIS = "…"

_ROWS_NOTE = {
    "en": "Rows are numbered from 1 after the header line.",
    "ja": "行番号はヘッダー行の次の行を 1 とします。",
}

# How to fix a file in another encoding (Excel's own name of the format in each language).
_SAVE_UTF8 = {
    "en": "Save it as UTF-8 (in Excel: Save As, \"CSV UTF-8 (Comma delimited)\") and upload "
    "it again.",
    "ja": "UTF-8 で保存し直して（Excel では「名前を付けて保存」で「CSV UTF-8（コンマ区切り）」）、"
    "もう一度アップロードしてください。",
}

# code -> {language: template}; placeholders are str.format fields of ``params``.
MESSAGES: dict[str, dict[str, str]] = {
    "table.unreadable": {
        "en": "{name}: cannot read the file ({reason}).",
        "ja": "{name}: ファイルを読めません（{reason}）。",
    },
    "table.empty": {
        "en": "{name} is empty: expected a CSV file with a header line.",
        "ja": "{name} が空です。ヘッダー行のある CSV ファイルが必要です。",
    },
    "table.binary": {
        "en": "{name} is a binary file, not CSV text (it contains NUL bytes). "
        "Upload a CSV file encoded in UTF-8 or Shift-JIS (CP932).",
        "ja": "{name} は CSV テキストではなくバイナリファイルです（NUL バイトを含みます）。"
        "UTF-8 または Shift-JIS (CP932) の CSV ファイルをアップロードしてください。",
    },
    "table.encoding": {
        "en": "{name} is not UTF-8 (it looks like {encoding}): the first byte that is not "
        "UTF-8 is on line {line} of the file (byte offset {offset}). " + _SAVE_UTF8["en"],
        "ja": "{name} は UTF-8 ではありません（{encoding} のようです）。UTF-8 でない最初のバイトは"
        "ファイルの {line} 行目（バイト位置 {offset}）にあります。" + _SAVE_UTF8["ja"],
    },
    "table.encoding_unsure": {
        "en": "{name} is not UTF-8, and its encoding cannot be told for sure (it may be "
        "{encoding}): the first byte that is not UTF-8 is on line {line} of the file "
        "(byte offset {offset}). " + _SAVE_UTF8["en"],
        "ja": "{name} は UTF-8 ではなく、文字コードを確定できません（{encoding} かもしれません）。"
        "UTF-8 でない最初のバイトはファイルの {line} 行目（バイト位置 {offset}）にあります。"
        + _SAVE_UTF8["ja"],
    },
    "table.encoding_unknown": {
        "en": "{name} is not UTF-8, nor in an encoding the platform recognises: the first byte "
        "that is not UTF-8 is on line {line} of the file (byte offset {offset}). "
        + _SAVE_UTF8["en"],
        "ja": "{name} は UTF-8 ではなく、認識できる文字コードでもありません。UTF-8 でない最初の"
        "バイトはファイルの {line} 行目（バイト位置 {offset}）にあります。" + _SAVE_UTF8["ja"],
    },
    "table.encoding_damaged": {
        "en": "{name} is mostly UTF-8 but holds bytes that are not (text pasted from a file in "
        "another encoding?): the first is on line {line} of the file (byte offset {offset}). "
        + _SAVE_UTF8["en"],
        "ja": "{name} はほぼ UTF-8 ですが、UTF-8 でないバイトを含みます（別の文字コードのファイル"
        "から貼り付けた文字？）。最初のものはファイルの {line} 行目（バイト位置 {offset}）に"
        "あります。" + _SAVE_UTF8["ja"],
    },
    "table.duplicate_columns": {
        "en": "{name}: duplicate column name(s) in the header: {columns}.",
        "ja": "{name}: ヘッダーに重複した列名があります: {columns}。",
    },
    "table.ragged": {
        "en": "{name}: wrong number of fields (the header has {width}): {rows}. "
        + _ROWS_NOTE["en"],
        "ja": "{name}: フィールド数が違います（ヘッダーは {width} 個）: {rows}。"
        + _ROWS_NOTE["ja"],
    },
    "table.unparsable": {
        "en": "{name} is not a readable CSV table: {detail}",
        "ja": "{name} は読み取れる CSV 表ではありません: {detail}",
    },
    "header.mismatch": {
        "en": "The header of the {what} differs from the original: {problems}. "
        "Expected header: {expected}.",
        "ja": "{what}のヘッダーが元のテーブルと異なります: {problems}。正しいヘッダー: {expected}。",
    },
    "header.missing": {
        "en": "missing column(s): {columns}",
        "ja": "足りない列: {columns}",
    },
    "header.unexpected": {
        "en": "unexpected column(s): {columns}",
        "ja": "余分な列: {columns}",
    },
    "header.misordered": {
        "en": "misordered column(s): {columns}",
        "ja": "順序の違う列: {columns}",
    },
    "original.no_rows": {
        "en": "The original table has no data rows.",
        "ja": "元のテーブルにデータ行がありません。",
    },
    "original.empty_cells": {
        "en": "The original table has empty cells at {rows}. " + _ROWS_NOTE["en"],
        "ja": "元のテーブルに空のセルがあります: {rows}。" + _ROWS_NOTE["ja"],
    },
    "column.not_number": {
        "en": "Column {column} of the {what} must hold finite numbers; not a finite number at "
        "{rows}. " + _ROWS_NOTE["en"],
        "ja": "{what}の列 {column} には有限の数値が必要です。数値でないセル: {rows}。"
        + _ROWS_NOTE["ja"],
    },
    "submission.row_count": {
        "en": "The submission has {got} data rows; expected {expected} (one per row of the "
        "original table; a deleted row stays as a row of empty cells).",
        "ja": "提出ファイルのデータ行は {got} 行ですが、{expected} 行必要です（元のテーブルの各行に"
        " 1 行ずつ。削除した行は空のセルだけの行として残します）。",
    },
    "submission.all_deleted": {
        "en": "Every row of the submission is deleted (all cells empty); keep at least one row.",
        "ja": "提出ファイルのすべての行が削除されています（全セルが空）。少なくとも 1 行は残してください。",
    },
    "submission.empty_cells": {
        "en": "Empty cells in rows that are not deleted (a deleted row has every cell empty; "
        "a kept row has none): {rows}. " + _ROWS_NOTE["en"],
        "ja": "削除されていない行に空のセルがあります（削除する行はすべてのセルを空にし、"
        "残す行には空のセルを置きません）: {rows}。" + _ROWS_NOTE["ja"],
    },
    "submission.outside_domain": {
        "en": "Column {column} holds values that do not occur in that column of the original "
        "table: {rows}. " + _ROWS_NOTE["en"],
        "ja": "列 {column} に元のテーブルのその列にない値があります: {rows}。" + _ROWS_NOTE["ja"],
    },
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
    "answer.length_mismatch": {
        "en": "The answer has {got} rows but the published table has {expected}.",
        "ja": "回答は {got} 行ですが、公開テーブルは {expected} 行です。",
    },
    "truth.header": {
        "en": "The truth file must have the single header 'row'.",
        "ja": "正解ファイルのヘッダーは 'row' の 1 列だけです。",
    },
    "truth.values": {
        "en": "The truth file must hold one non-negative integer per line.",
        "ja": "正解ファイルの各行には 0 以上の整数を 1 つ書きます。",
    },
    "attack.truth_length": {
        "en": "truth has {got} entries but the released table has {expected} rows.",
        "ja": "正解は {got} 件ですが、公開テーブルは {expected} 行です。",
    },
    "attack.truth_range": {
        "en": "truth holds row numbers outside 0..{reference_rows}.",
        "ja": "正解に 0..{reference_rows} の範囲外の行番号があります。",
    },
    "config.missing_key": {
        "en": 'Missing configuration key "{key}".',
        "ja": '設定キー "{key}" がありません。',
    },
    "config.not_column_list": {
        "en": '"{key}" must be a list of column names.',
        "ja": '"{key}" は列名のリストにしてください。',
    },
    "config.no_column": {
        "en": '"{key}" must name at least one column.',
        "ja": '"{key}" には少なくとも 1 列を指定してください。',
    },
    "config.duplicate_columns": {
        "en": '"{key}" names a column more than once: {columns}.',
        "ja": '"{key}" に同じ列が 2 回以上あります: {columns}。',
    },
    "config.unknown_columns": {
        "en": '"{key}" names column(s) not in the original table: {columns}.',
        "ja": '"{key}" に元のテーブルにない列があります: {columns}。',
    },
    "config.not_column_name": {
        "en": '"{key}" must be a column name (a string).',
        "ja": '"{key}" は列名（文字列）にしてください。',
    },
    "config.not_in_role": {
        "en": '"{key}" must be one of the "{role}" columns, got {value!r}.',
        "ja": '"{key}" は "{role}" の列から選んでください（指定された値: {value!r}）。',
    },
    "config.not_subset": {
        "en": '"{key}" must be a subset of "{role}"; not in it: {columns}.',
        "ja": '"{key}" は "{role}" の列の中から選んでください。含まれない列: {columns}。',
    },
    "config.not_numeric": {
        "en": '"{key}": column {column!r} is not numeric in the original table: row {row} '
        "holds {value!r} ({total} non-numeric rows in total).",
        "ja": '"{key}": 列 {column!r} は元のテーブルで数値ではありません。{row} 行目の値は '
        "{value!r} です（数値でない行は計 {total} 行）。",
    },
    "config.overlap": {
        "en": '"qi" and "sa" overlap: {columns}.',
        "ja": '"qi" と "sa" に同じ列があります: {columns}。',
    },
    "json.too_large": {
        "en": "The JSON text is {size} bytes; at most {limit} bytes are allowed.",
        "ja": "JSON テキストが {size} バイトあります。{limit} バイトまでにしてください。",
    },
    "json.too_deep": {
        "en": "The JSON text is nested {depth} levels deep; at most {limit} levels are allowed.",
        "ja": "JSON テキストの入れ子が {depth} 段あります。{limit} 段までにしてください。",
    },
    "json.number_too_long": {
        "en": "The JSON text holds a number literal of {length} characters ({value!r}); "
        "at most {limit} characters are allowed.",
        "ja": "JSON テキストに {length} 文字の数値 ({value!r}) があります。"
        "数値は {limit} 文字までにしてください。",
    },
    "json.integer_too_large": {
        "en": "The JSON text holds the integer {value}, larger than {limit} in magnitude.",
        "ja": "JSON テキストの整数 {value} は大きすぎます（絶対値 {limit} まで）。",
    },
    "json.not_finite": {
        "en": "The JSON text holds {value!r}, which is not a finite number.",
        "ja": "JSON テキストの {value!r} は有限の数値ではありません。",
    },
    "json.not_text": {
        "en": "The JSON file is not UTF-8 text (undecodable byte at offset {offset}).",
        "ja": "JSON ファイルが UTF-8 テキストではありません（バイト位置 {offset} に解読できないバイト）。",
    },
    "json.invalid": {
        "en": "Not valid JSON: the syntax breaks at line {line}, column {column}.",
        "ja": "正しい JSON ではありません: {line} 行 {column} 列目で構文が崩れています。",
    },
    "attack.sa_not_number": {
        "en": "The {what} has non-numeric sa values (row {row}).",
        "ja": "{what}の sa 列に数値でない値があります（{row} 行目）。",
    },
}

# Descriptions of tables passed as ``name``/``what``; a file name stays as it is.
TERMS: dict[str, dict[str, str]] = {
    "the original table": {"ja": "元のテーブル"},
    "original table": {"ja": "元のテーブル"},
    "the anonymized table": {"ja": "匿名加工テーブル"},
    "submission": {"ja": "提出ファイル"},
    "the correspondence table": {"ja": "対応表"},
    "the answer": {"ja": "回答"},
    "the truth file": {"ja": "正解ファイル"},
    "reference table": {"ja": "参照テーブル"},
    "released table": {"ja": "公開テーブル"},
}

# Listing kinds: how one item ``[n, detail]`` reads, and the unit of the total.
_ITEMS = {
    "rows": {"en": "row {n}", "ja": "{n} 行目"},
    "rows_values": {"en": "row {n} ({detail})", "ja": "{n} 行目 ({detail})"},
    "rows_fields": {"en": "row {n} has {detail}", "ja": "{n} 行目のフィールド数 {detail}"},
    "lines_values": {"en": "line {n} ({detail})", "ja": "{n} 行目 ({detail})"},
    "lines_fields": {
        "en": "line {n} has {detail} ({value})",
        "ja": "{n} 行目のフィールド数 {detail} ({value})",
    },
}
_TOTALS = {
    "rows": {
        "en": ("({total} row in total)", "({total} rows in total)"),
        "ja": "（計 {total} 行）",
    },
    "lines": {
        "en": ("({total} line in total)", "({total} lines in total)"),
        "ja": "（計 {total} 行）",
    },
}
_SEPARATORS = {"en": ", ", "ja": "、"}
_PART_SEPARATORS = {"en": "; ", "ja": "；"}


def clip(value: Any, limit: int = ECHO_LIMIT) -> str:
    """A cell value as text of at most ``limit`` characters (an ellipsis marks a cut).

    Examples
    --------
    >>> clip("abc"), len(clip("x" * 10_000_000))
    ('abc', 80)
    """
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def quoted(values: Iterable[Any]) -> str:
    """Clipped values, each quoted, joined by commas: ``'a', 'b'``."""
    return ", ".join(repr(clip(value)) for value in values)


def listing(kind: str, numbers: Sequence[int], details: Sequence[Any] | None = None, **extra):
    """A listing parameter: the first ten ``numbers`` (1-based) with details, and the total.

    ``details`` are already clipped text (or counts) for the first ten numbers; ``extra``
    holds per-item lists of further fields (e.g. ``value`` for ``lines_fields``).
    """
    numbers = [int(n) for n in numbers]
    shown = numbers[:MAX_LISTED]
    items = []
    for k, n in enumerate(shown):
        item: list[Any] = [n, None if details is None else details[k]]
        if extra:
            item.append({key: values[k] for key, values in extra.items()})
        items.append(item)
    return {"listing": kind, "items": items, "total": len(numbers)}


def language(lang: str | None) -> str:
    """``"ja"`` for Japanese locales (``ja``, ``ja-JP``, ``ja_JP.UTF-8``), else ``"en"``."""
    return "ja" if (lang or "").lower().replace("_", "-").split("-")[0] == "ja" else "en"


def placeholders(template: str) -> set[str]:
    """The names of the ``{fields}`` of a template."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def render(code: str, params: Mapping[str, Any] | None = None, lang: str | None = "en") -> str:
    """The message ``code`` with ``params`` in ``lang`` (English for unknown languages).

    Raises
    ------
    KeyError
        For an unknown code.
    """
    lang = language(lang)
    params = params or {}
    values = {key: _value(value, lang) for key, value in params.items()}
    text = MESSAGES[code][lang].format(**values)
    if lang == "en" and any(_starts_with_term(text, term) for term in TERMS):
        text = text[0].upper() + text[1:]
    return text


def _starts_with_term(text: str, term: str) -> bool:
    return text.startswith(term) and text[len(term) : len(term) + 1] in (" ", ":")


def _value(value: Any, lang: str) -> Any:
    if isinstance(value, Mapping) and "listing" in value:
        return _listing_text(value, lang)
    if isinstance(value, Mapping) and "code" in value:
        return _nested(value, lang)
    if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        return _PART_SEPARATORS[lang].join(_nested(v, lang) for v in value)
    if isinstance(value, str) and value in TERMS:
        return TERMS[value].get(lang, value)
    return value


def _nested(value: Mapping[str, Any], lang: str) -> str:
    params = {key: _value(v, lang) for key, v in (value.get("params") or {}).items()}
    return MESSAGES[value["code"]][lang].format(**params)


def _listing_text(value: Mapping[str, Any], lang: str) -> str:
    kind = value["listing"]
    item_template = _ITEMS[kind][lang]
    parts = []
    for item in value["items"]:
        n, detail = item[0], item[1]
        extra = item[2] if len(item) > 2 else {}
        if kind.endswith("_fields"):
            detail = f"{detail} field" + "s" * (detail != 1) if lang == "en" else str(detail)
        else:
            detail = _detail(detail)
        parts.append(item_template.format(n=n, detail=detail, **_quoted_extra(extra)))
    total = int(value["total"])
    unit = kind.split("_")[0]
    totals = _TOTALS[unit][lang]
    suffix = (totals[0] if total == 1 else totals[1]) if lang == "en" else totals
    return _SEPARATORS[lang].join(parts) + " " * (lang == "en") + suffix.format(total=total)


def _detail(detail: Any) -> str:
    """A listing detail: a count as is, one value or several values quoted."""
    if isinstance(detail, int):
        return str(detail)
    if isinstance(detail, list):
        return quoted(detail)
    return repr(clip(detail))


def _quoted_extra(extra: Mapping[str, Any]) -> dict[str, str]:
    return {key: repr(clip(value)) for key, value in extra.items()}
