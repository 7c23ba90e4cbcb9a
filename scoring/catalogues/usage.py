"""argparse's own refusals of a command line (``usage.*``), in English and Japanese: data only.

The English templates are argparse's own text (Python 3.11 to 3.13), which
:mod:`scoring.cli_usage` matches to find a message's code and parameters; the Japanese
ones are what ``--lang ja`` prints instead. The options' own refusals (a number the rule
refuses, a malformed ``--range``) and argparse's words in ``--help`` are rendered
directly in the parser's language.
"""

# code -> {language: template}; placeholders are str.format fields of ``params``.
USAGE_MESSAGES: dict[str, dict[str, str]] = {
    "usage.prefix": {"en": "usage: ", "ja": "使い方: "},
    # argparse's words in a command's help (``--help``).
    "usage.positionals": {"en": "positional arguments", "ja": "位置引数"},
    "usage.options": {"en": "options", "ja": "オプション"},
    "usage.help": {"en": "show this help message and exit", "ja": "このヘルプを表示して終了する"},
    "usage.error": {"en": "{prog}: error: {message}", "ja": "{prog}: エラー: {message}"},
    "usage.required": {
        "en": "the following arguments are required: {names}",
        "ja": "次の引数が必要です: {names}",
    },
    "usage.one_required": {
        "en": "one of the arguments {names} is required",
        "ja": "引数 {names} のどれか 1 つが必要です",
    },
    "usage.unrecognized": {
        "en": "unrecognized arguments: {arguments}",
        "ja": "知らない引数です: {arguments}",
    },
    "usage.ambiguous": {
        "en": "ambiguous option: {option} could match {matches}",
        "ja": "オプション {option} があいまいです（{matches} のどれにも当たります）",
    },
    "usage.argument": {"en": "argument {argument}: {message}", "ja": "引数 {argument}: {message}"},
    "usage.invalid_choice": {
        "en": "invalid choice: {value} (choose from {choices})",
        "ja": "使えない値です: {value}（選べるのは {choices}）",
    },
    "usage.invalid_value": {
        "en": "invalid {type} value: {value}",
        "ja": "{type} の値として読めません: {value}",
    },
    "usage.expected_one": {"en": "expected one argument", "ja": "値が 1 つ必要です"},
    "usage.expected_at_most_one": {
        "en": "expected at most one argument",
        "ja": "値は 1 つまでです",
    },
    "usage.expected_at_least_one": {
        "en": "expected at least one argument",
        "ja": "値が 1 つ以上必要です",
    },
    "usage.expected_count": {
        "en": "expected {count} arguments",
        "ja": "値が {count} 個必要です",
    },
    # An option's value the number rule refuses (``scoring.cli_usage.option_number``).
    "usage.not_number": {
        "en": "not a number: {value} (write it in ASCII digits, e.g. 1000 or 0.25)",
        "ja": "数として読めません: {value}（半角の数字で書きます。例: 1000、0.25）",
    },
    "usage.not_integer": {
        "en": "not an integer: {value} (write it in ASCII digits, e.g. 1000)",
        "ja": "整数として読めません: {value}（半角の数字で書きます。例: 1000）",
    },
    # An option's value not of its form (``--range``, ``scorer run --target``), the kit's
    # ``--param`` (``KEY=VALUE``, after a ``--method``).
    "usage.expected_form": {
        "en": "expected {form}, got {value}",
        "ja": "{form} の形で指定します: {value}",
    },
    "usage.param_first": {
        "en": "--param must follow a --method",
        "ja": "--param は --method の後に指定します",
    },
    "usage.param_form": {
        "en": "--param {value}: expected KEY=VALUE",
        "ja": "--param {value}: KEY=VALUE の形で指定します",
    },
    "usage.range_order": {
        "en": "expected COLUMN=LOW:HIGH with LOW <= HIGH, got {value}",
        "ja": "LOW <= HIGH となる COLUMN=LOW:HIGH を指定します: {value}",
    },
    "usage.not_allowed_with": {
        "en": "not allowed with argument {other}",
        "ja": "引数 {other} と一緒には使えません",
    },
}
