"""The organizer's scoring program's message codes (``scorer.*``, docs/scorer.md): data only.

Part of the one catalogue of :func:`scoring.messages.render`. ``tail`` is always the last
lines the program printed (already bounded), shown as they are in every language.
"""

SCORER_MESSAGES: dict[str, dict[str, str]] = {
    # -- the program's ZIP and its metadata (checked when the organizer uploads it)
    "scorer.zip.not_zip": {
        "en": "The {what} is not a ZIP file (or it is damaged).",
        "ja": "{what}が ZIP ファイルではありません（または壊れています）。",
    },
    "scorer.zip.too_many": {
        "en": "The {what} holds {count} members; at most {limit} are allowed.",
        "ja": "{what}のメンバーは {count} 個です。上限は {limit} 個です。",
    },
    "scorer.zip.too_large": {
        "en": "The {what} takes more than {limit} bytes once decompressed.",
        "ja": "{what}は展開すると {limit} バイトを超えます。",
    },
    "scorer.zip.bad_member": {
        "en": "The {what}'s member {name} is refused: {problem}.",
        "ja": "{what}のメンバー {name} は受け付けられません: {problem}。",
    },
    "scorer.zip.unreadable": {
        "en": "The {what}'s member {name} cannot be read: the ZIP is damaged or uses an "
        "unknown compression.",
        "ja": "{what}のメンバー {name} を読めません。ZIP が壊れているか、未知の圧縮方式です。",
    },
    "scorer.metadata.missing": {
        "en": "The scoring program has no metadata file (metadata or metadata.yaml at its top "
        "level).",
        "ja": "採点プログラムに metadata ファイル（最上位の metadata または metadata.yaml）が"
        "ありません。",
    },
    "scorer.metadata.invalid": {
        "en": "The scoring program's metadata is not a YAML mapping of keys to values ({detail}).",
        "ja": "採点プログラムの metadata がキーと値の YAML マッピングではありません（{detail}）。",
    },
    "scorer.metadata.key": {
        "en": "The scoring program's metadata key {key} is invalid: {detail}.",
        "ja": "採点プログラムの metadata のキー {key} が正しくありません: {detail}。",
    },
    # why the metadata is not a mapping: the ``detail`` of scorer.metadata.invalid
    "scorer.metadata.too_large": {
        "en": "it is larger than {limit} bytes",
        "ja": "{limit} バイトを超えています",
    },
    "scorer.metadata.encoding": {
        "en": "it is not UTF-8 text",
        "ja": "UTF-8 のテキストではありません",
    },
    "scorer.metadata.not_yaml": {
        "en": "it is not valid YAML",
        "ja": "YAML として正しくありません",
    },
    "scorer.metadata.yaml_at": {
        "en": "it is not valid YAML at line {line}, column {column}",
        "ja": "{line} 行目 {column} 文字目が YAML として正しくありません",
    },
    "scorer.metadata.not_mapping": {
        "en": "its top level is not a mapping, or a key is not text",
        "ja": "最上位がマッピングではないか、テキストでないキーがあります",
    },
    # what is wrong with a metadata key's value: the ``detail`` of scorer.metadata.key
    "scorer.metadata.want_text": {
        "en": "expected non-empty text",
        "ja": "空でないテキストが必要です",
    },
    "scorer.metadata.no_file": {
        "en": "the program has no file {name}",
        "ja": "プログラムにファイル {name} がありません",
    },
    "scorer.metadata.want_variables": {
        "en": "expected at most {limit} lines NAME: value",
        "ja": "「名前: 値」の形の行が {limit} 個以下必要です",
    },
    "scorer.metadata.name_refused": {
        "en": "the name {name} is not allowed",
        "ja": "名前 {name} は使えません",
    },
    "scorer.metadata.not_plain": {
        "en": "{name} is not plain text or a number",
        "ja": "{name} の値がテキストでも数値でもありません",
    },
    "scorer.metadata.too_long": {
        "en": "{name} is longer than {limit} characters or holds a NUL character",
        "ja": "{name} の値が {limit} 文字を超えているか、NUL 文字を含んでいます",
    },
    "scorer.metadata.want_folder": {
        "en": "expected a folder under /app outside /app/program, /app/output, /app/shared",
        "ja": "/app の下で、/app/program・/app/output・/app/shared の外にあるフォルダーが必要です",
    },
    "scorer.metadata.want_files": {
        "en": "expected a list of file names",
        "ja": "ファイル名のリストが必要です",
    },
    "scorer.metadata.not_relative": {
        "en": "{name} is not a relative path inside the program",
        "ja": "{name} はプログラム内の相対パスではありません",
    },
    "scorer.metadata.no_commands": {
        "en": "The scoring program's metadata names no command: give command (run for every "
        "upload), or release_command and attack_command.",
        "ja": "採点プログラムの metadata にコマンドがありません。command（すべての実行に使います）、"
        "または release_command と attack_command を書いてください。",
    },
    "scorer.metadata.no_command": {
        "en": "The scoring program's metadata names no command for {kind} (key {key} or command).",
        "ja": "採点プログラムの metadata に{kind}のコマンド（キー {key} または command）が"
        "ありません。",
    },
    "scorer.metadata.no_ranking_command": {
        "en": "The scoring program's metadata names no ranking command (key ranking_command).",
        "ja": "採点プログラムの metadata に順位付けのコマンド（キー ranking_command）が"
        "ありません。",
    },
    "scorer.run.release": {"en": "releases", "ja": "公開データ"},
    "scorer.run.attack": {"en": "attacks", "ja": "攻撃"},
    "scorer.requirements.line": {
        "en": "Line {line} of the requirements file is not a pinned requirement "
        "(name==version): {text}.",
        "ja": "requirements ファイルの {line} 行目が固定バージョンの指定（name==version）では"
        "ありません: {text}。",
    },
    "scorer.requirements.too_large": {
        "en": "The requirements file is larger than {limit} bytes.",
        "ja": "requirements ファイルが {limit} バイトを超えています。",
    },
    "scorer.build.failed": {
        "en": "The scoring program's environment could not be built (pip exited with status "
        "{status}); the end of the build's log:\n{tail}",
        "ja": "採点プログラムの実行環境を構築できませんでした（pip の終了ステータス {status}）。"
        "構築ログの末尾:\n{tail}",
    },
    "scorer.build.timeout": {
        "en": "The scoring program's environment was not built within {seconds} s.",
        "ja": "採点プログラムの実行環境の構築が {seconds} 秒以内に終わりませんでした。",
    },
    # -- a run: the program's verdict (refused) or its misbehaviour
    "scorer.ok": {
        "en": "The scoring program finished.",
        "ja": "採点プログラムが終了しました。",
    },
    "scorer.exit": {
        "en": "The scoring program refused the submission (exit status {status}). It printed "
        "last:\n{tail}",
        "ja": "採点プログラムが提出を受け付けませんでした（終了ステータス {status}）。"
        "最後の出力:\n{tail}",
    },
    "scorer.signal": {
        "en": "The scoring program was stopped by signal {signal}. It printed last:\n{tail}",
        "ja": "採点プログラムがシグナル {signal} で停止しました。最後の出力:\n{tail}",
    },
    "scorer.memory": {
        "en": "The scoring program ran out of memory (the limit is {limit_mb} MB). It printed "
        "last:\n{tail}",
        "ja": "採点プログラムがメモリの上限（{limit_mb} MB）を超えました。最後の出力:\n{tail}",
    },
    "scorer.timeout": {
        "en": "The scoring program did not finish within {seconds} s and was stopped. It "
        "printed last:\n{tail}",
        "ja": "採点プログラムが {seconds} 秒以内に終わらなかったため停止しました。"
        "最後の出力:\n{tail}",
    },
    "scorer.printed_too_much": {
        "en": "The scoring program printed more than {limit} bytes and was stopped. It printed "
        "last:\n{tail}",
        "ja": "採点プログラムの出力が {limit} バイトを超えたため停止しました。最後の出力:\n{tail}",
    },
    "scorer.output_too_large": {
        "en": "The scoring program's output folder grew beyond {limit} bytes or {files} files "
        "and the program was stopped.",
        "ja": "採点プログラムの出力フォルダーが {limit} バイトまたは {files} ファイルを超えたため"
        "停止しました。",
    },
    "scorer.scores.missing": {
        "en": "The scoring program finished without writing scores.json in its output folder.",
        "ja": "採点プログラムは出力フォルダーに scores.json を書かずに終了しました。",
    },
    "scorer.scores.json": {
        "en": "The scoring program's scores.json is not valid: {detail}",
        "ja": "採点プログラムの scores.json が正しくありません: {detail}",
    },
    "scorer.scores.shape": {
        "en": "The scoring program's scores.json must be an object of score names to numbers "
        '(with an optional "targets" object); {detail}.',
        "ja": "採点プログラムの scores.json はスコア名から数値へのオブジェクト（任意で "
        '"targets" オブジェクト）でなければなりません。{detail}。',
    },
    # what is wrong with a scores.json of the wrong shape: the ``detail`` of scorer.scores.shape
    "scorer.scores.not_object": {
        "en": "it is not an object",
        "ja": "オブジェクトではありません",
    },
    "scorer.scores.targets_not_object": {
        "en": '"targets" is not an object of objects',
        "ja": '"targets" がオブジェクトのオブジェクトではありません',
    },
    "scorer.scores.target_not_object": {
        "en": '"targets"/{team} is not an object',
        "ja": '"targets"/{team} がオブジェクトではありません',
    },
    "scorer.scores.bad_name": {
        "en": "the name {name} is empty or longer than {limit} characters",
        "ja": "名前 {name} が空か、{limit} 文字を超えています",
    },
    "scorer.scores.too_many": {
        "en": "{where} has more than {limit} names",
        "ja": "{where} の名前が {limit} 個を超えています",
    },
    "scorer.scores.not_number": {
        "en": "{where}: the value of {key} is not a number",
        "ja": "{where}: {key} の値が数値ではありません",
    },
    "scorer.scores.primary": {
        "en": "The scoring program's scores.json has no primary score {key}.",
        "ja": "採点プログラムの scores.json に主スコア {key} がありません。",
    },
    "scorer.public.missing": {
        "en": "The scoring program wrote no public/ folder and not the file {name} its metadata "
        "names for attackers.",
        "ja": "採点プログラムは public/ フォルダーも、metadata が攻撃者向けに指定するファイル "
        "{name} も書きませんでした。",
    },
    "scorer.file_too_large": {
        "en": "The scoring program's {name} is larger than {limit} bytes.",
        "ja": "採点プログラムの {name} が {limit} バイトを超えています。",
    },
    "scorer.submission.unreadable": {
        "en": "The submission could not be read: {detail}",
        "ja": "提出ファイルを読めませんでした: {detail}",
    },
    # -- the files an upload must hold (the round's release_files / attack_files)
    "scorer.files.missing": {
        "en": "The upload holds no file matching {pattern} (the round requires {required}; "
        "the upload holds {held}).",
        "ja": "アップロードに {pattern} に一致するファイルがありません（このラウンドでは "
        "{required} が必要です。アップロードにあるのは {held} です）。",
    },
    "scorer.files.missing_zip": {
        "en": "The upload holds only {held}, but the round requires {required}: put them in "
        "one ZIP file and upload it.",
        "ja": "アップロードにあるのは {held} だけですが、このラウンドでは {required} が必要です。"
        "それらを 1 つの ZIP ファイルにまとめてアップロードしてください。",
    },
    "scorer.files.empty": {
        "en": "The upload holds no file (the round requires {required}).",
        "ja": "アップロードにファイルがありません（このラウンドでは {required} が必要です）。",
    },
    "scorer.files.not_zip": {
        "en": "{name} is not a ZIP file that can be read (it is damaged, or another file was "
        "renamed): the round requires {required}; put them in one ZIP file and upload it.",
        "ja": "{name} は読み取れる ZIP ファイルではありません（壊れているか、別の形式のファイルの"
        "名前を変えたものです）。このラウンドでは {required} が必要です。それらを 1 つの ZIP "
        "ファイルにまとめてアップロードしてください。",
    },
    "scorer.files.unexpected": {
        "en": "The upload holds {name}, which the round does not accept: it takes only {required}.",
        "ja": "アップロードに含まれる {name} はこのラウンドでは受け付けられません。"
        "受け付けるのは {required} だけです。",
    },
    # -- the platform's own failures (the team is not at fault)
    "scorer.sandbox.failed": {
        "en": "The scoring sandbox could not start (a fault of the platform, not of the "
        "submission):\n{tail}",
        "ja": "採点用サンドボックスを起動できませんでした（提出ではなくプラットフォームの"
        "障害です）:\n{tail}",
    },
    "scorer.sandbox.unreachable": {
        "en": "The sandbox's user cannot read {path}: every folder above it must be "
        "searchable by others (a fault of the platform's setup).",
        "ja": "サンドボックスのユーザーが {path} を読めません。上位のフォルダーすべてに"
        "他ユーザーの検索権限が必要です（プラットフォーム設定の問題です）。",
    },
    "scorer.sandbox.missing": {
        "en": "The scoring sandbox needs {tool}, which this host does not have (apt-get "
        "install {package}).",
        "ja": "採点用サンドボックスには {tool} が必要ですが、このホストにはありません"
        "（apt-get install {package}）。",
    },
    "scorer.sandbox.template": {
        "en": "The platform's sandbox command template cannot be used: {detail} (a fault of the "
        "platform's setup, not of the submission).",
        "ja": "プラットフォームのサンドボックス用コマンドテンプレートを使えません: {detail}"
        "（提出ではなくプラットフォーム設定の問題です）。",
    },
    # why the sandbox command template cannot be used: the ``detail`` of scorer.sandbox.template
    "scorer.sandbox.no_word": {
        "en": "the template has no {word} word of its own",
        "ja": "テンプレートに単独の語 {word} がありません",
    },
    "scorer.sandbox.unsplittable": {
        "en": "{setting} cannot be split into words (a quotation mark is not closed, or it "
        "ends with a backslash)",
        "ja": "{setting} を語に分けられません（引用符が閉じていないか、末尾がバックスラッシュ"
        "です）",
    },
    "scorer.sandbox.empty": {
        "en": "{setting} is empty",
        "ja": "{setting} が空です",
    },
    "scorer.sandbox.bad_field": {
        "en": "{setting}: the word {word} has an unknown or malformed {{…}} field",
        "ja": "{setting}: 語 {word} に未知または不正な {{…}} フィールドがあります",
    },
    # -- an attack's targets (given by the platform) and a round's settings (the organizer's)
    "scorer.targets.name": {
        "en": "The attack's target name {name} is invalid: expected 1 to 64 letters a-z or "
        "A-Z, digits, - or _, starting with a letter or a digit (a fault of the platform).",
        "ja": "攻撃対象の名前 {name} が正しくありません。英字（a-z, A-Z）・数字・-・_ の 1〜64 "
        "文字で、英字か数字で始まる必要があります（プラットフォームの問題です）。",
    },
    "scorer.attacks.name": {
        "en": "The counted attack's folder name {name} is invalid: expected the attacker's "
        "name and the upload's number, each 1 to 64 letters a-z or A-Z, digits, - or _ "
        "(a fault of the platform).",
        "ja": "集計対象の攻撃のフォルダ名 {name} が正しくありません。攻撃チームの名前と投稿の番号が"
        "必要で、それぞれ英字（a-z, A-Z）・数字・-・_ の 1〜64 文字です（プラットフォームの問題です）。",
    },
    # -- the counted attacks of an organizer's trial ranking run (scorer run --attacks DIR)
    "scorer.attacks_dir.kind": {
        "en": "--attacks gives the counted attacks' files to a ranking run: use it with "
        "--kind ranking, not --kind {kind}.",
        "ja": "--attacks は集計対象の攻撃のファイルを順位付けの実行に渡すオプションです。"
        "--kind {kind} ではなく --kind ranking と一緒に指定してください。",
    },
    "scorer.attacks_dir.missing": {
        "en": "The attacks folder {path} does not exist (or is not a folder).",
        "ja": "攻撃のフォルダ {path} がありません（またはフォルダではありません）。",
    },
    "scorer.attacks_dir.layout": {
        "en": "{path} is not laid out as the ranking run's attacks: the folder given to "
        "--attacks holds a folder per attacker, named as its team, each holding a folder per "
        "upload (its number), named with 1 to 64 letters a-z or A-Z, digits, - or _, starting "
        "with a letter or a digit; the upload's files go in that folder.",
        "ja": "{path} は順位付けの実行に渡す攻撃の並びになっていません。--attacks に指定する"
        "フォルダには攻撃チームごとにチーム名のフォルダを置き、その中にアップロードごとに番号の"
        "フォルダを置きます。名前はそれぞれ英字（a-z, A-Z）・数字・-・_ の 1〜64 文字で、英字か"
        "数字で始まります。アップロードのファイルはそのフォルダに入れます。",
    },
    "scorer.attacks_dir.upload": {
        "en": "The upload {path} cannot be laid out as the platform lays it out: {reason}",
        "ja": "アップロード {path} をプラットフォームと同じように展開できません: {reason}",
    },
    "scorer.config.not_object": {
        "en": "The round's settings must be a JSON object of keys to values.",
        "ja": "ラウンドの設定はキーと値の JSON オブジェクトである必要があります。",
    },
    "scorer.config.unknown": {
        "en": "The round's settings hold an unknown key {key}; the known keys are {known}.",
        "ja": "ラウンドの設定に未知のキー {key} があります。使えるキーは {known} です。",
    },
    "scorer.config.value": {
        "en": "The round's setting {key} is {value}; expected {expected}.",
        "ja": "ラウンドの設定 {key} の値 {value} は正しくありません。{expected}が必要です。",
    },
    "scorer.config.duplicate": {
        "en": "The round's setting {key} names the column {value} twice.",
        "ja": "ラウンドの設定 {key} で列 {value} が 2 回指定されています。",
    },
    "scorer.config.column": {
        "en": "The round's setting {key} is {value}, which is not one of the columns ({columns}).",
        "ja": "ラウンドの設定 {key} の値 {value} は列（{columns}）のいずれでもありません。",
    },
    "scorer.config.reserved_release": {
        "en": "The round's setting {key} is {value}: that name is the ranking program's release "
        "number in a round total's formula; choose another key.",
        "ja": "ラウンドの設定 {key} の値 {value} は使えません。この名前は合計の式で順位付け"
        "プログラムの公開データの値を表します。別のキーにしてください。",
    },
    "scorer.config.reserved_attack": {
        "en": "The round's setting {key} is {value}: that name is the ranking program's attack "
        "number in a round total's formula; choose another key.",
        "ja": "ラウンドの設定 {key} の値 {value} は使えません。この名前は合計の式で順位付け"
        "プログラムの攻撃の値を表します。別のキーにしてください。",
    },
}

# Descriptions passed as ``what``, and the reasons a ZIP member is refused (``problem``).
SCORER_TERMS: dict[str, dict[str, str]] = {
    "scoring program": {"ja": "採点プログラム"},
    "submission ZIP": {"ja": "提出ファイル"},
    "data pack": {"ja": "データパック"},
    "an absolute path": {"ja": "絶対パスです"},
    "a backslash in its name": {"ja": "名前にバックスラッシュがあります"},
    "a parent folder (..) in its name": {"ja": "名前に親フォルダー (..) があります"},
    "an empty part, a dot part or a control character in its name": {
        "ja": "名前に空の部分、ドットだけの部分または制御文字があります"
    },
    "it is given twice": {"ja": "同じ名前が 2 回あります"},
    "a name too long (a part over 255 bytes, or over 1,024 bytes in all)": {
        "ja": "名前が長すぎます（一部が 255 バイト超、または全体が 1,024 バイト超）"
    },
    "a symbolic link": {"ja": "シンボリックリンクです"},
    "encrypted": {"ja": "暗号化されています"},
}
