"""What a configuration's value should have been (``expect.*``), the ``expected`` part of a
``bad_value`` message (``'n_train' must be an integer ≥ 2 (got 0)``): a nested message, so
that a Japanese page says it in Japanese rather than quoting the English words."""

EXPECTED_MESSAGES: dict[str, dict[str, str]] = {
    "expect.number": {"en": "a number", "ja": "数値"},
    "expect.numbers": {"en": "a list of numbers", "ja": "数値のリスト"},
    "expect.positive_number": {"en": "a positive number", "ja": "正の数"},
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
        "ja": "属性名 → 値のリスト のオブジェクト",
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
}
