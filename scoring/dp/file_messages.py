"""The DP round's messages about the files a team uploads (``release.csv`` and
``estimate.csv``, spec dp-round.md §7.4, §8.2, §12): data only, part of
:data:`scoring.dp.messages.DP_MESSAGES`."""

from scoring.catalogues.core import ROWS_NOTE

ROWS_EN, ROWS_JA = ROWS_NOTE["en"], ROWS_NOTE["ja"]  # how rows are numbered
# What a team does about an estimate's missing cells.
ONE_ROW_PER_CELL = {
    "en": "An estimate has one row per cell of each target (the sample estimate lists them all).",
    "ja": "推定には各対象のセルごとに 1 行が必要です（サンプル推定にはすべてのセルがあります）。",
}

# code -> {language: template}, as DP_MESSAGES.
FILE_MESSAGES: dict[str, dict[str, str]] = {
    # release.csv (§8.2, §12)
    "dp.releasecsv.header": {
        "en": "{name}: the header must be {header}; {problems}",
        "ja": "{name} のヘッダーは {header} にしてください（{problems}）",
    },
    "dp.releasecsv.rows": {
        "en": "{name} has {got} rows; the table has {expected}",
        "ja": "{name} は {got} 行ですが、テーブルは {expected} 行です",
    },
    "dp.releasecsv.outside_domain": {
        "en": "Column '{column}' holds values outside its domain: {rows}. " + ROWS_EN,
        "ja": "列 '{column}' に定義域の外の値があります: {rows}。" + ROWS_JA,
    },
    # estimate.csv (§7.4, §12)
    "dp.estimate.header": {
        "en": "{name}: the header must be {header}; {problems}",
        "ja": "{name} のヘッダーは {header} にしてください（{problems}）",
    },
    "dp.estimate.unknown_target": {
        "en": "{name} names unknown target(s): {rows}; targets: {targets}. " + ROWS_EN,
        "ja": "{name} に未知の対象があります: {rows}。対象: {targets}。" + ROWS_JA,
    },
    "dp.estimate.missing_cells": {
        "en": "Target '{target}' misses cells {cells}. " + ONE_ROW_PER_CELL["en"],
        "ja": "対象 '{target}' にセル {cells} がありません。" + ONE_ROW_PER_CELL["ja"],
    },
    "dp.estimate.missing_many_cells": {
        "en": "Target '{target}' misses cells {cells} … ({total} in total). "
        + ONE_ROW_PER_CELL["en"],
        "ja": "対象 '{target}' にセル {cells} … など全 {total} 個がありません。"
        + ONE_ROW_PER_CELL["ja"],
    },
    "dp.estimate.duplicate_cell": {
        "en": "Cell {cell} of '{target}' appears on rows {first} and {second}. " + ROWS_EN,
        "ja": "'{target}' のセル {cell} が {first} 行目と {second} 行目にあります。" + ROWS_JA,
    },
    "dp.estimate.extra_fill": {
        "en": "Row {row} fills '{attribute}', which is not in target '{target}'. " + ROWS_EN,
        "ja": "{row} 行目が対象 '{target}' にない属性 '{attribute}' を埋めています。" + ROWS_JA,
    },
    "dp.estimate.outside_domain": {
        "en": "Row {row}: '{value}' is not in the domain of '{attribute}' (target '{target}'). "
        + ROWS_EN,
        "ja": "{row} 行目: '{value}' は '{attribute}' の定義域にありません（対象 '{target}'）。"
        + ROWS_JA,
    },
    "dp.estimate.count": {
        "en": "Row {row}: count '{value}' is not a finite number. " + ROWS_EN,
        "ja": "{row} 行目: count '{value}' は有限の数ではありません。" + ROWS_JA,
    },
    "dp.estimate.upload_mode": {
        "en": "In a declared-upload round the estimate is computed by the platform from "
        "release.csv (BT, BR or BI)",
        "ja": "申告アップロードのラウンドでは、推定値はプラットフォームが release.csv から"
        "計算します（BT、BR、BI）",
    },
}
