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
        "en": "language of messages (default: from PWSCUP_LANG, LC_ALL, LC_MESSAGES or LANG)",
        "ja": "メッセージの言語（既定: PWSCUP_LANG、LC_ALL、LC_MESSAGES、LANG から）",
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
        "ja": "スターターキットの手法で匿名加工する（手法は連結できる）",
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
        "ja": "チームの公開データ 1..n を検証し、構造・有用性・リスクを表示する",
    },
    "help.seq.master": {"en": "master.csv", "ja": "master.csv（マスター）"},
    "help.seq.releases": {"en": "release_1.csv … in order", "ja": "release_1.csv …（順に）"},
    "help.seq.per_person": {
        "en": "write risk_per_person.csv to FILE",
        "ja": "risk_per_person.csv を FILE に書き出す",
    },
    "help.seq.baseline": {
        "en": "the starter kit's m-invariant release of step J",
        "ja": "スターターキットによるステップ J の m-invariant な公開データ",
    },
    "help.seq.table": {"en": "T(J).csv (or master.csv)", "ja": "T(J).csv（または master.csv）"},
    "help.seq.release": {"en": "the step J, from 1", "ja": "ステップ J（1 から）"},
    "help.seq.previous": {
        "en": "your release_{{J-1}}.csv",
        "ja": "あなたのチームの release_{{J-1}}.csv",
    },
    "help.seq.output": {"en": "release_J.csv to write", "ja": "書き出す release_J.csv"},
    # python -m scoring anonymize, attack (the kit)
    "help.kit.attr_depth_file": {
        "en": "attr_depth.json (generalization hierarchy)",
        "ja": "attr_depth.json（一般化の階層）",
    },
    "help.kit.recipe": {
        "en": 'JSON list of steps: [{{"method": ..., "params": {{...}}}}]',
        "ja": 'ステップの JSON のリスト: [{{"method": ..., "params": {{...}}}}]',
    },
    "help.kit.method": {"en": "a method (repeat to chain)", "ja": "手法（繰り返して連結する）"},
    "help.kit.param": {
        "en": "KEY=VALUE for the latest --method",
        "ja": "直前の --method の KEY=VALUE",
    },
    "help.kit.seed": {"en": "seed of the random methods", "ja": "乱数を使う手法のシード"},
    "help.kit.published": {
        "en": "the published target (its rows are shuffled)",
        "ja": "公開された攻撃対象（行は並べ替え済み）",
    },
    "help.kit.reference": {
        "en": "the original table, or the candidate table",
        "ja": "元のテーブル、または候補のテーブル",
    },
    "help.kit.attack_method": {
        "en": "the attack (default: lecture)",
        "ja": "攻撃（既定: lecture）",
    },
    "help.kit.attack_param": {"en": "KEY=VALUE for the attack", "ja": "攻撃の KEY=VALUE"},
    "help.kit.attack_seed": {"en": "seed of E1's random pick", "ja": "E1 の無作為な選択のシード"},
    # python -m scoring dp
    "help.dp.epsilon": {
        "en": "eq. 6/7: epsilon and k from rho's, or rho from epsilon",
        "ja": "式 6/7: rho から epsilon と k を、または epsilon から rho を求める",
    },
    "help.dp.sizes": {
        "en": "domain size of each group, e.g. 2,7",
        "ja": "各グループの定義域の大きさ（例: 2,7）",
    },
    "help.dp.rho": {
        "en": "rho of each group (one value: every group)",
        "ja": "各グループの rho（値が 1 つならすべてのグループに）",
    },
    "help.dp.epsilons": {
        "en": "epsilon of each group, decimal or p/q (one value: every group)",
        "ja": "各グループの epsilon、小数または p/q（値が 1 つならすべてのグループに）",
    },
    "help.dp.total": {
        "en": "total epsilon: the one rho of every group that spends it (eq. 6)",
        "ja": "epsilon の合計: それを使い切る、全グループ共通の rho（式 6）",
    },
    "help.dp.rows": {"en": "N, for k (eq. 7)", "ja": "N（k を求めるため、式 7）"},
    "help.dp.groups": {
        "en": "ATTR[+ATTR...]:rho=R or ATTR[+ATTR...]:epsilon=E",
        "ja": "ATTR[+ATTR...]:rho=R または ATTR[+ATTR...]:epsilon=E",
    },
    "help.dp.declaration": {
        "en": "release declaration (JSON, spec §7.3)",
        "ja": "公開の宣言（JSON、仕様 §7.3）",
    },
    "help.dp.release": {
        "en": "a Pk-anonymized release of a local table (practice)",
        "ja": "手元のテーブルの Pk-匿名化開示（練習用）",
    },
    "help.dp.seed": {
        "en": "reproducible draw (default: OS randomness)",
        "ja": "再現できる乱数の種（既定: OS の乱数）",
    },
    "help.dp.no_shuffle": {
        "en": "keep row i derived from row i (declared mode)",
        "ja": "i 行目から作った行を i 行目のままにする（宣言モード）",
    },
    "help.dp.estimate": {
        "en": "BT, BR (eq. 3) or BI estimate.csv from a release",
        "ja": "開示データから BT、BR（式 3）または BI の estimate.csv を作る",
    },
    "help.dp.score": {
        "en": "L2 and Spearman of estimate.csv per target and overall",
        "ja": "estimate.csv の L2 と Spearman（対象ごとと全体）",
    },
    "help.dp.truth": {
        "en": "the table (CSV) holding the true histograms",
        "ja": "真の集計表を持つテーブル（CSV）",
    },
    "help.dp.check": {
        "en": "the server's check of estimate.csv (verdict and message)",
        "ja": "サーバーと同じ estimate.csv の検査（判定とメッセージ）",
    },
    # python -m scoring synth
    "help.synth.describe": {
        "en": "what the kit needs of the original table",
        "ja": "キットが元のテーブルから必要とするもの",
    },
    "help.synth.check": {
        "en": "check a release as the server does",
        "ja": "サーバーと同じように公開データを検査する",
    },
    "help.synth.score_release": {
        "en": "U_ML, U_1, U_2, R_copy, DCR_5 of a release",
        "ja": "公開データの U_ML、U_1、U_2、R_copy、DCR_5",
    },
    "help.synth.baseline": {
        "en": "the sample release (independent marginals)",
        "ja": "サンプルの公開データ（独立な周辺分布）",
    },
    "help.synth.attack_dcr": {"en": "the sample attack (DCR)", "ja": "見本の攻撃（DCR）"},
    "help.synth.attack_density": {
        "en": "the built-in density attack (the round's bandwidth)",
        "ja": "組み込みの密度攻撃（ラウンドのバンド幅）",
    },
    "help.synth.practice": {
        "en": "a labelled practice split of the auxiliary table",
        "ja": "補助テーブルをラベル付きの練習用に分割する",
    },
    "help.synth.score_attack": {
        "en": "AUC, TPR@FPR, advantage of an answer",
        "ja": "回答の AUC、TPR@FPR、advantage",
    },
    # python -m scoring scorer run
    "help.scorer.run": {
        "en": "run a scoring program on a submission in the sandbox",
        "ja": "サンドボックスで提出に採点プログラムを実行する",
    },
    "help.scorer.program": {
        "en": "the program's ZIP (or its folder)",
        "ja": "プログラムの ZIP（またはそのフォルダ）",
    },
    "help.scorer.submission": {
        "en": "the submission (a ZIP is unzipped)",
        "ja": "提出（ZIP は展開する）",
    },
    "help.scorer.reference": {
        "en": "the reference data folder (ref/)",
        "ja": "参照データのフォルダ（ref/）",
    },
    "help.scorer.truth": {"en": "the hidden truth folder", "ja": "非公開の正解のフォルダ"},
    "help.scorer.context": {
        "en": "a JSON file given as input/context.json",
        "ja": "input/context.json として渡す JSON ファイル",
    },
    "help.scorer.output": {
        "en": "the folder that receives the output",
        "ja": "出力を受け取るフォルダ",
    },
    "help.scorer.target": {
        "en": "an attack's target: DIR bound at /app/input/targets/NAME (repeatable)",
        "ja": "攻撃の対象: DIR を /app/input/targets/NAME に割り当てる（繰り返し指定可）",
    },
    "help.scorer.attacks": {
        "en": "a ranking run's counted attacks: DIR/<attacker>/<upload>/ bound at "
        "/app/input/attacks/<attacker>/<upload>/ (a lone ZIP is unpacked)",
        "ja": "順位付けの実行に渡す集計対象の攻撃: DIR/<攻撃チーム>/<アップロード>/ を "
        "/app/input/attacks/<攻撃チーム>/<アップロード>/ に割り当てる（単独の ZIP は展開する）",
    },
    "help.scorer.primary_key": {
        "en": "the score scores.json must hold",
        "ja": "scores.json に必ずあるべきスコア",
    },
    "help.scorer.timeout": {"en": "seconds (default 300)", "ja": "秒数（既定 300）"},
    "help.scorer.memory": {"en": "MB (default 2048)", "ja": "MB（既定 2048）"},
    "help.scorer.cache": {
        "en": "environments' cache (default {cache})",
        "ja": "環境のキャッシュ（既定 {cache}）",
    },
    "help.scorer.sandbox_command": {
        "en": "a container runtime's command line in place of bubblewrap (docs/operations.md)",
        "ja": "bubblewrap に代わるコンテナランタイムのコマンド（docs/operations.md）",
    },
}
