"""The Japanese catalogue is complete (every message of the source, plural forms
included), not fuzzy, and its compiled .mo matches the .po."""

import gettext
import shutil
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
PO = LOCALE / "ja" / "LC_MESSAGES" / "django.po"
MO = LOCALE / "ja" / "LC_MESSAGES" / "django.mo"
# What ``makemessages`` reads when run from the project root (it skips dot folders).
SOURCES = ("pwscup", "templates", "scoring", "scripts")


def live_entries(catalogue: polib.POFile) -> list[polib.POEntry]:
    return [e for e in catalogue if not e.obsolete and e.msgid]


def label(entry: polib.POEntry) -> str:
    return entry.msgid if not entry.msgid_plural else f"{entry.msgid} | {entry.msgid_plural}"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> polib.POFile:
    """``makemessages -l ja`` run on a copy of the sources, merged into a copy of the
    committed catalogue: what a developer would get today."""
    from django.conf import settings

    project = tmp_path_factory.mktemp("i18n")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__")
            )
    copy = project / "locale" / "ja" / "LC_MESSAGES"
    copy.mkdir(parents=True)
    shutil.copy(PO, copy / "django.po")
    saved_paths, saved_cwd = settings.LOCALE_PATHS, Path.cwd()
    settings.LOCALE_PATHS = [project / "locale"]
    try:
        import os

        os.chdir(project)
        call_command("makemessages", locale=["ja"], verbosity=0, no_obsolete=False)
    finally:
        os.chdir(saved_cwd)
        settings.LOCALE_PATHS = saved_paths
    return polib.pofile(str(copy / "django.po"))


def test_every_source_message_is_in_the_catalogue_and_translated(extracted):
    committed = {(e.msgctxt, e.msgid, e.msgid_plural) for e in live_entries(polib.pofile(str(PO)))}
    entries = live_entries(extracted)
    assert len(entries) > 150
    missing = [label(e) for e in entries if (e.msgctxt, e.msgid, e.msgid_plural) not in committed]
    untranslated = [label(e) for e in entries if not e.translated()]
    assert not missing, f"run makemessages -l ja and translate: {missing}"
    assert not untranslated, f"translate in {PO.relative_to(ROOT)}: {untranslated}"
    assert any(e.msgid_plural for e in entries), "plural forms are checked too"


def test_no_message_is_fuzzy_or_untranslated_in_the_committed_catalogue():
    entries = live_entries(polib.pofile(str(PO)))
    fuzzy = [label(e) for e in entries if "fuzzy" in e.flags]
    untranslated = [label(e) for e in entries if not e.translated()]
    assert not fuzzy, fuzzy
    assert not untranslated, untranslated


def test_spending_privacy_budget_reads_as_consuming_it_not_paying():
    """課金 is paying money (in-app purchases): the budget ε is spent, 消費."""
    entries = live_entries(polib.pofile(str(PO)))
    paying = [label(e) for e in entries if "課金" in e.msgstr or "課金" in str(e.msgstr_plural)]
    assert not paying, paying
    translation_of = {e.msgid: e.msgstr for e in entries}
    assert translation_of["Ask (charges ε)"] == "送信（ε を消費）"
    assert translation_of["Query %(n)s answered; %(eps)s charged."] == (
        "クエリ %(n)s に回答しました。%(eps)s を消費しました。"
    )


# One Japanese word per term (docs/glossary.md): "competition" is コンペティション (84 uses
# against 18 of コンテスト when they were unified), "organizer" 運営者 (55 against 25 of 主催者;
# 主催 also catches 主催する), "the release phase" 開示フェーズ (32 against 8 of リリースフェーズ:
# the Dates and limits page headed a phase 開示フェーズ and refused a date under it naming a
# リリースフェーズ), "a release" (a team's published data, release j of a sequential round)
# 公開データ, the papers' word (連続的なデータ公開, 公開データ; 75 uses against 260 of リリース,
# which a sequential page showed above あなたのチームの公開データ). "A target" (a team's published
# data, attacked) 攻撃対象 (67 uses against 33 of ターゲット and 16 of 標的; the attack tab said
# 攻撃対象, its limits 標的 and the scorer pages ターゲット). "A ranking" and "a rank" 順位 (198
# against 6 of ランキング and a 順位表 heading); "a submission" 提出 (提出物 named it in the
# notifications only); "a score" スコア (得点 on one chart); "the attack matrix" 攻撃マトリクス (19
# against 10 of 攻撃行列, the scorer's and the archive's). The papers' words: "a counterfeit" 偽造タプル
# (偽造行 and 偽レコード on the same settings page), "a lifespan" ライフスパン (生存期間 beside it),
# "a histogram" of a DP round 集計表 (度数表 and ヒストグラム on the same page), "sensitive" 機密
# (機密属性, 機密値: both papers; the toolkit said 機密値 where the pages said 機微な値). "A gate"
# ゲート (34 against 20 of 足切り: the 2015 Submit tab said 有用性の足切り above the core's ゲート table).
@pytest.mark.parametrize(
    ("chosen", "other"),
    [
        ("コンペティション", "コンテスト"),
        ("運営者", "主催"),
        ("開示フェーズ", "リリースフェーズ"),
        ("公開データ", "リリース"),
        ("攻撃対象", "ターゲット"),
        ("攻撃対象", "標的"),
        ("順位", "ランキング"),
        ("順位", "順位表"),
        ("提出", "提出物"),
        ("スコア", "得点"),
        ("攻撃マトリクス", "攻撃行列"),
        ("攻撃マトリクス", "対戦表"),
        ("コンペティション", "大会"),
        ("偽造タプル", "偽造行"),
        ("偽造タプル", "偽レコード"),
        ("ライフスパン", "生存期間"),
        ("集計表", "度数表"),
        ("機密", "機微"),
        ("ゲート", "足切り"),
        # 部門 is a division of the competition's standings; a round's own rankings are not.
        ("攻撃の順位", "攻撃部門の順位"),
        ("匿名加工の順位", "匿名加工部門の順位"),
    ],
)
def test_each_term_has_one_japanese_word(chosen, other):
    entries = live_entries(polib.pofile(str(PO)))
    texts = {label(e): e.msgstr + "".join(e.msgstr_plural.values()) for e in entries}
    mixed = [msgid for msgid, text in texts.items() if other in text]
    assert not mixed, f"{other} where the catalogue says {chosen}: {mixed}"
    assert any(chosen in text for text in texts.values())
    japanese_in_code = [  # the few Japanese texts of the sources outside the catalogue
        str(path.relative_to(ROOT))
        for name in SOURCES
        for pattern in ("*.py", "*.md")  # the starter kits' READMEs are Japanese templates
        for path in (ROOT / name).rglob(pattern)
        if other in path.read_text(encoding="utf-8")
    ]
    assert not japanese_in_code, japanese_in_code


def test_freezing_is_one_japanese_word_and_final_keeps_its_own():
    """Freezing a release is 凍結 on the console, the team pages and the notifications alike;
    確定 stays for "final" and "confirm" (a release's latest valid upload becomes final)."""
    entries = live_entries(polib.pofile(str(PO)))
    mixed = [
        label(e)
        for e in entries
        if any(word in e.msgid.lower() for word in ("freez", "frozen", "froze"))
        and not any(word in e.msgid.lower() for word in ("final", "confirm"))
        and "確定" in e.msgstr + "".join(e.msgstr_plural.values())
    ]
    assert not mixed, mixed
    translation_of = {e.msgid: e.msgstr for e in entries}
    assert translation_of["Freeze release %(j)s"] == "公開データ %(j)s を凍結"


# Where a message is shown: a DP round's page or code (its release is the paper's 開示).
DP_SOURCES = ("pwscup/dp/", "templates/dp/")
# The phase and its window keep 開示 in every kind (the test above).
RELEASE_PHASE = ("開示フェーズ", "開示期間")


def test_a_team_s_release_is_koukai_data_and_a_dp_round_s_release_is_kaiji(extracted):
    """A release a team publishes (sequential, synthetic, scorer) is 公開データ; the DP round's
    release of a noisy table is the paper's 開示 (一括開示, 開示データ). A scorer page said
    最終開示 of a final release, and a DP page リリース of a DP release."""
    committed = {
        (e.msgctxt, e.msgid): e.msgstr + "".join(e.msgstr_plural.values())
        for e in live_entries(polib.pofile(str(PO)))
    }
    releases = [
        entry
        for entry in live_entries(extracted)
        if "releas" in (entry.msgid + (entry.msgid_plural or "")).lower()
    ]
    assert len(releases) > 300
    kaiji, koukai, dp_only = [], [], 0
    for entry in releases:
        paths = [path for path, _ in entry.occurrences]
        japanese = committed[(entry.msgctxt, entry.msgid)]
        if paths and all(path.startswith(DP_SOURCES) for path in paths):
            dp_only += 1
            if "公開データ" in japanese:
                koukai.append(label(entry))
        elif not any(path.startswith(DP_SOURCES) for path in paths):
            for phase in RELEASE_PHASE:
                japanese = japanese.replace(phase, "")
            if "開示" in japanese:
                kaiji.append(label(entry))
    assert dp_only > 30, "the DP round's messages are told apart by where they are used"
    assert not kaiji, f"開示 for a team's release (公開データ): {kaiji}"
    assert not koukai, f"公開データ for a DP release (開示): {koukai}"
    translation_of = {e.msgid: e.msgstr for e in live_entries(polib.pofile(str(PO)))}
    assert translation_of["Batch release"] == "一括開示"
    assert translation_of["Release ranking"] == "公開データの順位"


def test_compiled_catalogue_matches_the_source():
    with open(MO, "rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for entry in live_entries(polib.pofile(str(PO))):
        if not entry.translated():
            continue  # reported by the completeness tests
        if entry.msgid_plural:
            for n, text in entry.msgstr_plural.items():
                got = compiled.ngettext(entry.msgid, entry.msgid_plural, 1 if n == 0 else 2)
                if got != text:
                    stale.append(label(entry))
        else:
            key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
            if compiled.gettext(key) != entry.msgstr:
                stale.append(label(entry))
    assert not stale, f"run compilemessages: {stale[:5]}"


@pytest.mark.parametrize(
    ("english", "japanese_fragment"),
    [("Leaderboard", "リーダーボード"), ("Anonymization phase", "匿名加工")],
)
def test_django_serves_the_japanese_catalogue(english, japanese_fragment):
    with translation.override("ja"):
        assert japanese_fragment in translation.gettext(english)


def test_every_yes_no_field_of_the_platform_has_a_translated_name():
    """The admin titles a yes/no field's filter and column by the field's name: without one
    of its own, Django derives it from the attribute ("By is frozen"), in English only."""
    from django.apps import apps
    from django.db import models
    from django.utils.functional import Promise

    unnamed = [
        f"{model._meta.label}.{field.name}"
        for model in apps.get_models()
        if model.__module__.startswith("pwscup.")
        for field in model._meta.get_fields()
        if isinstance(field, models.BooleanField) and field.model is model
        if not isinstance(field.verbose_name, Promise)
    ]
    assert not unnamed
    with translation.override("ja"):
        frozen = apps.get_model("sequential", "Release")._meta.get_field("is_frozen")
        assert str(frozen.verbose_name) == "凍結済み"


def test_the_fields_every_job_and_kept_upload_has_are_named_in_both_languages():
    """The admin titles its columns and read-only fields by the fields' names: the core's job
    and upload fields had none, and a Japanese page said "Created at", "Original filename"."""
    from django.apps import apps
    from django.utils.functional import Promise

    from pwscup.submissions.models import JobState, KeptUpload

    def names(base) -> list[str]:
        return [field.name for field in base._meta.get_fields() if field.name != "sha256"]

    assert {"status", "started_at", "attempts"} <= set(names(JobState))
    assert {"original_filename", "uploaded_by", "created_at"} <= set(names(KeptUpload))
    unnamed = [
        f"{model._meta.label}.{name}"
        for model in apps.get_models()
        for base in (JobState, KeptUpload)
        if issubclass(model, base)
        for name in names(base)
        if not isinstance(model._meta.get_field(name).verbose_name, Promise)
    ]
    assert not unnamed
    with translation.override("ja"):
        created = apps.get_model("sequential", "Release")._meta.get_field("created_at")
        assert str(created.verbose_name) == "アップロード日時"


def test_a_row_s_team_is_named_team_in_both_languages():
    """The admin's column and filter of a team's row ("TEAM" on a Japanese page before)."""
    from django.apps import apps
    from django.utils.functional import Promise

    from pwscup.accounts.models import Team

    teams = [
        field
        for model in apps.get_models()
        if model.__module__.startswith("pwscup.")
        for field in model._meta.get_fields()
        if field.many_to_one and field.related_model is Team and field.model is model
    ]
    assert len(teams) > 15
    unnamed = [str(field) for field in teams if not isinstance(field.verbose_name, Promise)]
    assert not unnamed
    with translation.override("ja"):
        assert str(teams[0].verbose_name) == "チーム"


def test_a_kind_s_row_names_its_round_and_a_scorer_program_s_file_in_both_languages():
    """The admin's "SEQUENTIAL", "SCORER", "ROUND" columns and a scoring program's or data
    pack's "Original filename", "Created at" were English on Japanese pages."""
    from django.apps import apps
    from django.utils.functional import Promise

    from pwscup.competitions.models import Round
    from tests.support import site_kinds

    kinds = site_kinds()
    lacking = [kind.key for kind in kinds if kind.key not in ROUND_SETTINGS]
    assert not lacking, f"ROUND_SETTINGS has no settings model of the kinds {lacking}"
    kind_apps = {apps.get_containing_app_config(type(kind).__module__).label for kind in kinds}
    settings = {apps.get_model(ROUND_SETTINGS[kind.key]) for kind in kinds}
    rounds = [
        field
        for model in apps.get_models()
        if model._meta.app_label in kind_apps
        for field in model._meta.get_fields()
        if field.many_to_one and field.model is model
        if field.related_model is Round or field.related_model in settings
    ]
    files = [
        apps.get_model("scorer", name)._meta.get_field(field)
        for name in ("ProgramVersion", "DataPack")
        for field in ("file", "original_filename", "size", "uploaded_by", "created_at", "role")
        if name == "DataPack" or field != "role"
    ]
    assert len(rounds) > 15
    unnamed = [str(f) for f in rounds + files if not isinstance(f.verbose_name, Promise)]
    assert not unnamed
    with translation.override("ja"):
        assert {str(field.verbose_name) for field in rounds} == {"ラウンド"}


# Each registered kind's settings model (one-to-one with ``Round``), by the kind's key: a
# kind registered without an entry fails the test above.
ROUND_SETTINGS = {
    "pwscup2015": "pwscup2015.Pwscup2015Round",
    "dp": "dp.DPRound",
    "sequential": "sequential.SequentialRound",
    "synthetic": "synthetic.SyntheticRound",
    "scorer": "scorer.ScorerRound",
}


@pytest.mark.django_db
@pytest.mark.parametrize("page_language", ["en", "ja"])
def test_each_language_button_says_its_own_language(client, page_language):
    """The header's switch names each language in itself: "日本語" on an English page is
    marked Japanese, "English" on a Japanese page English, so that a screen reader reads
    each in its own language (WCAG 3.1.2, language of parts)."""
    import re

    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = page_language
    page = client.get("/").content.decode()
    assert f'<html lang="{page_language}"' in page
    for code, name in (("en", "English"), ("ja", "日本語")):
        button = re.search(rf'<button[^>]*data-testid="lang-{code}"[^>]*>([^<]*)</button>', page)
        assert button is not None, code
        assert f' lang="{code}"' in button.group(0) and button.group(1) == name, button.group(0)
