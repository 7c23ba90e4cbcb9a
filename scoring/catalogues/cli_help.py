"""The help of ``python -m scoring`` (``--help``: each command's and option's text), in
English and Japanese (``help.*``): data only.

Templates are rendered with no parameters (a literal brace is doubled) and given to argparse
as ``help=`` (a literal ``%`` would be doubled too). argparse's own words (``usage:``,
``options``, ``-h``'s text) are ``usage.*``.
"""

# code -> {language: template}
HELP_MESSAGES: dict[str, dict[str, str]] = {
    # python -m scoring: the commands
    "help.description": {
        "en": "Command line: ``python -m scoring COMMAND ...`` (the same code the server runs).",
        "ja": "コマンドライン: ``python -m scoring COMMAND ...``（サーバーが動かすのと同じコード）。",
    },
    "help.lang": {
        "en": "language of messages (default: from LC_ALL, LC_MESSAGES or LANG)",
        "ja": "メッセージの言語（既定: LC_ALL、LC_MESSAGES、LANG から）",
    },
    "help.evaluate": {
        "en": "validate a submission and print all metrics",
        "ja": "提出を検証し、すべての指標を表示する",
    },
    "help.check": {"en": "validate a submission only", "ja": "提出の検証だけをする"},
    "help.publish": {
        "en": "remove deleted rows and shuffle (attack target)",
        "ja": "削除した行を除いて行を並べ替える（攻撃対象）",
    },
    "help.score_attack": {"en": "score a correspondence table", "ja": "対応表を採点する"},
    "help.config_template": {
        "en": "print a starter round configuration",
        "ja": "ラウンド設定のひな形を表示する",
    },
    "help.attr_depth": {
        "en": "print an example attr_depth.json for the QI columns (to edit)",
        "ja": "QI 列の attr_depth.json の例を表示する（編集して使う）",
    },
    "help.anonymize": {
        "en": "anonymize with the starter kit's methods (chainable)",
        "ja": "スターターキットの手法で匿名化する（手法は連結できる）",
    },
    "help.attack": {
        "en": "write a correspondence table with the starter kit's attacks",
        "ja": "スターターキットの攻撃で対応表を書き出す",
    },
    "help.seq": {
        "en": "sequential-release rounds (m-invariance)",
        "ja": "逐次公開のラウンド（m-invariance）",
    },
    "help.dp": {
        "en": "the DP round: epsilon, release, estimate, score, check",
        "ja": "DP ラウンド: epsilon、release、estimate、score、check",
    },
    "help.synth": {
        "en": "the synthetic-data round (release and membership inference)",
        "ja": "合成データのラウンド（公開とメンバーシップ推定）",
    },
    "help.scorer": {
        "en": "an organizer's Codabench-style scoring program",
        "ja": "運営者の Codabench 形式の採点プログラム",
    },
    # their options
    "help.config": {
        "en": "round configuration (JSON file)",
        "ja": "ラウンドの設定（JSON ファイル）",
    },
    "help.range": {
        "en": "the round's range rule of a column (repeat per column)",
        "ja": "列の範囲ルール（列ごとに繰り返して指定）",
    },
    "help.classes": {
        "en": "with an indicators block: write the per-class table (class key, size, m, "
        "exp_h, c, distance)",
        "ja": "indicators ブロックがあるとき: クラスごとの表（クラスキー、サイズ、m、exp_h、"
        "c、distance）を書き出す",
    },
    "help.publish_rows": {
        "en": "publish a random sample of this many rows",
        "ja": "この行数を無作為に選んで公開する",
    },
    "help.truth": {"en": "truth CSV written by publish", "ja": "publish が書き出した正解の CSV"},
    "help.reference_rows": {
        "en": "rows of the reference table, to check guesses are in 1..M (default: unchecked)",
        "ja": "参照テーブルの行数。推測が 1..M にあるかを確かめる（既定: 確かめない）",
    },
    # python -m scoring seq
    "help.seq.check": {
        "en": "validate a team's releases 1..n and print structure, utility and risk",
        "ja": "チームのリリース 1..n を検証し、構造・有用性・リスクを表示する",
    },
    "help.seq.master": {"en": "master.csv", "ja": "master.csv（マスター）"},
    "help.seq.releases": {"en": "release_1.csv … in order", "ja": "release_1.csv …（順に）"},
    "help.seq.per_person": {
        "en": "write risk_per_person.csv to FILE",
        "ja": "risk_per_person.csv を FILE に書き出す",
    },
    "help.seq.baseline": {
        "en": "the starter kit's m-invariant release of step J",
        "ja": "スターターキットによるステップ J の m-invariant なリリース",
    },
    "help.seq.table": {"en": "T(J).csv (or master.csv)", "ja": "T(J).csv（または master.csv）"},
    "help.seq.release": {"en": "the step J, from 1", "ja": "ステップ J（1 から）"},
    "help.seq.previous": {
        "en": "your release_{{J-1}}.csv",
        "ja": "あなたのチームの release_{{J-1}}.csv",
    },
    "help.seq.output": {"en": "release_J.csv to write", "ja": "書き出す release_J.csv"},
}
