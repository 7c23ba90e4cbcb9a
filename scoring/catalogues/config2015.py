"""The 2015 game's round configuration (``config.*``, metrics.md "Round configuration"):
its column roles and domains (:func:`scoring.schema.load_config`) and its ``indicators``
block (:func:`scoring.indicator_config.load_indicators`), in English and Japanese: data only.

Every message names the key at fault in the parameter ``key`` (``qi``, ``domains.Age``,
``indicators.l``; none for a message about the configuration as a whole), which a form or
a bundle uses to put it where it belongs, and echoes the offending column or value
(clipped). Part of the one catalogue of :func:`scoring.messages.render`.
"""

CONFIG_MESSAGES: dict[str, dict[str, str]] = {
    # -- the configuration as a whole
    "config.unreadable": {
        "en": "Cannot read the configuration file {path!r} ({reason}).",
        "ja": "設定ファイル {path!r} を読めません（{reason}）。",
    },
    "config.not_object": {
        "en": 'The configuration must be a JSON object such as {{"qi": [...], "sa": [...]}}, '
        "not {got}.",
        "ja": '設定は {{"qi": [...], "sa": [...]}} のような JSON オブジェクトにしてください'
        "（指定された値: {got}）。",
    },
    "config.unknown_keys": {
        "en": "Unknown configuration key(s): {keys} (known keys: {known}).",
        "ja": "不明な設定キーがあります: {keys}（使えるキー: {known}）。",
    },
    # -- column roles
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
        "holds {value!r} (rows that are not numbers: {total}).",
        "ja": '"{key}": 列 {column!r} は元のテーブルで数値ではありません。{row} 行目の値は '
        "{value!r} です（数値でない行は計 {total} 行）。",
    },
    "config.overlap": {
        "en": '"qi" and "sa" overlap: {columns}.',
        "ja": '"qi" と "sa" に同じ列があります: {columns}。',
    },
    "config.columns_header": {
        "en": '"{key}" does not match the header of the original table: got {given}, the '
        "header is {header}.",
        "ja": '"{key}" が元のテーブルのヘッダーと一致しません（指定された列: {given}、ヘッダー: '
        "{header}）。",
    },
    "config.integer_not_value_column": {
        "en": '"{key}" may only name "qi" or "original-values" columns; not one of them: '
        "{columns}.",
        "ja": '"{key}" には "qi" か "original-values" の列だけを指定できます。どちらでもない列: '
        "{columns}。",
    },
    "config.integer_not_number": {
        "en": '"{key}": column {column!r} holds a value that is not a number: row {row} holds '
        '{value!r}. Leave "{key}" out to decide it from the original table.',
        "ja": '"{key}": 列 {column!r} に数値でない値があります（{row} 行目の値は {value!r}）。'
        '"{key}" を省くと元のテーブルから決まります。',
    },
    # -- domains
    "config.domains_not_object": {
        "en": '"{key}" must be an object mapping column names to a domain '
        '("original-values" or "number").',
        "ja": '"{key}" は列名ごとに値域（"original-values" か "number"）を指定するオブジェクトに'
        "してください。",
    },
    "config.domain_unknown_column": {
        "en": '"{key}" names a column not in the original table: {column!r}.',
        "ja": '"{key}" に元のテーブルにない列があります: {column!r}。',
    },
    "config.domain_kind": {
        "en": '"{key}" must be "original-values" or "number", got {value}.',
        "ja": '"{key}" は "original-values" か "number" にしてください（指定された値: {value}）。',
    },
    # -- the indicators block (indicators-and-kit.md A.4)
    "config.indicators_not_object": {
        "en": '"{key}" must be an object such as {{"sa": "Disease"}}, not {value}.',
        "ja": '"{key}" は {{"sa": "Disease"}} のようなオブジェクトにしてください'
        "（指定された値: {value}）。",
    },
    "config.indicators_unknown_keys": {
        "en": "Unknown key(s) in {key}: {keys} (allowed: {allowed}).",
        "ja": "{key} に不明なキーがあります: {keys}（使えるキー: {allowed}）。",
    },
    "config.indicators_sa_not_column": {
        "en": "{key} {value} is not a column of the table (columns: {columns}).",
        "ja": "{key} の {value} は表の列ではありません（列: {columns}）。",
    },
    "config.indicators_sa_is_qi": {
        "en": "{key} {value} is a qi column; choose an sa column or a column with no role.",
        "ja": "{key} の {value} は qi の列です。sa の列か、役割のない列を選んでください。",
    },
    "config.indicators_kind": {
        "en": "{key} must be 'categorical' or 'numeric', not {value}.",
        "ja": "{key} は 'categorical' か 'numeric' にしてください（指定された値: {value}）。",
    },
    "config.indicators_not_numeric": {
        "en": "{key} is 'numeric' but column {column!r} holds non-numbers: {rows}.",
        "ja": "{key} は 'numeric' ですが、列 {column!r} に数値でない値があります: {rows}。",
    },
    "config.indicators_bins": {
        "en": "{key} must be an integer >= 2 or a strictly increasing list of finite numbers, "
        "not {value}.",
        "ja": "{key} は 2 以上の整数か、小さい順に並んだ重複のない有限の数のリストにしてください"
        "（指定された値: {value}）。",
    },
    "config.indicators_l": {
        "en": "{key} must be an integer >= 2, not {value}.",
        "ja": "{key} は 2 以上の整数にしてください（指定された値: {value}）。",
    },
    "config.indicators_t_distance": {
        "en": "{key} must be 'equal' or 'ordered', not {value}.",
        "ja": "{key} は 'equal' か 'ordered' にしてください（指定された値: {value}）。",
    },
    "config.indicators_order_type": {
        "en": "{key} must be a list of the column's values (strings), not {value}.",
        "ja": "{key} は列の値（文字列）のリストにしてください（指定された値: {value}）。",
    },
    "config.indicators_order_repeated": {
        "en": "{key} lists a value more than once: {values}.",
        "ja": "{key} に同じ値が 2 回以上あります: {values}。",
    },
    "config.indicators_order_missing": {
        "en": "{key} must list every value of column {column!r}; missing: {values} "
        "({total} in total).",
        "ja": "{key} には列 {column!r} のすべての値を並べてください。足りない値: {values}"
        "（計 {total} 個）。",
    },
}
