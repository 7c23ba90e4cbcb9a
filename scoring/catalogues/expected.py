"""What a configuration's value should have been (``expect.*``), the ``expected`` part of a
``bad_value`` message (``'n_train' must be an integer ≥ 2 (got 0)``): a nested message, so
that a Japanese page says it in Japanese rather than quoting the English words."""

EXPECTED_MESSAGES: dict[str, dict[str, str]] = {
    "expect.number": {"en": "a number", "ja": "数値"},
    "expect.numbers": {"en": "a list of numbers", "ja": "数値のリスト"},
    "expect.positive_number": {"en": "a positive number", "ja": "正の数"},
    "expect.non_negative_number": {"en": "a number ≥ 0", "ja": "0 以上の数"},
    "expect.number_above_zero": {"en": "a number > 0", "ja": "0 より大きい数"},
    "expect.open_unit": {"en": "a number in (0, 1)", "ja": "0 より大きく 1 より小さい数"},
    "expect.share": {"en": "a share between 0 and 1", "ja": "0 以上 1 以下の割合"},
    "expect.distinct_rates": {
        "en": "distinct numbers between 0 and 1",
        "ja": "0 と 1 の間の互いに異なる数",
    },
    "expect.null_or_correlation": {
        "en": "null or a number in [-1, 1]",
        "ja": "null、または -1 以上 1 以下の数",
    },
    "expect.integer_at_least": {"en": "an integer ≥ {low}", "ja": "{low} 以上の整数"},
    "expect.integer_range": {
        "en": "an integer from {low} to {high}",
        "ja": "{low} 以上 {high} 以下の整数",
    },
    "expect.non_negative_integer": {"en": "a non-negative integer", "ja": "0 以上の整数"},
    "expect.positive_integers": {
        "en": "a non-empty list of positive integers",
        "ja": "正の整数の空でないリスト",
    },
    "expect.challenge_size": {
        "en": "a multiple of 4 of at most {most}",
        "ja": "{most} 以下の 4 の倍数",
    },
    "expect.challenge_size_train": {
        "en": "a multiple of 4 of at most 2 × n_train ({most})",
        "ja": "2 × n_train（{most}）以下の 4 の倍数",
    },
    "expect.boolean": {"en": "true or false", "ja": "true または false"},
    "expect.one_of": {"en": "{choices}", "ja": "{choices} のいずれか"},
    "expect.subset": {"en": "a subset of {values}", "ja": "{values} の部分集合"},
    "expect.object": {"en": "an object", "ja": "オブジェクト"},
    "expect.object_with": {"en": "an object with {keys}", "ja": "{keys} を持つオブジェクト"},
    "expect.strings": {"en": "a list of strings", "ja": "文字列のリスト"},
    "expect.attributes": {
        "en": "an object: name → list of values",
        "ja": "「属性名 → 値のリスト」のオブジェクト",
    },
    "expect.numeric": {
        "en": 'an object: column → {{"range": [lo, hi]}}',
        "ja": '列名 → {{"range": [lo, hi]}} のオブジェクト',
    },
    "expect.id_list": {
        "en": 'a non-empty list of {{"id", "{field}"}}',
        "ja": '{{"id", "{field}"}} の空でないリスト',
    },
    "expect.id_entries": {
        "en": 'a list of {{"id": text, "{field}": {sample}}}',
        "ja": '{{"id": テキスト, "{field}": {sample}}} のリスト',
    },
    "expect.column_roles": {"en": "an object of column roles", "ja": "列の役割のオブジェクト"},
    "expect.integer": {"en": "an integer", "ja": "整数"},
    "expect.unit_interval": {"en": "a number in [0, 1]", "ja": "0 以上 1 以下の数"},
    "expect.number_range": {
        "en": "a number from {low} to {high}",
        "ja": "{low} 以上 {high} 以下の数",
    },
    "expect.choice": {"en": "one of {choices}", "ja": "{choices} のいずれか"},
    "expect.file_name": {"en": "a file name", "ja": "ファイル名"},
    # the settings of a round scored by the organizer's program (scoring.scorer.round_config)
    "expect.column_list": {"en": "a list of 1 to {most} columns", "ja": "1〜{most} 個の列のリスト"},
    "expect.key_list": {
        "en": "a list of at most {most} column keys",
        "ja": "{most} 個以下の列のキーのリスト",
    },
    "expect.score_column": {
        "en": 'an object with "key" (and "label", "label_ja", …)',
        "ja": '"key"（ほかに "label"、"label_ja" など）を持つオブジェクト',
    },
    "expect.column_key": {
        "en": "1 to {most} letters, digits, _ . @ -",
        "ja": "英字・数字・_ . @ - からなる 1〜{most} 文字",
    },
    "expect.text_length": {
        "en": "a text of 1 to {most} characters",
        "ja": "1〜{most} 文字のテキスト",
    },
    "expect.ascending_numbers": {
        "en": "a list of 1 to {most} strictly ascending numbers",
        "ja": "小さい順に並んだ互いに異なる 1〜{most} 個の数のリスト",
    },
    "expect.gate_list": {
        "en": "a list of at most {most} gates",
        "ja": "{most} 個以下のゲートのリスト",
    },
    "expect.gate": {
        "en": 'an object {{"key": column, "min": number}} or "max"',
        "ja": '{{"key": 列名, "min": 数値}}（"min" の代わりに "max" も可）のオブジェクト',
    },
    "expect.file_rule": {
        "en": 'an object {{"required": [file names or patterns], "only_required": false}}',
        "ja": '{{"required": [ファイル名またはパターン], "only_required": false}} のオブジェクト',
    },
    "expect.file_patterns": {
        "en": "a list of at most {most} distinct file names or patterns of 1 to {chars} "
        "characters, each a relative path (no .. part, no backslash)",
        "ja": "{most} 個以下の互いに異なるファイル名またはパターンのリスト（それぞれ 1〜{chars} "
        "文字の相対パスで、.. の部分やバックスラッシュを含まないもの）",
    },
    "expect.only_required": {
        "en": "true or false (true only with required files)",
        "ja": "true または false（true は required にファイルがあるときだけ）",
    },
}
