"""The client's own messages in English and Japanese, and the language it speaks.

The language: ``$PWSCUP_LANG`` (``ja`` or ``en``), else the system locale as POSIX orders it
(``$LC_ALL``, ``$LC_MESSAGES``, ``$LANG``, then ``locale.getlocale()``), else English. The
server's own messages follow the same choice (the client sends it as Accept-Language).

Why a catalog module and not gettext's ``.mo`` files: the client is standard library only
and installs on its own (``pip install -e .`` or the toolkit wheel). A ``.mo`` file is a
compiled binary: it needs ``msgfmt`` (not in the standard library) at every change and a
package-data entry in ``pyproject.toml`` for setuptools to ship it, and a forgotten build
leaves the client silently English. A Python module ships with the package as it is, and
``tests/pwscup/test_client_language.py`` checks that every ``tr("…")`` of the client has its
Japanese entry here. ``tr`` keeps gettext's shape (the English text is the key), so moving to
gettext later changes only its name; it is not named ``_`` so that Django's ``makemessages``
does not copy the client's messages into the site's catalogue.
"""

import locale
import os

LANGUAGES = ("en", "ja")

JA = {
    # cli.py: usage and progress
    "{value!r}: give the round as COMPETITION/ROUND (its slugs, as in its page's URL)": (
        "{value!r}: ラウンドは COMPETITION/ROUND (ページの URL にある 2 つのスラッグ) の形で"
        "指定してください"
    ),
    "not logged in: run `pwscup login URL` first": (
        "ログインしていません: まず `pwscup login URL` を実行してください"
    ),
    "Create a token on your profile page: {url}": "プロフィールページでトークンを作成してください: {url}",
    "API token: ": "API トークン: ",
    "no token given": "トークンが入力されていません",
    "Logged in to {url} as {user} (token kept in {path}).": (
        "{url} に {user} としてログインしました (トークンの保存先: {path})。"
    ),
    "The site is busy: trying again in {seconds} s.": (
        "サイトが混み合っています。{seconds} 秒後にもう一度送ります。"
    ),
    "The site asks to wait: asking again in {seconds} s.": (
        "サイトから待つよう求められました。{seconds} 秒後にもう一度問い合わせます。"
    ),
    "still {status} after {seconds} s; see `pwscup status`": (
        "{seconds} 秒待ちましたがまだ {status} です。`pwscup status` で確認してください"
    ),
    "failed: {message}": "失敗: {message}",
    "{upload}: no score to show yet.": "{upload}: 表示できるスコアはまだありません。",
    "{value!r}: give a field as NAME=VALUE": "{value!r}: 項目は NAME=VALUE の形で指定してください",
    "This round takes no upload from your team.": "このラウンドにはあなたのチームが提出できるものはありません。",
    "no submission type {key!r} in this round; it takes: {keys}": (
        "このラウンドに提出の種類 {key!r} はありません。提出できる種類: {keys}"
    ),
    "this round takes several uploads; choose one with --type: {keys}": (
        "このラウンドには複数の提出の種類があります。--type で選んでください: {keys}"
    ),
    "give --field {name}=VALUE (one of: {choices})": (
        "--field {name}=VALUE を指定してください (選択肢: {choices})"
    ),
    "give --field {name}=VALUE": "--field {name}=VALUE を指定してください",
    "{label} takes no note; leave out --note": (
        "{label} にはメモを付けられません。--note を外してください"
    ),
    "{label} takes no --field": "{label} には --field で指定する項目がありません",
    "{label} takes no field {name!r}; its fields: {fields}": (
        "{label} には項目 {name!r} がありません。項目: {fields}"
    ),
    "{label}: not open now": "{label}: 現在は受け付けていません",
    "{label}: not open now; to upload {keys}, give --type": (
        "{label}: 現在は受け付けていません。{keys} を提出するには --type を指定してください"
    ),
    "no such file: {path}": "ファイルがありません: {path}",
    "{path} is a folder, not a file": "{path} はフォルダです。ファイルを指定してください",
    "cannot read the file {path}": "ファイル {path} を読めません",
    "re-identification rate hidden until the organizer's rule shows it": (
        "再識別率は運営者の定めた公開時期まで表示されません"
    ),
    "re-identification rate {rate} ({correct} of {rows} rows)": (
        "再識別率 {rate} ({rows} 行中 {correct} 行が正解)"
    ),
    "{user} on {server}": "{server} の {user}",
    "You are in no team yet.": "まだどのチームにも所属していません。",
    "round": "ラウンド",
    "kind": "種類",
    "team": "チーム",
    "window": "期間",
    "state": "状態",
    "opens at": "開始日時",
    "closes at": "締切日時",
    "{at} (planned: {planned})": "{at} (予定: {planned})",
    "about": "内容",
    "status": "状態",
    " (final)": " (最終)",
    " (voided)": " (無効化済み)",
    " (withdrawn)": " (取り消し済み)",
    # formatting.py: the score table (scoring's cli.evaluate_columns, cli.reference_attack,
    # cli.evaluate_summary: tests/pwscup/test_client_language.py keeps them the same)
    "metric": "指標",
    "name": "名前",
    "value": "値",
    "reference attack": "参照攻撃",
    "{kept_rows} of {rows} rows kept, {classes} equivalence classes.": (
        "{rows} 行のうち {kept_rows} 行を残し、同値クラスは {classes} 個です。"
    ),
    # formatting.py: the API's states
    "upcoming": "開始前",
    "open": "受付中",
    "on hold": "保留中",
    "closed": "終了",
    "frozen": "凍結済み",
    "queued": "待機中",
    "running": "採点中",
    "finished": "完了",
    "failed": "失敗",
    "uploaded": "アップロード日時",
    "note": "メモ",
    "remarks": "備考",
    "target": "攻撃対象",
    "rows": "行数",
    "version": "版",
    "Your uploads": "あなたのアップロード",
    "No upload yet.": "まだアップロードはありません。",
    "What this round takes (pwscup submit ROUND FILE --type KEY --field NAME=VALUE)": (
        "このラウンドが受け付ける提出 (pwscup submit ROUND FILE --type KEY --field NAME=VALUE)"
    ),
    "open now": "現在受付中",
    "yes": "はい",
    "no": "いいえ",
    "upload": "アップロード",
    "fields": "項目",
    "(none now)": "(現在なし)",
    " (optional)": " (省略可)",
    "the upload must hold {files}": "提出に必要なファイル: {files}",
    " (and no other file).": "（ほかのファイルは不可）。",
    " (other files may come with them).": "（ほかのファイルも含めて構いません）。",
    " Upload them together in one ZIP file.": (
        "これらを 1 つの ZIP ファイルにまとめてアップロードしてください。"
    ),
    "Nothing to download now.": "現在ダウンロードできるものはありません。",
    "saved {path}": "保存しました: {path}",
    "{title}: empty": "{title}: まだ行がありません",
    # transport.py
    "{message} You may submit again at {at}{wait}.": "{message} 次に提出できるのは {at}{wait} です。",
    ", in {duration}": " (あと {duration})",
    "{hours} h {minutes:02d} min": "{hours} 時間 {minutes:02d} 分",
    "{minutes} min": "{minutes} 分",
    "{seconds} s": "{seconds} 秒",
    "{url}: expected JSON, got {kind}": "{url}: JSON を期待しましたが {kind} が返されました",
    "cannot reach the server {url}: {reason}": "サーバー {url} に接続できません: {reason}",
    "nothing answers there (is the server running, and the address right?)": (
        "応答がありません (サーバーが動いているか、アドレスが正しいか確認してください)"
    ),
    "no such host name (check the address)": "そのホスト名は見つかりません (アドレスを確認してください)",
    "no answer in time": "時間内に応答がありませんでした",
    "the connection was cut": "接続が切れました",
    # cli.py: login's address, an interrupted command
    "{value!r}: give the site's address with http:// or https://, e.g. {example}": (
        "{value!r}: サイトのアドレスは http:// または https:// から指定してください (例: {example})"
    ),
    "{url}: no PWSCup API at this address; give the site's address": (
        "{url}: このアドレスに PWSCup の API はありません。サイトのアドレスを指定してください"
    ),
    "interrupted": "中断しました",
    "this round's attack covers every target at once: give no target (`pwscup attack ROUND FILE`)": (
        "このラウンドの攻撃は 1 回の提出ですべての攻撃対象を攻撃します。攻撃対象は指定しないでください"
        " (`pwscup attack ROUND FILE`)"
    ),
    "give the target team: `pwscup attack ROUND TARGET FILE` (see `pwscup status ROUND`)": (
        "攻撃対象のチームを指定してください: `pwscup attack ROUND TARGET FILE`"
        " (`pwscup status ROUND` で確認できます)"
    ),
    "This round's attack covers every target at once: it names none.": (
        "このラウンドの攻撃は 1 回の提出ですべての攻撃対象を攻撃します（攻撃対象は指定しません）。"
    ),
    "No target's file to download now.": "今ダウンロードできる攻撃対象のファイルはありません。",
    "{name!r} is not a file name: not saved": "{name!r} はファイル名ではありません: 保存しません",
    "this round lists no target for your team now (a round with an attack phase lists the "
    "other teams' releases once they are frozen, never your own); see `pwscup status ROUND` "
    "and `pwscup download ROUND`": (
        "このラウンドには今、あなたのチームの攻撃対象がありません (攻撃フェーズのあるラウンド"
        "では、凍結された他チームの公開データが一覧に出ます。自チームのものは出ません)。"
        "`pwscup status ROUND` と `pwscup download ROUND` を参照してください"
    ),
    "Their files come with `pwscup targets ROUND --download DIR` (each target's in its own "
    "folder) or `pwscup download ROUND`.": (
        "攻撃対象のファイルは `pwscup targets ROUND --download DIR` (攻撃対象ごとのフォルダへ) "
        "または `pwscup download ROUND` でダウンロードします。"
    ),
    "Make a new token on your profile page and run `pwscup login URL` again.": (
        "プロフィールページで新しいトークンを作成し、もう一度 `pwscup login URL` を実行してください。"
    ),
    "permission denied": "権限がありません",
    "a file of that name is in the way": "同じ名前のファイルがあります",
    "no such file or folder": "そのファイルまたはフォルダはありません",
    "not a folder": "フォルダではありません",
    "no space left on the disk": "ディスクに空きがありません",
    "the disk is read-only": "ディスクが読み取り専用です",
    # select (cli.py, uploads.py)
    "make one of your team's uploads its final one": "チームの提出の 1 つを最終提出にする",
    "the upload's number (#n in `pwscup status ROUND`)": "提出の番号 (`pwscup status ROUND` の #n)",
    "which upload type, when the round takes several": "ラウンドに複数の提出の種類があるときに選ぶ",
    "{value!r}: give the upload's number, e.g. 3 or #3": "{value!r}: 提出の番号を指定してください (例: 3 または #3)",
    "In this round your team does not choose its final upload.": (
        "このラウンドではチームが最終提出を選ぶことはありません。"
    ),
    "choose the upload's type with --type: {keys}": "提出の種類を --type で選んでください: {keys}",
    # withdraw (cli.py, withdrawing.py)
    "withdraw one of your team's uploads, where the round allows it": (
        "チームの提出の 1 つを取り消す (ラウンドが認める場合)"
    ),
    "why (optional; the organizers read it)": "理由 (省略可。運営者が読みます)",
    "Upload #{number} no longer counts already.": "提出 #{number} はすでに数えられていません。",
    "your team has no upload #{number} (see `pwscup status ROUND`)": (
        "提出 #{number} はありません (`pwscup status ROUND` を参照)"
    ),
    "Upload #{number} cannot be withdrawn in this round: its Rules tab says which uploads a "
    "team may withdraw.": (
        "提出 #{number} はこのラウンドでは取り消せません。どの提出を取り消せるかはラウンドの"
        "「ルールと採点」タブにあります。"
    ),
    "Withdrawn.": "取り消しました。",
    "your team chooses no final upload of {key!r}; it chooses one of: {keys}": (
        "{key!r} の最終提出は選べません。選べる種類: {keys}"
    ),
    "your team has no upload #{number} of {key!r} (see `pwscup status ROUND`)": (
        "チームの {key!r} の提出 #{number} はありません (`pwscup status ROUND` を参照)"
    ),
    # argparse: descriptions and help
    "Command-line client of the PWSCup platform (REST API, personal token).": (
        "PWSCup プラットフォームのコマンドラインクライアント (REST API、個人用トークン)。"
    ),
    "Credentials are kept in {path} (readable by you only).": (
        "認証情報は {path} に保存されます (あなただけが読めます)。"
    ),
    "store the server's URL and your API token": "サーバーの URL と API トークンを保存する",
    "the platform's address, e.g. https://pwscup.example.org": (
        "プラットフォームのアドレス (例: https://pwscup.example.org)"
    ),
    "read the token from standard input": "トークンを標準入力から読む",
    "COMPETITION/ROUND (slugs)": "COMPETITION/ROUND (スラッグ)",
    "a note for your team (200 characters)": "チーム用のメモ (200 文字まで)",
    "wait until it is scored": "採点が終わるまで待つ",
    "seconds to wait (default 1800)": "待つ秒数 (既定 1800)",
    "no progress lines": "進捗を表示しない",
    "upload a file to the round (the kind of upload the round takes)": (
        "ラウンドにファイルを提出する (ラウンドが受け付ける種類の提出)"
    ),
    "the file to upload (CSV)": "提出するファイル (CSV)",
    "which upload, when the round takes several (see `pwscup status ROUND`)": (
        "ラウンドに複数の提出の種類があるときに選ぶ (`pwscup status ROUND` を参照)"
    ),
    "a field of the upload, e.g. --field step=2 (repeatable)": (
        "提出の項目 (例: --field step=2、繰り返し指定可)"
    ),
    "your rounds, or a round's schedule and your uploads": "参加中のラウンド、またはラウンドの日程と提出",
    "download what your team may download now (data, configuration)": (
        "チームが現在ダウンロードできるもの (データ、設定) をダウンロードする"
    ),
    "folder (default .)": "保存先フォルダ (既定 .)",
    "the round's leaderboard": "ラウンドのリーダーボード",
    "list (and download) the published targets": "公開された攻撃対象の一覧 (とダウンロード)",
    "save the files into DIR": "ファイルを DIR に保存する",
    "upload an attack on a target team (the round's attack file)": (
        "攻撃対象のチームへの攻撃をアップロードする (ラウンドの攻撃ファイル)"
    ),
    "the target team's slug (see `pwscup status ROUND`); none in a round whose "
    "attack covers every target": (
        "すべての攻撃対象を 1 回で攻撃するラウンドでは指定しない、攻撃対象のチームのスラッグ"
        " (`pwscup status ROUND` を参照)"
    ),
    "the attack file (CSV), as the round asks for it": "ラウンドが求める形の攻撃ファイル (CSV)",
    "error: {error}": "エラー: {error}",
    "the file": "ファイル",
    "the note (--note)": "メモ (--note)",
    "the target": "攻撃対象のチーム",
    "--field {name}": "項目 --field {name}",
    # parser.py: argparse's own words, and the seconds of --timeout
    "usage: ": "使い方: ",
    "positional arguments": "位置引数",
    "options": "オプション",
    "show this help message and exit": "このヘルプを表示して終了する",
    "COMMAND": "コマンド",  # the usage line's name for the commands listed under it
    "{value!r}: give a number of seconds in ASCII digits, e.g. 600": (
        "{value!r}: 秒数は半角の数字で指定してください (例: 600)"
    ),
    # parser.py: argparse's refusals of a command line, as it words them (prog: error: …)
    "the following arguments are required: {names}": "次の引数が必要です: {names}",
    "unrecognized arguments: {arguments}": "認識できない引数です: {arguments}",
    "ambiguous option: {option} could match {matches}": (
        "オプション {option} があいまいです ({matches} のどれにも当てはまります)"
    ),
    "argument {argument}: {message}": "引数 {argument}: {message}",
    "invalid choice: {value} (choose from {choices})": (
        "選べない値です: {value} (選べるのは {choices})"
    ),
    "invalid {type} value: {value}": "{type} の値として読めません: {value}",
    "expected one argument": "値が 1 つ必要です",
    "ignored explicit argument {value}": "このオプションは値を取りません: {value}",
    # choosing.py: a round's data packs (status) and the team's pick (choose)
    "pick your team's data pack in a round that offers several": (
        "複数のデータパックがあるラウンドで、チームのデータを選ぶ"
    ),
    "the pack's key (see `pwscup status ROUND`)": (
        "データパックのキー (`pwscup status ROUND` を参照)"
    ),
    "Data packs (pwscup choose ROUND KEY)": "データパック (pwscup choose ROUND KEY)",
    "key": "キー",
    "data pack": "データパック",
    "Your team has not picked: it plays on {pack}.": (
        "チームはまだ選択していません: {pack} を使います。"
    ),
    "Your team's data: {pack}": "チームのデータ: {pack}",
    " · locked": " · 確定",
    "This round offers no choice of data packs.": "このラウンドにはデータパックの選択肢がありません。",
    "{key!r} is not one of the round's data packs: {keys}": (
        "{key!r} はこのラウンドのデータパックではありません: {keys}"
    ),
}


def language() -> str:
    """``ja`` or ``en``: ``$PWSCUP_LANG``, else the locale (POSIX order), else ``en``."""
    for name in ("PWSCUP_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "").strip()
        if value:
            return _code(value)
    try:
        value = locale.getlocale()[0] or ""
    except ValueError:  # an unknown locale name in the environment
        value = ""
    return _code(value)


def _code(value: str) -> str:
    return "ja" if value.lower().startswith("ja") else "en"


def tr(text: str, lang: str | None = None) -> str:
    """``text`` (the English message, also the key) in ``lang``, by default the client's
    language."""
    if (lang or language()) == "ja":
        return JA.get(text, text)
    return text
