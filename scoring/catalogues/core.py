"""The scoring library's own message codes, in English and Japanese: data only.

Every code but the sequential round's ``seq.*``, a round configuration's ``config.*``
(:mod:`scoring.catalogues.config2015`) and a correspondence table's ``answer.*``
(:mod:`scoring.catalogues.answers`): tables and their encodings, headers, the original
table, submissions, truth files, attacks and JSON; and :data:`TERMS`, the translated names
of tables. Part of the one catalogue of
:func:`scoring.messages.render`, which does the rendering (listings, nested messages, terms).
"""

# How every reader's row numbers count (the DP round's catalogue says it too).
ROWS_NOTE = {
    "en": "Rows are numbered from 1 after the header line.",
    "ja": "行番号はヘッダー行の次の行を 1 とします。",
}

# How to fix a file in another encoding (Excel's own name of the format in each language).
_SAVE_UTF8 = {
    "en": 'Save it as UTF-8 (in Excel: Save As, "CSV UTF-8 (Comma delimited)") and upload '
    "it again.",
    "ja": "UTF-8 で保存し直して（Excel では「名前を付けて保存」で「CSV UTF-8（コンマ区切り）」）、"
    "もう一度アップロードしてください。",
}

# code -> {language: template}; placeholders are str.format fields of ``params``.
CORE_MESSAGES: dict[str, dict[str, str]] = {
    "toolkit.extra_missing": {
        "en": "This command needs {package}, which the toolkit installs with its extra "
        "[{extra}]: pip install {install}",
        "ja": "このコマンドには {package} が必要です。ツールキットの追加機能 [{extra}] で"
        "インストールしてください: pip install {install}",
    },
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
    "table.utf16": {
        "en": "{name} looks like UTF-16 text without a byte-order mark (every other byte is "
        "NUL), not UTF-8. " + _SAVE_UTF8["en"],
        "ja": "{name} はバイト順マークのない UTF-16 のテキストのようです（1 バイトおきに NUL "
        "バイトがあります）。UTF-8 ではありません。" + _SAVE_UTF8["ja"],
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
    "table.empty_column_name": {
        "en": "{name}: the header gives no name to column(s) {positions} (counted from 1 at "
        "the left); every column needs a name.",
        "ja": "{name}: ヘッダーに名前のない列があります（左から {positions} 番目）。"
        "すべての列に名前が必要です。",
    },
    "table.ragged": {
        "en": "{name}: wrong number of fields (the header has {width}): {rows}. " + ROWS_NOTE["en"],
        "ja": "{name}: フィールド数が違います（ヘッダーは {width} 個）: {rows}。" + ROWS_NOTE["ja"],
    },
    "table.cell_too_long": {
        "en": "{name}: the cell in column '{column}' at row {row} holds {size} bytes; a cell "
        "may hold at most {limit} bytes. " + ROWS_NOTE["en"],
        "ja": "{name}: 列 '{column}' の {row} 行目のセルは {size} バイトあります。"
        "セルは {limit} バイトまでです。" + ROWS_NOTE["ja"],
    },
    "table.too_many_columns": {
        "en": "{name}: the header has {got} columns; a table may have at most {most}.",
        "ja": "{name}: ヘッダーの列は {got} 個あります。列は {most} 個までです。",
    },
    "table.header_cell_too_long": {
        "en": "{name}: header field {column} holds {size} bytes; a cell may hold at most "
        "{limit} bytes.",
        "ja": "{name}: ヘッダーの {column} 番目のフィールドは {size} バイトあります。"
        "セルは {limit} バイトまでです。",
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
    "header.separator": {
        "en": "the file's columns are separated by {separator}s, not commas: save it as CSV "
        "(comma-separated) and upload it again",
        "ja": "ファイルの列がカンマではなく{separator}で区切られています。CSV（カンマ区切り）で"
        "保存し直して、もう一度アップロードしてください",
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
        "en": "The original table has empty cells at {rows}. " + ROWS_NOTE["en"],
        "ja": "元のテーブルに空のセルがあります: {rows}。" + ROWS_NOTE["ja"],
    },
    "column.not_number": {
        "en": "Column {column} of the {what} must hold finite numbers; not a finite number at "
        "{rows}. " + ROWS_NOTE["en"],
        "ja": "{what}の列 {column} には有限の数値が必要です。数値でないセル: {rows}。"
        + ROWS_NOTE["ja"],
    },
    "table.published_empty_cells": {
        "en": "The published table has empty cells (a published target holds the kept rows "
        "only, every cell filled): {rows}. " + ROWS_NOTE["en"],
        "ja": "公開テーブルに空のセルがあります（公開される攻撃対象は残された行だけで、すべての"
        "セルが埋まっています）: {rows}。" + ROWS_NOTE["ja"],
    },
    "column.unknown_range": {
        "en": "A range is given for {columns}, not a column of the original table "
        "(columns: {known}).",
        "ja": "範囲が指定された {columns} は元のテーブルの列ではありません（列: {known}）。",
    },
    "cli.range_twice": {
        "en": "--range is given twice for column {column}; give one range per column.",
        "ja": "列 {column} に --range が 2 回指定されています。範囲は列ごとに 1 つにしてください。",
    },
    "column.too_large": {
        "en": "Column {column} of the {what} must hold numbers of magnitude at most {limit}; "
        "larger at {rows}. " + ROWS_NOTE["en"],
        "ja": "{what}の列 {column} の数値は絶対値 {limit} 以下でなければなりません。"
        "大きすぎるセル: {rows}。" + ROWS_NOTE["ja"],
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
        "a kept row has none): {rows}. " + ROWS_NOTE["en"],
        "ja": "削除されていない行に空のセルがあります（削除する行はすべてのセルを空にし、"
        "残す行には空のセルを置きません）: {rows}。" + ROWS_NOTE["ja"],
    },
    "submission.outside_domain": {
        "en": "Column {column} holds values that do not occur in that column of the original "
        "table: {rows}. To generalize, replace each value by a value of the column that occurs "
        "in the original (e.g. every age from 30 to 39 by 35): a range such as 30-39 or a new "
        "label is refused. " + ROWS_NOTE["en"],
        "ja": "列 {column} に元のテーブルのその列にない値があります: {rows}。"
        "一般化するには、各値を元のテーブルのその列にある値で置き換えてください"
        "（例: 30〜39 歳をすべて 35 に）。30-39 のような範囲や新しいラベルは受け付けません。"
        + ROWS_NOTE["ja"],
    },
    "submission.outside_range": {
        "en": "Column {column} must hold numbers from {low} to {high} (both included); outside "
        "that range or not a number at {rows}. " + ROWS_NOTE["en"],
        "ja": "列 {column} には {low} 以上 {high} 以下の数値が必要です。範囲外または数値でない"
        "セル: {rows}。" + ROWS_NOTE["ja"],
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
    "json.utf16": {
        "en": "The JSON file is UTF-16 text, not UTF-8: save it as UTF-8 and try again.",
        "ja": "JSON ファイルが UTF-16 のテキストで、UTF-8 ではありません。UTF-8 で保存し直してください。",
    },
    "json.not_text": {
        "en": "The JSON file is not UTF-8 text (undecodable byte at offset {offset}).",
        "ja": "JSON ファイルが UTF-8 テキストではありません（バイト位置 {offset} に解読できないバイト）。",
    },
    # What the command line prints (not errors): the evaluate table's column labels
    # (split at "|"), its reference-attack line, its summary, and check's verdict.
    "cli.evaluate_columns": {"en": "metric|name|value", "ja": "指標|名前|値"},
    "cli.reference_attack": {"en": "reference attack", "ja": "参照攻撃"},
    "cli.evaluate_summary": {
        "en": "{kept_rows} of {rows} rows kept, {classes} equivalence classes.",
        "ja": "{rows} 行のうち {kept_rows} 行を残し、同値クラスは {classes} 個です。",
    },
    "cli.check_ok": {
        "en": "OK: {rows} rows, {columns} columns; the submission is valid.",
        "ja": "OK: {rows} 行、{columns} 列。提出ファイルは有効です。",
    },
    "cli.too_small": {
        "en": "{option} must be an integer of at least {least}; got {value}.",
        "ja": "{option} は {least} 以上の整数にしてください（指定値: {value}）。",
    },
    # The other commands' success lines (publish, score-attack, anonymize, attack, synth
    # check) and the kit's one usage error.
    "cli.published": {
        "en": "Published {rows} rows to {published}; truth in {truth}.",
        "ja": "{rows} 行を {published} に公開しました。正解は {truth} にあります。",
    },
    "cli.attack_rate": {
        "en": "re-identification rate {rate} ({correct} of {rows} rows)",
        "ja": "再識別率 {rate}（{rows} 行のうち {correct} 行が正解）",
    },
    "cli.wrote_rows": {
        "en": "Wrote {rows} rows ({deleted} deleted) to {output}: {methods}.",
        "ja": "{rows} 行（うち削除 {deleted} 行）を {output} に書き出しました: {methods}。",
    },
    "cli.wrote_guesses": {
        "en": "Wrote {guesses} guesses ({none} without a guess) to {output}: {method}.",
        "ja": "{guesses} 件の推測（うち推測なし {none} 件）を {output} に書き出しました: "
        "{method}。",
    },
    "cli.no_steps": {
        "en": "give --method or --recipe (see --help for the methods)",
        "ja": "--method か --recipe を指定してください（手法は --help を参照）",
    },
    "cli.release_ok": {"en": "ok: {rows} rows", "ja": "OK: {rows} 行"},
    # How a command says it refused (``scoring.cli.main``): the pwscup client's and the
    # usage errors' word in each language, so a Japanese line is not headed in English.
    "cli.error": {"en": "error: {message}", "ja": "エラー: {message}"},
    # A file the command could not open or write (``scoring.cli.main``), by the cause.
    "cli.no_such_file": {
        "en": "{path}: no such file or folder.",
        "ja": "{path}: そのファイルまたはフォルダはありません。",
    },
    "cli.not_allowed": {
        "en": "{path}: not allowed to read or write it.",
        "ja": "{path}: 読み書きする権限がありません。",
    },
    "cli.is_folder": {
        "en": "{path}: a folder, not a file.",
        "ja": "{path}: ファイルではなくフォルダです。",
    },
    "cli.os_error": {
        "en": "{path}: the system refused it ({reason}).",
        "ja": "{path}: システムが処理を拒否しました（{reason}）。",
    },
    "json.in_file": {
        "en": "{path}: {error}",
        "ja": "ファイル {path}: {error}",
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
    "published table": {"ja": "公開テーブル"},
    "the published table": {"ja": "公開テーブル"},
    "the master table": {"ja": "マスター表"},
    "the guesses": {"ja": "推測ファイル"},
    # the separator a header split as (``header.separator``)
    "tab": {"ja": "タブ"},
    "semicolon": {"ja": "セミコロン"},
}
