"""The kit's methods and attacks as ``anonymize --help`` and ``attack --help`` list them
(``scoring.kit.registry``: each entry and parameter names its code here), in English and
Japanese: data only."""

# code -> {language: template}
KIT_HELP_MESSAGES: dict[str, dict[str, str]] = {
    # the list's own words
    "help.kit.methods_heading": {
        "en": "methods (pass parameters as --param KEY=VALUE after --method):",
        "ja": "手法（パラメータは --method の後に --param KEY=VALUE で指定）:",
    },
    "help.kit.attacks_heading": {
        "en": "attacks (parameters as --param KEY=VALUE):",
        "ja": "攻撃（パラメータは --param KEY=VALUE で指定）:",
    },
    "help.kit.example": {"en": "example:", "ja": "例:"},
    "help.kit.random": {"en": " [random: uses --seed]", "ja": " [乱数: --seed を使う]"},
    "help.kit.hierarchy": {"en": " [needs --attr-depth]", "ja": " [--attr-depth が必要]"},
    "help.kit.required": {"en": "required", "ja": "必須"},
    "help.kit.default": {"en": "default {value}", "ja": "既定 {value}"},
    "help.kit.optional": {"en": "optional", "ja": "省略可"},
    # the methods (anonymize)
    "help.method.generalize": {
        "en": "hierarchy generalization per attr_depth.json, mapped back to first-level values (B.1.1)",
        "ja": "attr_depth.json による階層的な一般化。第 1 レベルの値に戻す (B.1.1)",
    },
    "help.method.k_anonymize": {
        "en": "DA: lowest generalization levels leaving <= budget rows in classes < k, then removal",
        "ja": "DA: k 未満のクラスの行が budget 行以下になる最も低い一般化レベル、そのあと行の削除",
    },
    "help.method.remove_record": {
        "en": "blank rows whose combination of columns occurs fewer than k times (B.1.2)",
        "ja": "列の組み合わせの出現が k 回未満の行を空にする (B.1.2)",
    },
    "help.method.delete_rows": {"en": "DH: blank the given rows", "ja": "DH: 指定した行を空にする"},
    "help.method.delete_random": {
        "en": "DH: blank d random rows",
        "ja": "DH: 無作為に選んだ d 行を空にする",
    },
    "help.method.delete_outliers": {
        "en": "record suppression: blank the d rows with the largest z-score norm",
        "ja": "レコード抑制: z スコアのノルムが最も大きい d 行を空にする",
    },
    "help.method.top_bottom_coding": {
        "en": "v > top -> top, v < bottom -> bottom (codes must be values of the column)",
        "ja": "v > top なら top、v < bottom なら bottom（コードは列の値であること）",
    },
    "help.method.qi_unify": {
        "en": "DD/DE: set columns to their most frequent value",
        "ja": "DD/DE: 列を最頻値にそろえる",
    },
    "help.method.laplace_ldp": {
        "en": "Laplace mechanism, local DP: y = x + Lap((max-min)/epsilon) (B.1.3)",
        "ja": "Laplace 機構、局所 DP: y = x + Lap((max-min)/epsilon) (B.1.3)",
    },
    "help.method.randomized_response": {
        "en": "generalized randomized response: keep with e^eps/(K-1+e^eps) (B.1.4)",
        "ja": "一般化されたランダム応答: e^eps/(K-1+e^eps) の確率で値を残す (B.1.4)",
    },
    "help.method.sa_noise": {
        "en": "DB: Laplace noise of scale b on sa columns",
        "ja": "DB: sa 列にスケール b の Laplace ノイズを加える",
    },
    "help.method.sa_class_mean": {
        "en": "DF: sa values become their full-QI class mean",
        "ja": "DF: sa の値を完全 QI クラスの平均にする",
    },
    "help.method.swap_in_class": {
        "en": "DG: random permutation of each sa column inside full-QI classes",
        "ja": "DG: 完全 QI クラスの中で各 sa 列を無作為に並べ替える",
    },
    "help.method.yamaoka": {
        "en": "DC (YA): each row takes the next record of its full-QI class",
        "ja": "DC (YA): 各行が完全 QI クラスの次のレコードの値を取る",
    },
    "help.method.mdav": {
        "en": "micro-aggregation by MDAV on z-scores, values -> group means",
        "ja": "z スコア上の MDAV によるミクロアグリゲーション。値をグループの平均にする",
    },
    # the attacks (attack)
    "help.attack.lecture": {
        "en": "top-n Euclidean over euc_sa in the match_qi class, greedy 1:1 (the built-in 'kit' attacker)",
        "ja": "match_qi クラス内で euc_sa のユークリッド距離の上位 n 件、貪欲法で 1 対 1（組み込みの 'kit' 攻撃者）",
    },
    "help.attack.neighbor": {
        "en": "Neighbor_att + Attack_id with every option",
        "ja": "Neighbor_att + Attack_id（すべてのオプション付き）",
    },
    "help.attack.E1": {
        "en": "random row of the same match_qi class",
        "ja": "同じ match_qi クラスの無作為な行",
    },
    "help.attack.E2": {
        "en": "nearest e2_column value in the class (all rows if empty)",
        "ja": "クラス内で e2_column の値が最も近い行（クラスが空なら全行から）",
    },
    "help.attack.E3": {"en": "rank of the sa sums", "ja": "sa の合計の順位"},
    "help.attack.E4": {
        "en": "nearest e4_column value among all rows",
        "ja": "全行の中で e4_column の値が最も近い行",
    },
    "help.attack.EUC1": {
        "en": "nearest euc_sa vector in the class, none if empty",
        "ja": "クラス内で euc_sa のベクトルが最も近い行（クラスが空なら推測なし）",
    },
    "help.attack.EUC2": {
        "en": "as EUC1, all rows if the class is empty",
        "ja": "EUC1 と同じ。クラスが空なら全行から",
    },
    "help.attack.reference": {
        "en": "reference linkage attack: block on categorical QIs, nearest range-scaled numeric row, mismatch penalty when the block is empty",
        "ja": "参照リンク攻撃: カテゴリの QI でブロック化し、範囲で正規化した数値が最も近い行。ブロックが空なら不一致のペナルティ",
    },
    # their parameters
    "help.param.assignment": {"en": "greedy | lsap", "ja": "greedy（貪欲法）| lsap（最適割当）"},
    "help.param.back_map": {"en": "mode | random", "ja": "mode（最頻値）| random（無作為）"},
    "help.param.budget": {
        "en": "rows allowed in classes smaller than k",
        "ja": "k 未満のクラスに残してよい行数",
    },
    "help.param.columns": {"en": "columns, comma-separated", "ja": "列。カンマ区切り"},
    "help.param.duplication": {
        "en": "true: nearest candidate, duplicates allowed",
        "ja": "true: 最も近い候補、重複を許す",
    },
    "help.param.euc_sa": {"en": "default: euc_sa", "ja": "既定: euc_sa"},
    "help.param.fallback": {
        "en": "all rows when the class is empty",
        "ja": "クラスが空なら全行から",
    },
    "help.param.generalized": {
        "en": "columns generalized (default: qi columns of attr_depth.json)",
        "ja": "一般化する列（既定: attr_depth.json の qi 列）",
    },
    "help.param.levels": {
        "en": "column:level,... e.g. age:1,pref:2",
        "ja": "列:レベル,...（例: age:1,pref:2）",
    },
    "help.param.match": {
        "en": "candidates inside the match_qi class",
        "ja": "match_qi クラスの中の候補",
    },
    "help.param.median": {"en": "low | pandas (number columns)", "ja": "low | pandas（数値の列）"},
    "help.param.qi": {"en": "default: qi", "ja": "既定: qi"},
    "help.param.rep": {"en": "value | mean (number columns)", "ja": "value | mean（数値の列）"},
    "help.param.rows": {"en": "1-based, comma-separated", "ja": "1 から数える。カンマ区切り"},
    "help.param.sa": {"en": "default: sa", "ja": "既定: sa"},
    "help.param.scale": {"en": "range | none", "ja": "range（範囲で正規化）| none（そのまま）"},
    "help.param.snap": {
        "en": "round to the nearest original value",
        "ja": "最も近い元の値に丸める",
    },
    "help.param.value_range": {
        "en": "max,min (default: the column's range)",
        "ja": "max,min（既定: 列の範囲）",
    },
}
