"""The DP round's message catalogue (spec dp-round.md §12): data only.

Each code maps to its English and Japanese templates. It is kept apart from
:mod:`scoring.dp.errors`, which fills these templates and raises
:class:`~scoring.dp.errors.DPError`: the catalogue reads (and is translated) as one table
of text, and imports only the library's note on row numbers (``ROWS_NOTE``) and the
messages about the uploaded files (``file_messages.py``).
"""

from scoring.catalogues.core import ROWS_NOTE
from scoring.dp.file_messages import FILE_MESSAGES

ROWS_EN, ROWS_JA = ROWS_NOTE["en"], ROWS_NOTE["ja"]  # how rows are numbered

# code -> {language: template}; placeholders are str.format fields of ``params``.
DP_MESSAGES: dict[str, dict[str, str]] = {
    # configuration (§10, §12)
    "dp.config.not_object": {
        "en": "The round configuration must be a JSON object",
        "ja": "ラウンド設定は JSON オブジェクトでなければなりません",
    },
    "dp.config.not_json": {
        "en": "The round configuration cannot be read: {detail}",
        "ja": "ラウンド設定を読み取れません: {detail}",
    },
    "dp.config.unknown_key": {
        "en": "Unknown key '{key}' in the round configuration; known keys: {known}",
        "ja": "ラウンド設定に不明なキー '{key}' があります。使えるキー: {known}",
    },
    "dp.config.missing_key": {
        "en": "The round configuration lacks '{key}'",
        "ja": "ラウンド設定に '{key}' がありません",
    },
    "dp.config.bad_value": {
        "en": "'{key}' must be {expected} (got {value})",
        "ja": "'{key}' は{expected}でなければなりません（値: {value}）",
    },
    "dp.attr.too_few": {
        "en": "Attribute '{attribute}' needs at least 2 values",
        "ja": "属性 '{attribute}' には少なくとも 2 つの値が必要です",
    },
    "dp.attr.duplicate": {
        "en": "Attribute '{attribute}' has a duplicate value '{value}' "
        "(positions {first} and {second})",
        "ja": "属性 '{attribute}' に重複した値 '{value}' があります（{first} 番目と {second} 番目）",
    },
    "dp.attr.empty_value": {
        "en": "Attribute '{attribute}' has an empty value (position {position})",
        "ja": "属性 '{attribute}' に空の値があります（{position} 番目）",
    },
    "dp.numeric.range": {
        "en": "Numeric column '{column}' needs a range [lo, hi] of finite numbers with lo < hi",
        "ja": "数値列 '{column}' には lo < hi の有限な数の範囲 [lo, hi] が必要です",
    },
    "dp.target.id_form": {
        "en": "Target id '{target}' is not valid: use 1 to {max} letters, digits, hyphens, "
        "underscores or dots (not first)",
        "ja": "対象 ID '{target}' は使えません。英数字・ハイフン・アンダースコア・ドット（先頭以外）"
        "の 1〜{max} 文字にしてください",
    },
    "dp.target.duplicate": {
        "en": "Target id '{target}' appears more than once in the workload",
        "ja": "ワークロードに対象 ID '{target}' が 2 回以上あります",
    },
    "dp.target.unknown_attribute": {
        "en": "Target '{target}' names unknown attribute '{attribute}'",
        "ja": "対象 '{target}' が未知の属性 '{attribute}' を指定しています",
    },
    "dp.target.repeated_attribute": {
        "en": "Target '{target}' names attribute '{attribute}' twice",
        "ja": "対象 '{target}' が属性 '{attribute}' を 2 回指定しています",
    },
    "dp.target.empty": {
        "en": "Target '{target}' names no attribute",
        "ja": "対象 '{target}' に属性がありません",
    },
    "dp.target.too_many_cells": {
        "en": "Target '{target}' has {cells} cells; the limit is {limit}",
        "ja": "対象 '{target}' のセル数は {cells} です。上限は {limit} です",
    },
    "dp.level.id_form": {
        "en": "Level id '{level}' is not valid: use 1 to {max} letters, digits, hyphens, "
        "underscores or dots (not first)",
        "ja": "レベル ID '{level}' は使えません。英数字・ハイフン・アンダースコア・ドット（先頭以外）"
        "の 1〜{max} 文字にしてください",
    },
    "dp.level.duplicate": {
        "en": "Level id '{level}' appears more than once",
        "ja": "レベル ID '{level}' が 2 回以上あります",
    },
    "dp.level.not_positive": {
        "en": "Level '{level}' has epsilon {epsilon}; it must be > 0",
        "ja": "レベル '{level}' の ε は {epsilon} です。0 より大きい値にしてください",
    },
    "dp.level.too_large": {
        "en": "Level '{level}' has epsilon {epsilon}; it must be at most 100",
        "ja": "レベル '{level}' の ε は {epsilon} です。100 以下の値にしてください",
    },
    "dp.config.batch_needs_replace": {
        "en": "The batch track needs adjacency 'replace': a released table of N rows reveals N",
        "ja": "一括開示トラックには隣接関係 'replace' が必要です。N 行の開示テーブルは N を明かします",
    },
    "dp.config.live_feedback": {
        "en": "Live scores would reveal the hidden histograms (V+1 uploads suffice); "
        "allowed only in upload-only rounds",
        "ja": "即時のスコア表示は秘匿された集計表を明かします（V+1 回の提出で足ります）。"
        "アップロードのみのラウンドでだけ使えます",
    },
    # epsilon amounts (§3.8, §12)
    "dp.epsilon.syntax": {
        "en": "epsilon '{value}' is not a decimal number or a fraction p/q",
        "ja": "epsilon '{value}' は小数でも分数 p/q でもありません",
    },
    "dp.epsilon.missing": {
        "en": "epsilon is missing (absent or null): write a decimal number or a fraction p/q",
        "ja": "epsilon がありません（欠けているか null です）。小数か分数 p/q で書いてください",
    },
    "dp.epsilon.decimals": {
        "en": "epsilon '{value}' has {decimals} decimals; at most {limit} are allowed",
        "ja": "epsilon '{value}' は小数点以下 {decimals} 桁です。{limit} 桁までにしてください",
    },
    "dp.epsilon.too_long": {
        "en": "epsilon '{value}' is {length} characters long; at most {limit} are allowed",
        "ja": "epsilon '{value}' は {length} 文字あります。{limit} 文字までにしてください",
    },
    "dp.epsilon.too_small": {
        "en": "epsilon {value} is too small: the smallest amount is {minimum} (10⁻¹²)",
        "ja": "epsilon {value} は小さすぎます。最小値は {minimum}（10⁻¹²）です",
    },
    "dp.epsilon.not_positive": {
        "en": "epsilon must be > 0 (got {value})",
        "ja": "epsilon は 0 より大きい値にしてください（値: {value}）",
    },
    # the hidden table (§12)
    "dp.original.missing_column": {
        "en": "The original table lacks attribute column '{column}'",
        "ja": "元のテーブルに属性列 '{column}' がありません",
    },
    "dp.original.too_few_rows": {
        "en": "The original table has {rows} rows; it needs at least 2",
        "ja": "元のテーブルは {rows} 行です。少なくとも 2 行必要です",
    },
    "dp.original.outside_domain": {
        "en": "Column '{column}' holds values outside its declared domain: {rows}. "
        "Declare them or fix the data. " + ROWS_EN,
        "ja": "列 '{column}' に宣言された定義域の外の値があります: {rows}。"
        "定義域に加えるかデータを直してください。" + ROWS_JA,
    },
    "dp.original.not_number": {
        "en": "Column '{column}' row {row} ('{value}') is not a number. " + ROWS_EN,
        "ja": "列 '{column}' の {row} 行目（'{value}'）は数値ではありません。" + ROWS_JA,
    },
    # queries (§7.2, §12)
    "dp.query.not_object": {
        "en": "A query must be a JSON object",
        "ja": "クエリは JSON オブジェクトでなければなりません",
    },
    "dp.query.unknown_level": {
        "en": "Level '{level}' does not exist; levels: {levels}",
        "ja": "レベル '{level}' はありません。レベル: {levels}",
    },
    "dp.query.type": {
        "en": "Query type '{type}' is not allowed in this round; allowed: {allowed}",
        "ja": "クエリの種類 '{type}' はこのラウンドでは使えません。使える種類: {allowed}",
    },
    "dp.query.no_attributes": {
        "en": "A histogram query needs a non-empty list 'attributes'",
        "ja": "集計表のクエリには空でないリスト 'attributes' が必要です",
    },
    "dp.query.unknown_attribute": {
        "en": "Query attribute '{attribute}' is unknown; attributes: {attributes}",
        "ja": "クエリの属性 '{attribute}' は未知です。属性: {attributes}",
    },
    "dp.query.repeated_attribute": {
        "en": "Query attribute '{attribute}' is named twice",
        "ja": "クエリの属性 '{attribute}' が 2 回指定されています",
    },
    "dp.query.too_many_cells": {
        "en": "The query has {cells} cells; the limit is {limit}",
        "ja": "クエリのセル数は {cells} です。上限は {limit} です",
    },
    "dp.query.unknown_column": {
        "en": "Numeric column '{column}' is unknown; numeric columns: {columns}",
        "ja": "数値列 '{column}' は未知です。数値列: {columns}",
    },
    "dp.count.empty": {
        "en": "A count query needs 'where' with at least one attribute",
        "ja": "件数クエリには少なくとも 1 つの属性を持つ 'where' が必要です",
    },
    "dp.count.unknown_attribute": {
        "en": "Count condition names unknown attribute '{attribute}'; attributes: {attributes}",
        "ja": "件数の条件が未知の属性 '{attribute}' を指定しています。属性: {attributes}",
    },
    "dp.count.not_in_domain": {
        "en": "Count condition {attribute}='{value}' is not in the domain of '{attribute}'",
        "ja": "件数の条件 {attribute}='{value}' は '{attribute}' の定義域にありません",
    },
    "dp.request_id.invalid": {
        "en": "request_id must be at most 100 printable characters",
        "ja": "request_id は 100 文字以内の表示可能な文字にしてください",
    },
    # the ledger (§3.8)
    "dp.ledger.refused": {
        "en": "refused: {what} {number} asks epsilon {asked} but only {remaining} of the "
        "level's budget {budget} is left (spent {spent} in {earlier} earlier "
        "{charges}); nothing was charged",
        "ja": "拒否: {what} {number} は epsilon {asked} を求めていますが、レベルの予算 {budget} の"
        "残りは {remaining} だけです（これまでの {earlier} 回の{charges}で {spent} を使っています）。"
        "今回は予算を消費していません",
    },
    "dp.ledger.too_many_charges": {
        "en": "Level '{level}' allows at most {limit} charges",
        "ja": "レベル '{level}' で予算を消費できるのは最大 {limit} 回です",
    },
    # release declarations (§7.3, §12)
    "dp.release.not_object": {
        "en": "A release declaration must be a JSON object with a list 'groups'",
        "ja": "開示の宣言はリスト 'groups' を持つ JSON オブジェクトでなければなりません",
    },
    "dp.release.mechanism": {
        "en": "Unknown release mechanism '{mechanism}'; expected 'pk_anonymization'",
        "ja": "未知の開示メカニズム '{mechanism}' です。'pk_anonymization' を指定してください",
    },
    "dp.release.unknown_attribute": {
        "en": "Group {group} names attribute '{attribute}', which is not a workload attribute "
        "({attributes})",
        "ja": "グループ {group} の属性 '{attribute}' はワークロードの属性（{attributes}）ではありません",
    },
    "dp.release.empty_group": {
        "en": "Group {group} names no attribute",
        "ja": "グループ {group} に属性がありません",
    },
    "dp.release.no_group": {
        "en": "Attribute '{attribute}' is in no group: a column released without "
        "randomization has epsilon = ∞",
        "ja": "属性 '{attribute}' はどのグループにも入っていません。"
        "ランダム化せずに開示した列の epsilon は ∞ です",
    },
    "dp.release.two_groups": {
        "en": "Attribute '{attribute}' is in two groups ({first} and {second})",
        "ja": "属性 '{attribute}' が 2 つのグループ（{first} と {second}）に入っています",
    },
    "dp.release.both": {
        "en": "Group {group} gives both rho and epsilon",
        "ja": "グループ {group} が rho と epsilon の両方を指定しています",
    },
    "dp.release.neither": {
        "en": "Group {group} gives neither rho nor epsilon",
        "ja": "グループ {group} が rho も epsilon も指定していません",
    },
    "dp.release.rho_not_number": {
        "en": "rho '{rho}' is not a number",
        "ja": "rho '{rho}' は数値ではありません",
    },
    "dp.release.rho_too_large": {
        "en": "rho {rho} is not < 1 (epsilon would be ∞)",
        "ja": "rho {rho} が 1 未満ではありません（epsilon が ∞ になります）",
    },
    "dp.release.rho_negative": {
        "en": "rho {rho} is negative; it must be in [0, 1)",
        "ja": "rho {rho} は負です。[0, 1) の範囲にしてください",
    },
    "dp.release.epsilon_negative": {
        "en": "Group {group} has epsilon {epsilon}; it must be >= 0",
        "ja": "グループ {group} の epsilon は {epsilon} です。0 以上にしてください",
    },
    "dp.release.zero": {
        "en": "The release's total epsilon is 0: it carries no information; nothing was charged",
        "ja": "この開示の epsilon の合計は 0 です。情報を含まないため、予算は消費していません",
    },
    "dp.release.over_budget": {
        "en": "The release costs epsilon {cost}, above the level's budget {budget}",
        "ja": "この開示の epsilon は {cost} で、レベルの予算 {budget} を超えています",
    },
    "dp.release.batch_off": {
        "en": "This round has no batch track",
        "ja": "このラウンドには一括開示トラックがありません",
    },
    "dp.estimator.unknown": {
        "en": "Unknown estimator '{estimator}'; expected BT, BR or BI",
        "ja": "未知の推定方法 '{estimator}' です。BT、BR、BI のいずれかを指定してください",
    },
    "dp.estimator.bi_rho_zero": {
        "en": "BI needs rho > 0 in every group (group {group} has rho 0: the channel "
        "cannot be inverted)",
        "ja": "BI にはすべてのグループで rho > 0 が必要です（グループ {group} の rho は 0 で、"
        "チャネルを逆変換できません）",
    },
    # release.csv and estimate.csv (§7.4, §8.2, §12)
    **FILE_MESSAGES,
    # what the pages and the command line say besides errors
    "dp.method.declared_laplace": {"en": "declared Laplace", "ja": "申告された Laplace"},
    "dp.method.prior": {"en": "prior (ε = 0)", "ja": "事前分布（ε = 0）"},
    "dp.check.valid": {
        "en": "{name}: valid ({targets} target(s), {cells} cells)",
        "ja": "{name}: 有効です（対象 {targets} 個、{cells} セル）",
    },
    "dp.cli.wrote_rows": {
        "en": "wrote {rows} rows to {output}",
        "ja": "{rows} 行を {output} に書き出しました",
    },
    "dp.cli.wrote": {"en": "wrote {output}", "ja": "{output} を書き出しました"},
    # declared counts (§8.2, §12)
    "dp.declaration.not_object": {
        "en": "The declaration must be a JSON object with 'mechanism' and 'targets'",
        "ja": "宣言は 'mechanism' と 'targets' を持つ JSON オブジェクトでなければなりません",
    },
    "dp.declaration.missing_target": {
        "en": "Declaration gives no epsilon for target '{target}'",
        "ja": "宣言に対象 '{target}' の epsilon がありません",
    },
    "dp.declaration.unknown_target": {
        "en": "Declaration names unknown target '{target}'; targets: {targets}",
        "ja": "宣言が未知の対象 '{target}' を指定しています。対象: {targets}",
    },
    "dp.declaration.over_budget": {
        "en": "Declared epsilons sum to {total}, above the level's budget {budget}",
        "ja": "宣言された epsilon の合計は {total} で、レベルの予算 {budget} を超えています",
    },
    "dp.cli.sizes": {
        "en": "--sizes needs domain sizes (integers of at least 2) separated by commas, "
        "e.g. --sizes 2,7; got {value!r}",
        "ja": "--sizes には 2 以上の整数の定義域サイズをカンマ区切りで指定してください"
        "（例: --sizes 2,7）。指定値: {value!r}",
    },
    "dp.cli.rows": {
        "en": "--rows (N, the number of rows) must be at least 1; got {value}",
        "ja": "--rows（行数 N）は 1 以上にしてください。指定値: {value}",
    },
    "dp.cli.one_per_size": {
        "en": "give one {name}, or one per size",
        "ja": "{name} は 1 つか、--sizes のサイズごとに 1 つずつ指定してください",
    },
    "dp.cli.group_spec": {
        "en": "group {value}: expected ATTR[+ATTR...]:rho=R or ATTR[+ATTR...]:epsilon=E",
        "ja": "グループ {value}: ATTR[+ATTR...]:rho=R か ATTR[+ATTR...]:epsilon=E の形で指定します",
    },
    "dp.cli.groups_needed": {
        "en": "give --groups or --declaration",
        "ja": "--groups か --declaration を指定してください",
    },
    "dp.cli.estimator_groups": {
        "en": "{estimator} needs the release's --groups or --declaration",
        "ja": "{estimator} には開示の --groups か --declaration が必要です",
    },
    "dp.declaration.postprocessing": {
        "en": "Post-processing '{value}' is unknown; expected 'raw' or 'clamp_rescale'",
        "ja": "後処理 '{value}' は未知です。'raw' か 'clamp_rescale' を指定してください",
    },
}
