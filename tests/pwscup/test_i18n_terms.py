"""Japanese terms that one word-for-word ban cannot check (docs/glossary.md): a phase's
close is 締切 wherever a date or a limit names it, anonymizing is the 2015 paper's
匿名加工 (匿名化 stays in the names of methods: k-匿名化, Pk-匿名化), and an "Upload" button
or instruction says アップロード; a DP round's histogram is the paper's 集計表, the organizers are
運営者, a tab is named by its label in 「」, a gate is a ゲート, and the client heads a column as the site
does."""

import re

import polib

from tests.pwscup.test_i18n import PO, ROOT, SOURCES, live_entries

# A message naming the moment a phase (or a window, a release) closes: a date field's label,
# a countdown, a check of the dates. "The phase is closed" (a state) keeps 終了.
CLOSING_TIME = re.compile(
    r"\bcloses( at)?$|^close of |deadlines?\b|must close after it opens|^closes:?$"
    r"|closes in|^after the close$|(before|when) the \w+ phase closes",
    re.IGNORECASE,
)
# The noun 締め切り (締切 is the noun; the verb 締め切る keeps its kana: 締め切り、締め切ります).
DEADLINE_SPELT_OUT = re.compile(r"締め切り(?![、まし])")
# 匿名化 outside a method's name (k-匿名化, Pk-匿名化).
ANONYMIZING = re.compile(r"(?<!k-)匿名化")
# A round's tab named without its brackets (データタブ, <a>データ</a>タブ) or by another name (ルールタブ).
TAB_UNQUOTED = re.compile(r"(?<![「>])(概要|データ|ルールと採点|ルール|提出|結果)タブ|</a>タブ")
# A gate named in the English (not a %(gate)s placeholder: a number or a list of bounds).
GATE = re.compile(r"\bgates?\b", re.IGNORECASE)
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")
# The organizers as people cut short to 運営 (the verb 運営する and 運営に加わる stay).
ORGANIZERS_CUT_SHORT = re.compile(r"運営(?=が|は|を含め|の表|側)")
# The competition cut short to コンペ.
COMPETITION_CUT_SHORT = re.compile(r"コンペ(?!ティション)")


def texts() -> dict[str, str]:
    return {
        entry.msgid: entry.msgstr + "".join(entry.msgstr_plural.values())
        for entry in live_entries(polib.pofile(str(PO)))
    }


def japanese_in_code(pattern: re.Pattern) -> list[str]:
    """The sources' Japanese outside the catalogue (the client's, the toolkit's, the kits')."""
    return [
        str(path.relative_to(ROOT))
        for name in SOURCES
        for suffix in ("*.py", "*.md")
        for path in (ROOT / name).rglob(suffix)
        if pattern.search(path.read_text(encoding="utf-8"))
    ]


def found_anywhere(pattern: re.Pattern, catalogue: dict[str, str]) -> list[str]:
    """The msgids whose Japanese, and the sources whose text, ``pattern`` finds."""
    return [m for m, text in catalogue.items() if pattern.search(text)] + japanese_in_code(pattern)


def test_a_phase_s_close_is_shimekiri_on_every_page():
    """The Dates pages labelled the same closing time 締切 (攻撃フェーズの締切), 終了
    (開示フェーズの終了, 匿名加工フェーズ終了, 受付終了) and 締め切り (ラウンドの締め切り),
    and the check of a phase's dates named it 終了 beside a field headed 締切."""
    catalogue = texts()
    labels = {msgid: text for msgid, text in catalogue.items() if CLOSING_TIME.search(msgid)}
    assert len(labels) > 30
    mixed = [msgid for msgid, text in labels.items() if "締切" not in text or "終了" in text]
    assert not mixed, f"a closing time is 締切: {mixed}"
    spelt_out = found_anywhere(DEADLINE_SPELT_OUT, catalogue)
    assert not spelt_out, f"締切, not 締め切り: {spelt_out}"
    assert catalogue["Attack phase closes"] == "攻撃フェーズの締切"
    assert catalogue["Uploads close at"] == "受付締切"


def test_anonymizing_is_tokumei_kakou_except_in_a_method_s_name():
    """匿名加工 (匿名加工データ, 匿名加工フェーズ) is the 2015 paper's word (Ito and Kikuchi) for a
    team's anonymized data; pages said 最終匿名化データ beside 最終匿名加工データ."""
    catalogue = texts()
    mixed = found_anywhere(ANONYMIZING, catalogue)
    assert not mixed, f"匿名加工, not 匿名化: {mixed}"
    assert sum("Pk-匿名化" in text for text in catalogue.values()) >= 3, "method names stay"
    assert catalogue["anonymizations"] == "匿名加工データ"


def test_an_upload_button_or_instruction_says_upload():
    """The scorer console's and the declared-upload page's "Upload" button said 提出 while every
    other upload button said アップロード; 提出 stays for a submission and the Submit tab."""
    catalogue = texts()
    uploads = {msgid: text for msgid, text in catalogue.items() if re.match(r"Upload\b", msgid)}
    assert len(uploads) > 20
    mixed = [msgid for msgid, text in uploads.items() if "アップロード" not in text]
    assert not mixed, mixed
    assert catalogue["Upload"] == "アップロード"
    assert catalogue["Submit"] == "提出"


def test_a_histogram_of_counts_is_the_dp_paper_s_shuukeihyou():
    """The DP pages said ヒストグラム and 度数表 for the workload's histograms, sometimes in one
    paragraph; the paper (一括開示と対話開示) says 集計表. A bar chart of a column is a chart."""
    catalogue = texts()
    histograms = {m: text for m, text in catalogue.items() if "histogram" in m.lower()}
    assert len(histograms) > 20
    mixed = [
        msgid
        for msgid, text in histograms.items()
        if "chart" not in msgid.lower() and ("集計表" not in text or "ヒストグラム" in text)
    ]
    assert not mixed, f"集計表: {mixed}"
    assert not japanese_in_code(re.compile("ヒストグラム"))
    assert catalogue["Histograms to estimate (the workload)"] == "推定する集計表（ワークロード）"


def test_the_organizers_are_uneisha_not_unei():
    """The 2015 pages said 運営がラウンドを凍結すると where the others say 運営者が; the glossary's
    word for the organizers is 運営者 (運営する, to organize, keeps its verb)."""
    catalogue = texts()
    short = found_anywhere(ORGANIZERS_CUT_SHORT, catalogue)
    assert not short, f"運営者: {short}"
    assert catalogue["The attack phase is closed: the organizers will publish the results."] == (
        "攻撃フェーズは終了しました。運営者が結果を公開するのを待ちましょう。"
    )
    assert catalogue["You organize no competition yet."].startswith("運営している")


def test_bumon_is_a_standings_division_never_a_round_s_ranking():
    """部門 names a division of the standings (匿名加工部門, 攻撃部門). A round's attack ranking
    read 攻撃部門の順位, and the attack division's table headed its column so: the column was
    read as the division's own rank. The glossary's words are 匿名加工の順位 and 攻撃の順位."""
    catalogue = texts()
    mixed = [
        msgid
        for msgid, text in catalogue.items()
        if "部門" in text and "division" not in msgid.lower() and "standings" not in msgid.lower()
    ]
    assert not mixed, f"部門: {mixed}"
    assert catalogue["Attack ranking"] == "攻撃の順位"


def test_a_gate_is_a_geeto_on_every_page_and_in_every_message():
    """The synthetic round's form asked for 「基準: U_ML の下限」 while its panel, its Rules tab
    and its Submit tab said ゲート, the copy gate's refusal said コピーの基準 and the standings
    said 基準を満たさない for a failed gate: one concept, two words on one walk."""
    from scoring.synthetic.messages import SYN_MESSAGES

    catalogue = texts()
    named = {m: t for m, t in catalogue.items() if GATE.search(PLACEHOLDER.sub("", m))}
    named.update(
        {
            code: message["ja"]
            for code, message in SYN_MESSAGES.items()
            if GATE.search(PLACEHOLDER.sub("", message["en"]))
        }
    )
    assert len(named) > 50
    assert [m for m, text in named.items() if "ゲート" not in text or "基準" in text] == []


def test_a_round_s_tab_is_named_by_its_label_in_brackets():
    """The tabs are 概要, データ, ルールと採点, 提出 and 結果; the pages sent people to 「データ」タブ,
    データタブ and <a>データ</a>タブ, and to a ルールタブ that no page shows."""
    catalogue = texts()
    unquoted = found_anywhere(TAB_UNQUOTED, catalogue)
    assert not unquoted, f"「データ」タブ: {unquoted}"
    assert catalogue["The targets' files are on the Data tab."] == (
        "攻撃対象のファイルは「データ」タブにあります。"
    )


# English words the client and the site share for two different things, by the client's key.
CLIENT_ONLY_SENSE = {
    "open": "a phase's state (受付中); the site's Open is a button (開く)",
    "finished": "a job's state (完了, the site's Finished); the site's finished is a time",
    "failed": "a job's state (失敗, the site's Failed); the site's failed is a gate's verdict",
    "rows": "a count of rows (行数); the site's rows is a unit after a number (行)",
    "window": "a phase (期間); the site's Window is a presentation window (受付期間)",
}


def test_the_client_names_what_the_site_shows_in_the_same_words():
    """`pwscup uploads` headed the upload time 提出日時 and the attack's target 対象 where the
    Submit tab says アップロード日時 and 攻撃対象; its round table said 開始, 締切 for the
    site's 開始日時, 締切日時."""
    from pwscup.client.messages import JA

    site = texts()
    shared = {}
    for key, japanese in JA.items():
        # the site's message of the same words, else the same words capitalized
        english = key if key in site else key[:1].upper() + key[1:]
        if english in site and key not in CLIENT_ONLY_SENSE:
            shared[key] = (japanese, site[english])
    assert len(shared) > 20
    differ = {key: pair for key, pair in shared.items() if pair[0] != pair[1]}
    assert not differ, differ
    assert JA["uploaded"] == site["Uploaded"] == "アップロード日時"


def test_a_voided_upload_s_mark_does_not_read_as_invalid():
    """A voided upload's mark sits beside its state: a sequential release read 「有効 無効」
    ("valid invalid") with the mark 無効; voided by the organizers is 無効化済み."""
    catalogue = texts()
    assert catalogue["voided"] == "無効化済み"
    assert catalogue["Valid"] != catalogue["voided"]


def test_a_competition_is_never_cut_short_to_konpe():
    """The Data tab asked a visitor to join a team of このコンペ, every other page says
    コンペティション (docs/glossary.md)."""
    assert found_anywhere(COMPETITION_CUT_SHORT, texts()) == []


# A team's quota (the uploads it may still make), not a daily limit's setting or reset.
QUOTA = re.compile(r"\b(the|your|its|team's) quota\b", re.IGNORECASE)


def test_a_team_s_quota_is_teishutsu_kaisuu():
    """The console's note on voided uploads said アップロード回数 for the quota every other
    message calls 提出回数 (docs/glossary.md)."""
    catalogue = texts()
    named = {m: t for m, t in catalogue.items() if QUOTA.search(m)}
    assert len(named) >= 3
    assert [m for m, text in named.items() if "提出回数" not in text] == []


# A target named in the English (not a %(target)s placeholder, nor a JSON key "targets").
TARGET = re.compile(r"(?<![\"\w])targets?\b(?!\")", re.IGNORECASE)


def test_a_target_is_kougeki_taishou_in_every_message():
    """The synthetic round's freeze said it republished チームの分 where the scorer round's
    same sentence said 攻撃対象 (docs/glossary.md: 対象 alone only after 攻撃)."""
    catalogue = texts()
    named = {m: t for m, t in catalogue.items() if TARGET.search(PLACEHOLDER.sub("", m))}
    assert len(named) > 50
    assert [m for m, text in named.items() if "対象" not in text] == []


# Scores named as a noun (the verb "scores it" stays 採点する).
SCORES_NOUN = re.compile(r"\b(the scores|scores are|scores and|no score)\b", re.IGNORECASE)


def test_a_score_is_sukoa_on_every_page():
    """The DP round's pages said 評価 for its scores where every other page says スコア."""
    named = {m: t for m, t in texts().items() if SCORES_NOUN.search(m)}
    assert len(named) > 20
    assert [m for m, text in named.items() if "スコア" not in text] == []
