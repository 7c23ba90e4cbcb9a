"""How an audit entry's details read: every key the code records has a label in both
languages, and a value reads as the site shows it (dates in local time, yes/no, lists)."""

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.utils import timezone
from django.utils.html import escape, strip_tags
from django.utils.translation import override

from pwscup.competitions.audit_details import LABELS, detail_html, detail_line, detail_pairs
from pwscup.competitions.models import AuditEntry

ROOT = Path(__file__).resolve().parents[2]

# The functions that write the log, with the keywords that are not details (who, where,
# what); the wrappers that pass their ``**detail`` on to one of them are found below.
AUDIT_FUNCTIONS = {"audit_record": {"user", "competition", "action", "round"}}


def _trees() -> list[ast.Module]:
    """The sources of ``pwscup/`` (not the migrations, nor the templates named ``.py``)."""
    trees = []
    for path in sorted((ROOT / "pwscup").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        try:
            trees.append(ast.parse(path.read_text(encoding="utf-8")))
        except SyntaxError:  # a starter kit's template ({% ... %})
            continue
    return trees


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _forwards(function, names) -> bool:
    """``function`` passes its ``**kwargs`` on to one of the audit functions ``names``."""
    kwarg = function.args.kwarg
    return kwarg is not None and any(
        isinstance(node, ast.Call)
        and _called_name(node) in names
        and any(
            kw.arg is None and isinstance(kw.value, ast.Name) and kw.value.id == kwarg.arg
            for kw in node.keywords
        )
        for node in ast.walk(function)
    )


def audit_functions(trees) -> dict[str, set[str]]:
    """The audit functions and every wrapper of them (to a fixed point), with the names of
    their own parameters (not details)."""
    found = dict(AUDIT_FUNCTIONS)
    functions = [
        node
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    while True:
        new = {
            f.name: {a.arg for a in f.args.args + f.args.kwonlyargs}
            for f in functions
            if f.name not in found and _forwards(f, found)
        }
        if not new:
            return found
        found.update(new)


def recorded_keys() -> set[str]:
    """Every literal keyword given as a detail to an audit function or wrapper."""
    trees = _trees()
    functions = audit_functions(trees)
    return {
        kw.arg
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _called_name(node) in functions
        for kw in node.keywords
        if kw.arg is not None and kw.arg not in functions[_called_name(node)]
    }


def test_every_detail_key_the_code_records_has_a_label():
    keys = recorded_keys()
    # The wrappers' own details and the keys passed through ``**detail`` are found too.
    assert {"opens", "changed", "fields", "window", "award", "team", "source", "rows"} <= keys
    assert len(keys) >= 40
    assert sorted(keys - set(LABELS)) == []


DETAIL = {
    "opens": "2026-11-28T11:42+00:00",
    "closes": "2026-11-29T03:00+00:00",
    "changed": ["title", "opens_at"],
    "automatic": True,
    "rows": 1200,
    "team": "Team A",
}


@pytest.mark.django_db
def test_an_entry_s_details_read_in_japanese():
    with override("ja"), timezone.override("Asia/Tokyo"):
        text = detail_line(DETAIL, action=AuditEntry.Action.PRESENTATIONS_SCHEDULED)
    assert text == (
        "開始: 2026-11-28 20:42 JST; 締切: 2026-11-29 12:00 JST; "
        "変更した項目: タイトル、開始日時; 自動: はい; 行数: 1200; チーム: Team A"
    )
    for key in DETAIL:
        assert f"{key}:" not in text


@pytest.mark.django_db
def test_an_entry_s_details_read_in_english():
    with override("en"), timezone.override("UTC"):
        pairs = detail_pairs(DETAIL, action=AuditEntry.Action.PRESENTATIONS_SCHEDULED)
    assert pairs == [
        ("Opens", "2026-11-28 11:42 UTC"),
        ("Closes", "2026-11-29 03:00 UTC"),
        ("Changed fields", "title, opens at"),
        ("Automatic", "Yes"),
        ("Rows", "1200"),
        ("Team", "Team A"),
    ]


def test_a_datetime_a_false_flag_and_an_unknown_key_read_plainly():
    moment = dt.datetime(2026, 1, 2, 3, 4, tzinfo=dt.UTC)
    detail = {"include_hidden": False, "kept": moment, "formula": "a + b", "secrets": ["x"]}
    with override("ja"), timezone.override("UTC"):
        assert detail_line(detail) == (
            "非公開データを含む: いいえ; kept: 2026-01-02 03:04 UTC; formula: a + b; "
            "含めた秘密情報: x"
        )


def test_a_choice_a_kind_s_round_field_and_a_list_of_secrets_read_by_their_labels():
    detail = {
        "data_pack": "slots (west)",
        "standings": "removed",
        "secrets": "original, samples",
        "fields": ["name", "sample_size"],
    }
    with override("ja"):
        text = detail_line(detail, action=AuditEntry.Action.ROUND_EDITED)
    assert text == (
        "データパック: チームのスロットごとのフォルダ (west); 総合順位: 削除済み; "
        "含めた秘密情報: 元データ（原表）、原表から抽出したサンプル（チーム別・公開データ別）; "
        "変更した項目: 名前、チームあたりのサンプルサイズ"
    )
    with override("en"):
        assert detail_line({"standings": "weighted_rank", "secrets": "none"}) == (
            "Standings: Weighted sum of ranks (lower is better); Secrets included: none"
        )


def test_the_standings_rounds_name_their_rankings_as_the_standings_form_does():
    """A standings line records each round as "slug ×weight (keys)": the keys read by the
    rankings' labels (the words of the standings form), in the reader's language."""
    from pwscup.competitions.attack_top import ATTACK_TOP_LABEL
    from pwscup.competitions.totals import TOTAL
    from pwscup.dp.standings import OVERALL
    from pwscup.kinds.rankings import ATTACK, RELEASE
    from pwscup.pwscup2015.standings import ANONYMIZATION

    detail = {
        "rounds": [
            "prelim ×0.1 (release, attack, attack_top, total)",
            "final ×0.9 (anonymization, overall)",
        ]
    }
    for language, separator in (("ja", "、"), ("en", ", ")):
        with override(language):
            words = [str(label) for label in (RELEASE.label, ATTACK.label, ATTACK_TOP_LABEL)]
            first = separator.join([*words, str(TOTAL.label)])
            second = separator.join([str(ANONYMIZATION.label), str(OVERALL.label)])
            assert detail_pairs(detail) == [
                (str(LABELS["rounds"]), f"prelim ×0.1 ({first}){separator}final ×0.9 ({second})")
            ]
    with override("ja"):
        assert "attack_top" not in detail_line(detail) and "公開データの順位" in detail_line(detail)
    with override("en"):  # a part that is no ranking's key stays as recorded
        assert detail_line({"rounds": "prelim ×0.1 (release, mystery)"}) == (
            "Rounds: prelim ×0.1 (release, mystery)"
        )


def test_the_log_s_details_escape_every_text_and_write_each_moment_as_a_time():
    """The console's log shows ``detail_html``: a moment is a ``<time>`` (one line on a phone,
    where the details broke ``2026-12-13`` after a hyphen), recorded as a datetime or as its
    ISO text; every other text, a team's name included, is escaped."""
    detail = {
        "opens": dt.datetime(2026, 12, 13, 2, 50, tzinfo=dt.UTC),
        "closes": "2026-12-20T02:50:00+00:00",
        "team": "<script>alert(1)</script> & co",
    }
    with override("en"), timezone.override("Asia/Tokyo"):
        html = detail_html(detail)
        line = detail_line(detail)
    assert html == (
        'Opens: <time datetime="2026-12-13T11:50:00+09:00">2026-12-13 11:50 JST</time>; '
        'Closes: <time datetime="2026-12-20T11:50:00+09:00">2026-12-20 11:50 JST</time>; '
        "Team: &lt;script&gt;alert(1)&lt;/script&gt; &amp; co"
    )
    assert strip_tags(html) == escape(line)  # the same words as the text the admin shows


@pytest.mark.django_db
def test_a_round_s_dates_edit_names_each_phase_field_by_its_words():
    """The *Dates and limits* page records its fields as ``<phase>_<field>``
    (``phases_edit_changes``): the log names them by the phase and the field, in the
    reader's language, never by the key (a Japanese organizer read ``release_closes_at``)."""
    from pwscup.competitions.phases_edit import phases_edit_changes

    phases = {"release": _phase(), "attack": _phase()}
    changed = phases_edit_changes(stored={}, phases=phases)
    assert "release_closes_at" in changed and "attack_closes_at" in changed
    release = {"changed": ["release_opens_at", "release_closes_at", "release_daily_limit"]}
    expected = {
        "ja": "開示フェーズ：開始日時、開示フェーズ：締切日時、開示フェーズ：1 日あたりのアップロード数",
        "en": "Release phase: opens at, Release phase: closes at, Release phase: uploads per day",
    }
    attack = {"changed": ["attack_opens_at", "attack_closes_at"]}
    same = {
        "ja": "攻撃フェーズ：開始日時、攻撃フェーズ：締切日時",
        "en": "Attack phase: opens at, Attack phase: closes at",
    }
    for language, text in expected.items():
        with override(language):
            assert detail_pairs(release, action="round_edited")[0][1] == text, language
            assert detail_pairs(attack, action="round_edited")[0][1] == same[language]
            every = detail_pairs({"changed": changed}, action="round_edited")[0][1]
            assert not any(name in every for name in changed), (language, every)


def _phase():
    """A phase's wanted values as the dates page hands them to ``phases_edit_changes``."""
    from types import SimpleNamespace

    now = timezone.now()
    return SimpleNamespace(
        opens_at=now, closes_at=now, daily_limit=1, total_limit=1, target_limit=1
    )


def test_a_value_cleared_or_never_set_reads_none_in_the_reader_s_language():
    """A setting left empty is recorded as null (the round's total saved without an
    *Attack against the top N releases*, a phase's total limit removed): the log says so in
    words, never Python's ``None``."""
    detail = {"total_formula": "utility", "attack_top_n": None}
    with override("ja"):
        assert detail_line(detail, action=AuditEntry.Action.ROUND_EDITED) == (
            "合計の式: utility; 上位 N 件の公開データに対する攻撃: なし"
        )
    with override("en"):
        assert detail_pairs(detail, action=AuditEntry.Action.ROUND_EDITED) == [
            ("Total formula", "utility"),
            ("Attack against the top N releases", "none"),
        ]
