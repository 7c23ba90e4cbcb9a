"""The sequential-release round's message codes (``seq.*``, ``sequential-round.md``): data only.

Part of the one catalogue of :func:`scoring.messages.render`, which merges it with the
core codes when :mod:`scoring.messages` is imported. It lives here, outside
:mod:`scoring.sequential`, and imports nothing, so that a stored ``seq.*`` code renders in
a process that never loaded the sequential round (a page, an admin view, ``import
scoring``). The helpers that build these messages are :mod:`scoring.sequential.messages`.
"""

SEQ_MESSAGES: dict[str, dict[str, str]] = {
    # -- configuration (spec §12); every message names the key
    "seq.config.not_object": {
        "en": "The configuration must be a JSON object.",
        "ja": "設定は JSON オブジェクトでなければなりません。",
    },
    "seq.config.missing": {
        "en": "configuration key {key} is missing",
        "ja": "設定キー {key} がありません",
    },
    "seq.config.unknown": {
        "en": "unknown configuration key(s): {keys}",
        "ja": "不明な設定キー: {keys}",
    },
    "seq.config.type": {
        "en": "configuration key 'type' must be 'sequential', got {value}",
        "ja": "設定キー 'type' は 'sequential' でなければなりません（値: {value}）",
    },
    "seq.config.m": {
        "en": "configuration key 'm' must be an integer ≥ 2, got {value}",
        "ja": "設定キー 'm' は 2 以上の整数でなければなりません（値: {value}）",
    },
    "seq.config.n_releases": {
        "en": "configuration key 'n_releases' must be an integer ≥ 1, got {value}",
        "ja": "設定キー 'n_releases' は 1 以上の整数でなければなりません（値: {value}）",
    },
    "seq.config.n_releases_lsb": {
        "en": "configuration key 'n_releases' ({value}) must be at least the largest lsb "
        "of the master table ({lsb})",
        "ja": "設定キー 'n_releases'（{value}）はマスター表の lsb の最大値（{lsb}）以上でなければ"
        "なりません",
    },
    "seq.config.qi": {
        "en": "configuration key 'qi' must map each QI column to 'num' or 'cat'; got {value} "
        "for {column}",
        "ja": "設定キー 'qi' は各 QI 列を 'num' か 'cat' に対応させます。{column} の値が {value} です",
    },
    "seq.config.qi_empty": {
        "en": "configuration key 'qi' must name at least one QI column",
        "ja": "設定キー 'qi' には少なくとも 1 つの QI 列が必要です",
    },
    "seq.config.sa": {
        "en": "configuration key 'sa' must be a column name other than the QIs, pid, lsf "
        "and lsb, got {value}",
        "ja": "設定キー 'sa' は QI・pid・lsf・lsb 以外の列名でなければなりません（値: {value}）",
    },
    "seq.config.not_column": {
        "en": "configuration key {key}: {column} is not a column of the master table",
        "ja": "設定キー {key}: {column} はマスター表の列ではありません",
    },
    "seq.config.choice": {
        "en": "configuration key {key} must be one of {choices}, got {value}",
        "ja": "設定キー {key} は {choices} のいずれかでなければなりません（値: {value}）",
    },
    "seq.config.bool": {
        "en": "configuration key {key} must be true or false, got {value}",
        "ja": "設定キー {key} は true か false でなければなりません（値: {value}）",
    },
    "seq.config.sa_domain": {
        "en": "configuration key 'sa_domain' must be null or a list of distinct non-empty "
        "strings, got {value}",
        "ja": "設定キー 'sa_domain' は null か、重複のない空でない文字列のリストでなければ"
        "なりません（値: {value}）",
    },
    "seq.config.sa_domain_master": {
        "en": "configuration key 'sa_domain' must contain every sensitive value of the "
        "master table; missing: {values}",
        "ja": "設定キー 'sa_domain' にはマスター表のすべての機密値が必要です。足りない値: {values}",
    },
    "seq.config.gates": {
        "en": "configuration key 'utility_gates' must map some of {metrics} to numbers ≥ 0; "
        "got {value} for {metric}",
        "ja": "設定キー 'utility_gates' は {metrics} のいずれかを 0 以上の数値に対応させます。"
        "{metric} の値が {value} です",
    },
    "seq.config.per_team": {
        "en": "configuration key 'per_team.{field}' must be {expected}, got {value}",
        "ja": "設定キー 'per_team.{field}' は{expected}でなければなりません（値: {value}）",
    },
    "seq.config.attack_phase": {
        "en": "configuration key 'attack_phase': an attack phase needs per-team masters "
        "('per_team' or one uploaded master per team)",
        "ja": "設定キー 'attack_phase': 攻撃フェーズにはチームごとのマスター表が必要です"
        "（'per_team' またはチームごとにアップロードしたマスター表）",
    },
    # -- per-team masters drawn from a pool (spec §3)
    "seq.pool.too_small": {
        "en": "The pool is too small: a team's part holds {persons} persons, not enough "
        "for {size} persons over {n} releases with turnover {turnover}.",
        "ja": "プールの人数が足りません: 1 チーム分のプールは {persons} 人で、"
        "{n} 回の公開にわたり {size} 人（入れ替わり率 {turnover}）を保つには足りません。",
    },
    "seq.pool.no_eligible_draw": {
        "en": "No {m}-eligible draw for team {team!r} in {attempts} attempts.",
        "ja": "チーム {team!r} について、{attempts} 回試しても {m}-eligible な抽選ができませんでした。",
    },
    # -- master table (spec §3)
    "seq.baseline.too_few_values": {
        "en": "The baseline cannot make an {m}-unique release: T(j) has fewer than {m} "
        "sensitive values (those of sa_domain included).",
        "ja": "ベースラインでは、どのグループも {m} 種類の異なる機密値を持つ公開データを作れません。"
        "T(j) の機密値が（sa_domain の値を含めても）{m} 種類未満です。",
    },
    "seq.master.columns": {
        "en": "master table: the header must be {expected}; {problem}",
        "ja": "マスター表: ヘッダーは {expected} でなければなりません。{problem}",
    },
    "seq.master.missing_columns": {
        "en": "missing column(s) {columns}",
        "ja": "足りない列 {columns}",
    },
    "seq.master.extra_columns": {
        "en": "unexpected column(s) {columns}",
        "ja": "余分な列 {columns}",
    },
    "seq.master.no_rows": {
        "en": "master table: no data rows",
        "ja": "マスター表: データ行がありません",
    },
    "seq.master.pid_empty": {
        "en": "master table: empty pid at {rows}",
        "ja": "マスター表: pid が空です: {rows}",
    },
    "seq.master.pid_duplicate": {
        "en": "master table: duplicated pid at {rows}",
        "ja": "マスター表: pid が重複しています: {rows}",
    },
    "seq.master.not_number": {
        "en": "master table: column {column} must hold finite numbers; not a finite number "
        "at {rows}",
        "ja": "マスター表: 列 {column} には有限の数値が必要です。数値でないセル: {rows}",
    },
    "seq.master.bad_category": {
        "en": "master table: column {column} must hold non-empty text without {{, }}, | or *; "
        "not at {rows}",
        "ja": "マスター表: 列 {column} には {{ }} | * を含まない空でない文字列が必要です。"
        "該当セル: {rows}",
    },
    "seq.master.sa_empty": {
        "en": "master table: column {column} must hold non-empty text; empty at {rows}",
        "ja": "マスター表: 列 {column} には空でない文字列が必要です。空のセル: {rows}",
    },
    "seq.master.lifespan": {
        "en": "master table: lsf and lsb must be integers with 1 ≤ lsf ≤ lsb ≤ {n} "
        "(n_releases); not at {rows}",
        "ja": "マスター表: lsf と lsb は 1 ≤ lsf ≤ lsb ≤ {n}（n_releases）を満たす整数でなければ"
        "なりません。該当行: {rows}",
    },
    "seq.master.empty_release": {
        "en": "master table: T({release}) is empty (no person has lsf ≤ {release} ≤ lsb)",
        "ja": "マスター表: T({release}) が空です（lsf ≤ {release} ≤ lsb の人がいません）",
    },
    "seq.master.not_eligible": {
        "en": "T({release}) is not {m}-eligible: {value} holds {count} of {total} tuples "
        "(at most {allowed} allowed)",
        "ja": "T({release}) は {m}-エリジブルではありません: {value} が {total} タプル中 "
        "{count} タプルあります（許されるのは {allowed} まで）",
    },
    # -- release files (spec §4-§5)
    "seq.release.no_rows": {
        "en": "release {release}: the file has no data rows",
        "ja": "公開データ {release}: データ行がありません",
    },
    "seq.release.header": {
        "en": "release {release}: the header must be {expected}; got {got}",
        "ja": "公開データ {release}: ヘッダーは {expected} でなければなりません（実際: {got}）",
    },
    "seq.release.column_disabled": {
        "en": "release {release}: column {column} is not allowed in this round",
        "ja": "公開データ {release}: 列 {column} はこのラウンドでは使えません",
    },
    "seq.release.last_first": {
        "en": "release {release}: column 'last' is not allowed in release 1 (there is no "
        "earlier release)",
        "ja": "公開データ {release}: 列 'last' は公開データ 1 では使えません（前の公開データがありません）",
    },
    "seq.release.missing": {
        "en": "release {release}: persons of T({release}) missing: {pids} ({total} in all)",
        "ja": "公開データ {release}: T({release}) の人が欠けています: {pids}（計 {total} 人）",
    },
    "seq.release.previous": {
        "en": "release {release}: column 'last' needs the team's release {previous}",
        "ja": "公開データ {release}: 列 'last' の検査にはチームの公開データ {previous} が必要です",
    },
    "seq.row.gid": {
        "en": "release {release}, row {row}, column 'gid': {value} is not an integer ≥ 1",
        "ja": "公開データ {release} の {row} 行目、列 'gid': {value} は 1 以上の整数ではありません",
    },
    "seq.row.cell_num": {
        "en": "release {release}, row {row}, column {column}: cannot read {value} as [lo,hi], "
        "a number or *",
        "ja": "公開データ {release} の {row} 行目、列 {column}: {value} を [lo,hi]、数値、* のいずれとも"
        "読めません",
    },
    "seq.row.cell_cat": {
        "en": "release {release}, row {row}, column {column}: cannot read {value} as {{a|b}}, "
        "a value or *",
        "ja": "公開データ {release} の {row} 行目、列 {column}: {value} を {{a|b}}、値、* のいずれとも"
        "読めません",
    },
    "seq.row.lo_hi": {
        "en": "release {release}, row {row}, column {column}: {value} has lo > hi",
        "ja": "公開データ {release} の {row} 行目、列 {column}: {value} は lo > hi です",
    },
    "seq.row.category": {
        "en": "release {release}, row {row}, column {column}: {value} holds {bad}, which is not "
        "a value of that master column",
        "ja": "公開データ {release} の {row} 行目、列 {column}: {value} の {bad} はマスター表のその列の"
        "値ではありません",
    },
    "seq.row.pid_unknown": {
        "en": "release {release}, row {row}: pid {pid} is not in the master table",
        "ja": "公開データ {release} の {row} 行目: pid {pid} はマスター表にありません",
    },
    "seq.row.pid_not_alive": {
        "en": "release {release}, row {row}: pid {pid} is not in T({release}): lifespan "
        "[{lsf},{lsb}]",
        "ja": "公開データ {release} の {row} 行目: pid {pid} は T({release}) にいません: ライフスパン "
        "[{lsf},{lsb}]",
    },
    "seq.row.pid_twice": {
        "en": "release {release}, row {row}: pid {pid} appears twice (first at row {first})",
        "ja": "公開データ {release} の {row} 行目: pid {pid} が 2 回現れます（最初は {first} 行目）",
    },
    "seq.row.sa": {
        "en": "release {release}, row {row}: pid {pid} must carry its true {column} {truth}, "
        "got {value} (Def. 2(2))",
        "ja": "公開データ {release} の {row} 行目: pid {pid} には真の {column} {truth} が必要ですが、"
        "{value} です（定義 2(2)）",
    },
    "seq.row.outside": {
        "en": "release {release}, row {row}: pid {pid} has {column} {value}, outside the "
        "region {region} of its group {gid} (Def. 2(3))",
        "ja": "公開データ {release} の {row} 行目: pid {pid} の {column} {value} がグループ {gid} の"
        "範囲 {region} の外にあります（定義 2(3)）",
    },
    "seq.row.region": {
        "en": "release {release}, row {row}: group {gid} has {column} {value} here but {first} "
        "at row {first_row} (Def. 2(3): one region per group)",
        "ja": "公開データ {release} の {row} 行目: グループ {gid} の {column} がここでは {value}、"
        "{first_row} 行目では {first} です（定義 2(3): 1 グループに 1 つの範囲）",
    },
    "seq.row.no_real": {
        "en": "release {release}, row {row}: group {gid} holds only counterfeit rows (Def. 1: "
        "groups partition T({release}))",
        "ja": "公開データ {release} の {row} 行目: グループ {gid} には偽造タプルしかありません（定義 1: "
        "グループは T({release}) の分割）",
    },
    "seq.row.cf_tampered": {
        "en": "release {release}, row {row}: a counterfeit row (empty pid) cannot be tampered",
        "ja": "公開データ {release} の {row} 行目: 偽造タプル（pid が空）は tampered にできません",
    },
    "seq.row.cf_sa": {
        "en": "release {release}, row {row}: counterfeit {column} {value} is not in the "
        "domain of sensitive values",
        "ja": "公開データ {release} の {row} 行目: 偽造タプルの {column} {value} は機密値の定義域に"
        "ありません",
    },
    "seq.row.tampered": {
        "en": "release {release}, row {row}, column 'tampered': {value} must be 0 or 1",
        "ja": "公開データ {release} の {row} 行目、列 'tampered': {value} は 0 か 1 でなければ"
        "なりません",
    },
    "seq.row.last_value": {
        "en": "release {release}, row {row}, column 'last': {value} must be a group id of "
        "release {previous}, empty or -",
        "ja": "公開データ {release} の {row} 行目、列 'last': {value} は公開データ {previous} の"
        "グループ id、空、- のいずれかでなければなりません",
    },
    "seq.row.last_mixed": {
        "en": "release {release}, row {row}: group {gid} has last {value} here but {first} at "
        "row {first_row} (one value per group)",
        "ja": "公開データ {release} の {row} 行目: グループ {gid} の last がここでは {value}、"
        "{first_row} 行目では {first} です（1 グループに 1 つの値）",
    },
    "seq.row.last_a": {
        "en": "release {release}, row {row}: group {gid} says last {last}, but pid {pid} was in "
        "group {actual} of release {previous} (§8.1 (a))",
        "ja": "公開データ {release} の {row} 行目: グループ {gid} の last は {last} ですが、pid {pid} "
        "は公開データ {previous} でグループ {actual} にいました（§8.1 (a)）",
    },
    "seq.row.last_b": {
        "en": "release {release}, row {row}: pid {pid} came from group {last} of release "
        "{previous}, which another group names as last, but its group {gid} does not "
        "(§8.1 (b))",
        "ja": "公開データ {release} の {row} 行目: pid {pid} は公開データ {previous} のグループ {last} "
        "から来ており、そのグループを別のグループが last に挙げていますが、所属グループ {gid} は"
        "挙げていません（§8.1 (b)）",
    },
    "seq.issues": {"en": "{items}", "ja": "{items}。"},
    "seq.issues_more": {
        "en": "{items} ({total} in all)",
        "ja": "{items}（計 {total} 件）",
    },
    # -- structural checks (spec §6)
    "seq.signature_change": {
        "en": "person {pid}: signature {first} at release {first_release} but {second} at "
        "release {second_release}",
        "ja": "人 {pid}: シグネチャが公開データ {first_release} では {first}、公開データ "
        "{second_release} では {second} です",
    },
    # -- attack phase (spec §10)
    "seq.guess.header": {
        "en": "the guess file must have the header pid,guess; got {got}",
        "ja": "推測ファイルのヘッダーは pid,guess でなければなりません（実際: {got}）",
    },
    "seq.guess.unknown": {
        "en": "line {line}: pid {pid} is not a target of this sequence",
        "ja": "{line} 行目: pid {pid} はこの系列の対象ではありません",
    },
    "seq.guess.twice": {
        "en": "line {line}: pid {pid} is guessed twice (first at line {first})",
        "ja": "{line} 行目: pid {pid} が 2 回推測されています（最初は {first} 行目）",
    },
    "seq.guess.domain": {
        "en": "line {line}: guess {value} for pid {pid} is not a sensitive value of this round",
        "ja": "{line} 行目: pid {pid} の推測 {value} はこのラウンドの機密値ではありません",
    },
    # what ``seq check`` and ``seq baseline`` print on success
    "seq.cli.ok": {
        "en": "OK: {releases} valid release(s); m = {m}.",
        "ja": "OK: 有効な公開データは {releases} 個です。m = {m}。",
    },
    "seq.cli.too_many_releases": {
        "en": "{given} releases given; the round has {n}.",
        "ja": "公開データが {given} 個指定されましたが、このラウンドの公開データは {n} 個です。",
    },
    "seq.cli.needs_previous": {
        "en": "release {release} needs --previous release_{previous}.csv",
        "ja": "公開データ {release} には --previous release_{previous}.csv（前の公開データ）が必要です。",
    },
    "seq.cli.release_range": {
        "en": "release {release} is out of range: the configuration allows releases 1 to "
        "{n} (n_releases).",
        "ja": "公開データ {release} は範囲外です。設定で使える公開データは 1 から {n} まで"
        "です（n_releases）。",
    },
    "seq.cli.wrote_baseline": {
        "en": "Wrote {output}: {rows} rows, {groups} groups, {counterfeits} counterfeits.",
        "ja": "{output} を書き出しました: {rows} 行、{groups} グループ、偽造タプル {counterfeits} 件。",
    },
}
