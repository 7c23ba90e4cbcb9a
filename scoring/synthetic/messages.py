"""The synthetic-data round's message catalogue (spec synthetic-round.md): data only.

Each code maps to its English and Japanese templates; :mod:`scoring.synthetic.errors`
fills them. Like the DP round's, this catalogue belongs to its kind's folder: a stored
``syn.*`` code is rendered by :func:`scoring.synthetic.errors.render_synth`.
"""

# code -> {language: template}; placeholders are str.format fields of ``params``.
SYN_MESSAGES: dict[str, dict[str, str]] = {
    # -- configuration (the organizer's round settings)
    "syn.config.not_object": {
        "en": "The round configuration must be a JSON object",
        "ja": "ラウンド設定は JSON オブジェクトでなければなりません",
    },
    "syn.config.unknown_key": {
        "en": "Unknown key '{key}' in the round configuration; known keys: {known}",
        "ja": "ラウンド設定に不明なキー '{key}' があります。使えるキー: {known}",
    },
    "syn.config.missing_key": {
        "en": "The round configuration lacks '{key}'",
        "ja": "ラウンド設定に '{key}' がありません",
    },
    "syn.config.bad_value": {
        "en": "'{key}' must be {expected} (got {value})",
        "ja": "'{key}' は{expected}でなければなりません（値: {value}）",
    },
    "syn.config.role": {
        "en": "Column '{column}' must have the role 'numeric' or 'categorical' (got {value})",
        "ja": "列 '{column}' の役割は 'numeric' か 'categorical' でなければなりません（値: {value}）",
    },
    "syn.config.columns": {
        "en": "The configuration's columns ({configured}) must be the original table's "
        "columns in its order ({header})",
        "ja": "設定の列（{configured}）は元のテーブルの列と同じ順序でなければなりません（{header}）",
    },
    "syn.config.label": {
        "en": "The label '{label}' must be a categorical column of the table",
        "ja": "ラベル '{label}' はテーブルのカテゴリ列でなければなりません",
    },
    # ``{table}``: the table checked, a term of ``SYN_TERMS`` (the round's original, or a data
    # pack's population); a message stored without it names the original.
    "syn.config.label_values": {
        "en": "The label '{label}' needs at least 2 values in {table} (got {count})",
        "ja": "ラベル '{label}' には{table}で 2 種類以上の値が必要です（{count} 種類）",
    },
    "syn.config.not_number": {
        "en": "Column '{column}' is numeric, but {table} holds {rows}",
        "ja": "列 '{column}' は数値列ですが、{table}に数値でない値があります: {rows}",
    },
    "syn.config.too_small": {
        "en": "{table} has {rows} rows; the holdout, the auxiliary table and one "
        "team's members and non-members need {needed}",
        "ja": "{table}は {rows} 行です。ホールドアウト・補助テーブルと 1 チーム分の"
        "メンバー・非メンバーに {needed} 行必要です",
    },
    # -- a release (teamX_synthetic.csv)
    "syn.gate.r_copy": {
        "en": "This release fails the copy gate: R_copy = {value} (the share of its rows equal "
        "to one of your members on every column), against {reference} for as many rows of the "
        "holdout, which you never saw (what chance gives); the excess {excess} is above the "
        "round's limit {limit}. It is kept and scored, but it cannot be your final release and "
        "the freeze does not publish it.",
        "ja": "この公開データはコピーのゲートを満たしません: R_copy = {value}（メンバーのどれかと全列で"
        "一致する行の割合）に対し、あなたが見ていない同数のホールドアウト行では {reference}（偶然の"
        "一致）で、その差 {excess} がラウンドの上限 {limit} を超えています。"
        "保存・採点はされますが、最終公開データにはできず、凍結時に公開されません。",
    },
    "syn.release.header": {
        "en": "The header of {name} must be the original table's, in its order: {expected} "
        "(got {got})",
        "ja": "{name} のヘッダーは元のテーブルと同じ列を同じ順序で並べてください: {expected}"
        "（実際: {got}）",
    },
    # The missing, unexpected or misordered columns named (``header_problems``); the code
    # above stays for the messages stored before.
    "syn.release.columns": {
        "en": "The header of {name} must be the original table's, in its order: {expected}; "
        "{problems}",
        "ja": "{name} のヘッダーは元のテーブルと同じ列を同じ順序で並べてください: {expected}"
        "（{problems}）",
    },
    "syn.release.rows": {
        "en": "{name} has {got} data rows; a release holds 1 to {most} rows",
        "ja": "{name} のデータ行は {got} 行です。1 行以上 {most} 行以下にしてください",
    },
    # The round's own bounds (``min_rows`` to ``max_rows``); the message above stays for the
    # messages stored before.
    "syn.release.row_bounds": {
        "en": "{name} has {got} data rows; a release of this round holds {least} to {most} rows",
        "ja": "{name} のデータ行は {got} 行です。このラウンドの公開データは {least} 行以上 {most} "
        "行以下にしてください",
    },
    "syn.release.not_number": {
        "en": "Column '{column}' is numeric; not a number at {rows}",
        "ja": "列 '{column}' は数値列です。数値でない値があります: {rows}",
    },
    "syn.release.range": {
        "en": "Column '{column}' must lie within {low} … {high} (the original's range "
        "widened by 10 %); out of range at {rows}",
        "ja": "列 '{column}' の値は {low} 〜 {high}（元のテーブルの範囲を 10 % 広げたもの）の"
        "範囲にしてください。範囲外の値があります: {rows}",
    },
    "syn.release.domain": {
        "en": "Column '{column}' takes the original table's values only ({domain}); "
        "not one of them at {rows}",
        "ja": "列 '{column}' には元のテーブルにある値（{domain}）だけが使えます。"
        "それ以外の値があります: {rows}",
    },
    # -- an attack (teamX_mia_teamY.csv)
    "syn.attack.header": {
        "en": "The header of {name} must be 'id,score' (got {got})",
        "ja": "{name} のヘッダーは 'id,score' にしてください（実際: {got}）",
    },
    "syn.attack.not_id": {
        "en": "Column 'id' takes the challenge ids 1 … {count}; not one of them at {rows}",
        "ja": "列 'id' にはチャレンジ ID 1 〜 {count} を書いてください。それ以外の値があります: {rows}",
    },
    "syn.attack.duplicate": {
        "en": "Each challenge id appears once; repeated at {rows}",
        "ja": "各チャレンジ ID は 1 回だけ書いてください。重複があります: {rows}",
    },
    "syn.attack.missing": {
        "en": "Every challenge id needs a score; missing: {ids} ({total} in total)",
        "ja": "すべてのチャレンジ ID にスコアが必要です。不足している ID: {ids}（計 {total} 個）",
    },
    "syn.attack.not_score": {
        "en": "Column 'score' takes finite numbers; not one at {rows}",
        "ja": "列 'score' には有限の数値を書いてください。そうでない値があります: {rows}",
    },
}


# The tables a message names (its ``{table}``) -> {language: text}.
ORIGINAL_TABLE = "the original table"
POPULATION_TABLE = "the population"
SYN_TERMS: dict[str, dict[str, str]] = {
    ORIGINAL_TABLE: {"en": "the original table", "ja": "元のテーブル"},
    POPULATION_TABLE: {"en": "the population", "ja": "母集団"},
}
