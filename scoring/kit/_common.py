"""Shared helpers of the kit: errors in two languages, numbers, classes, formatting."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.errors import ScoringError
from scoring.prepare import numeric_values

KIT_MESSAGES = {
    "kit.unknown_column": {
        "en": "{method}: column {column!r} is not in the table (columns: {columns}).",
        "ja": "{method}: 列 {column!r} はテーブルにありません（列: {columns}）。",
    },
    "kit.not_number": {
        "en": "{method}: column {column!r} must hold numbers; row {row} holds {value!r}.",
        "ja": "{method}: 列 {column!r} は数値の列である必要がありますが、{row} 行目が {value!r} です。",
    },
    "kit.number_domain": {
        "en": (
            "{method}: column {column!r} must keep original values (domain "
            "'original-values'), so its output cannot be an arbitrary number; use a "
            "'number'-domain column or the option {option}."
        ),
        "ja": (
            "{method}: 列 {column!r} は元の値だけを許す列（domain 'original-values'）なので、"
            "任意の数値は出力できません。'number' の列を選ぶか、オプション {option} を使ってください。"
        ),
    },
    "kit.no_definition": {
        "en": "{method}: column {column!r}: no definition in attr_depth.json for {values}.",
        "ja": "{method}: 列 {column!r}: attr_depth.json に次の値の定義がありません: {values}。",
    },
    "kit.no_level": {
        "en": "{method}: column {column!r} has no level {level} in attr_depth.json (levels: 0–{top}).",
        "ja": "{method}: 列 {column!r} には attr_depth.json の階層 {level} がありません（階層: 0–{top}）。",
    },
    "kit.bad_hierarchy": {
        "en": "attr_depth.json: column {column!r}: {reason}",
        "ja": "attr_depth.json: 列 {column!r}: {reason}",
    },
    "kit.level_order": {
        "en": (
            "attr_depth.json: column {column!r}: level {upper} does not coarsen level {lower} "
            "({detail}); k-anonymization needs each level to merge groups of the one below."
        ),
        "ja": (
            "attr_depth.json: 列 {column!r}: 階層 {upper} が階層 {lower} を粗くしていません"
            "（{detail}）。k-匿名化では各階層が下の階層のグループをまとめる必要があります。"
        ),
    },
    "kit.code_value": {
        "en": "column {column!r}: code value {value} does not occur in the column",
        "ja": "列 {column!r}: コード値 {value} はこの列に存在しません",
    },
    "kit.bad_recipe": {
        "en": (
            '{path}: not a recipe at {where}: a recipe is a list of steps such as [{{"method": '
            '"sa_noise", "params": {{"scale": 0.1}}}}] (or an object whose "steps" is that '
            'list), each step an object naming its "method".'
        ),
        "ja": (
            '{path}: {where} がレシピの形ではありません。レシピは [{{"method": "sa_noise", '
            '"params": {{"scale": 0.1}}}}] のような手順のリスト（またはそのリストを "steps" に'
            '持つオブジェクト）で、各手順は "method" を持つオブジェクトです。'
        ),
    },
    "kit.param_range": {
        "en": "{method}: parameter {name!r} must be a number {relation} {bound}; got {value}.",
        "ja": "{method}: パラメータ {name!r} は {relation} {bound} の数値にしてください"
        "（指定値: {value}）。",
    },
    "kit.bad_parameter": {
        "en": "{method}: parameter {name!r}: {reason}",
        "ja": "{method}: パラメータ {name!r}: {reason}",
    },
    "kit.bad_row": {
        "en": "{method}: row {row} is outside 1..{rows}.",
        "ja": "{method}: 行番号 {row} は 1..{rows} の範囲外です。",
    },
    "kit.all_deleted": {
        "en": (
            "{method}: every row would be deleted, and a submission must keep at least one "
            "row; nothing was written (choose a smaller k, a coarser generalization or fewer rows)."
        ),
        "ja": (
            "{method}: すべての行が削除されます。提出ファイルには少なくとも 1 行を残す必要があるため、"
            "何も書き出しませんでした（k を小さくする、一般化を粗くする、削除行を減らしてください）。"
        ),
    },
    "kit.unknown_method": {
        "en": "unknown method {name!r}; methods: {names}.",
        "ja": "手法 {name!r} はありません。使える手法: {names}。",
    },
    "kit.no_budget": {
        "en": (
            "k_anonymize: no level vector of attr_depth.json leaves at most {budget} rows in "
            "classes smaller than {k} (best: {best} rows at levels {levels})."
        ),
        "ja": (
            "k_anonymize: attr_depth.json のどの階層の組み合わせでも、{k} 件未満のクラスの行が "
            "{budget} 行以下になりません（最良: 階層 {levels} で {best} 行）。"
        ),
    },
}


def at_least(value, bound, *, method: str, name: str, strict: bool = False, infinite=False):
    """Refuse a numeric parameter below ``bound`` (or equal to it when ``strict``), NaN, or
    infinite unless ``infinite``: a negative count or scale silently did something else.

    Examples
    --------
    >>> at_least(-1, 0, method="delete_random", name="d")
    Traceback (most recent call last):
    ...
    scoring.kit._common.KitError: delete_random: parameter 'd' must be a number ≥ 0; got -1.
    """
    number = float(value)
    inside = number > bound if strict else number >= bound  # False for NaN
    if not inside or (math.isinf(number) and not infinite):
        relation = ">" if strict else "≥"
        raise KitError(
            "kit.param_range", method=method, name=name, relation=relation, bound=bound, value=value
        )


class KitError(ScoringError):
    """A method or attack of the kit cannot run as asked; the message says why.

    Examples
    --------
    >>> error = KitError("kit.code_value", column="age", value=80)
    >>> str(error)
    "column 'age': code value 80 does not occur in the column"
    >>> error.render("ja")
    "列 'age': コード値 80 はこの列に存在しません"
    """

    def __init__(self, code: str, /, **params) -> None:
        Exception.__init__(self, KIT_MESSAGES[code]["en"].format(**params))
        self.code, self.params = code, params

    def render(self, lang: str | None) -> str:
        return KIT_MESSAGES[self.code]["ja" if lang == "ja" else "en"].format(**self.params)


def as_frame(table) -> pd.DataFrame:
    """A DataFrame of text cells from a DataFrame or a :class:`scoring.columns.Table`."""
    if isinstance(table, pd.DataFrame):
        return table
    from scoring.columns import as_table

    return as_table(table).to_frame()


def rng_of(seed) -> np.random.Generator:
    """``numpy.random.default_rng(seed)``; a Generator is passed through (chains share one)."""
    return np.random.default_rng(seed)


def deleted_rows(table: pd.DataFrame) -> np.ndarray:
    """Rows whose cells are all empty."""
    if table.shape[1] == 0:
        return np.zeros(len(table), dtype=bool)
    cells = table.fillna("").astype(str).to_numpy(dtype=object)
    return (cells == "").all(axis=1)


def check_columns(table: pd.DataFrame, columns: Sequence[str], *, method: str) -> list[str]:
    columns = list(columns)
    for column in columns:
        if column not in table.columns:
            raise KitError(
                "kit.unknown_column",
                method=method,
                column=column,
                columns=", ".join(map(str, table.columns)),
            )
    return columns


def numbers(table: pd.DataFrame, column: str, rows: np.ndarray, *, method: str) -> np.ndarray:
    """The ``rows`` of a column as float64; a cell that is not a number is an error."""
    values = numeric_values(table[column].to_numpy(dtype=object)[rows])
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        raise KitError(
            "kit.not_number",
            method=method,
            column=column,
            row=int(rows[bad[0]]) + 1,
            value=str(table[column].iloc[rows[bad[0]]]),
        )
    return values


def is_integral(values: np.ndarray) -> bool:
    return bool(values.size == 0 or np.all(values == np.round(values)))


def format_numbers(values: np.ndarray) -> np.ndarray:
    """Numbers as text cells: integral values without a decimal point, others as ``repr``.

    Examples
    --------
    >>> format_numbers(np.array([3.0, 2.5, -0.0])).tolist()
    ['3', '2.5', '0']
    >>> format_numbers(np.array([1e19, -2.0**63]))[0]
    '1e+19'
    """
    values = np.asarray(values, dtype=np.float64)
    # Whole values as integers only below 2**53, where every integer is exact (a cast of
    # 2**63 or more to int64 wraps to -9223372036854775808); larger ones as ``repr``.
    with np.errstate(invalid="ignore"):
        integral = (values == np.round(values)) & (np.abs(values) < 2.0**53)
    out = np.empty(values.size, dtype=object)
    if integral.any():
        out[integral] = values[integral].astype(np.int64).astype(str).astype(object)
    if (~integral).any():
        out[~integral] = [repr(float(v)) for v in values[~integral]]
    return out


def sort_keys(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct text values in their natural order (numeric if all numbers) and codes.

    Examples
    --------
    >>> distinct, codes = sort_keys(np.array(["10", "9", "10"], dtype=object))
    >>> distinct.tolist(), codes.tolist()
    (['9', '10'], [1, 0, 1])
    """
    codes, uniques = pd.factorize(np.asarray(values, dtype=object))
    uniques = np.asarray(uniques, dtype=object)
    as_numbers = numeric_values(uniques)
    if uniques.size and np.isfinite(as_numbers).all():
        order = np.lexsort((uniques.astype(str), as_numbers))
    else:
        order = np.argsort(uniques.astype(str), kind="stable")
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return uniques[order], rank[codes]


def class_codes(table: pd.DataFrame, columns: Sequence[str], rows: np.ndarray) -> np.ndarray:
    """Dense class ids of ``rows`` grouped by the text of ``columns`` (sorted classes)."""
    if not len(columns):
        return np.zeros(rows.size, dtype=np.int64)
    frame = table.iloc[rows][list(columns)].astype(str)
    return frame.groupby(list(columns), sort=True).ngroup().to_numpy(dtype=np.int64)


def mode_value(values: np.ndarray) -> object:
    """Most frequent value; ties go to the smallest (numeric order if all numbers)."""
    distinct, codes = sort_keys(values)
    counts = np.bincount(codes, minlength=distinct.size)
    return distinct[int(np.argmax(counts))]


def output_frame(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``table`` as text cells (object dtype), index reset."""
    out = table.reset_index(drop=True).astype(object).fillna("")
    return out
