"""The sequential round's services on the paper's tables (spec §13): creation, online steps,
validation kept FAILED with the spec's message, scores over the frozen prefix, ranking (§11)."""

import html

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import translation

from pwscup.core.errors import Refused
from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.sequential import selectors, services
from pwscup.sequential.models import Release, SequenceScore
from pwscup.submissions.messages import job_message_text
from tests.pwscup.factories import read_field
from tests.pwscup.seq_web_world import (
    fixture,
    fixture_config,
    freeze,
    publish,
    seq_world,
    upload_file,
)

pytestmark = pytest.mark.django_db

TABLE3 = "zhang_release_1.csv"
TABLE9 = "zhang_release_2_table9.csv"
TABLE4 = "zhang_release_2_table4.csv"


def test_a_bad_configuration_names_the_key():
    config = {**fixture_config("zhang_config.json"), "m": 1}
    with pytest.raises(ValidationError, match="configuration key 'm' must be an integer ≥ 2"):
        seq_world(config=config)


def test_a_configuration_naming_no_master_column_is_refused_and_no_round_is_left():
    from pwscup.competitions.models import Round

    config = {**fixture_config("zhang_config.json"), "sa": "Illness"}
    with pytest.raises(ValidationError, match="'Illness' is not a column of the master table"):
        seq_world(config=config)
    assert not Round.objects.filter(kind="sequential").exists()


def test_a_master_not_m_eligible_is_refused_with_the_release_named():
    config = {**fixture_config("zhang_config.json"), "require_m_eligible": True, "m": 3}
    with pytest.raises(ValidationError, match=r"T\(1\) is not 3-eligible: 'gastritis' holds 4"):
        seq_world(config=config)


def test_online_release_2_opens_only_after_release_1_is_frozen():
    world = seq_world()
    with pytest.raises(Refused, match="Release 2 opens when release 1 is frozen"):
        publish(world, "a", 2, fixture(TABLE9))
    first = publish(world, "a", 1, fixture(TABLE3))
    assert first.status == Release.Status.FINISHED, first.message
    assert first.results["MU"] == [2]
    assert selectors.open_steps(sequential=world.sequential) == [1]
    freeze(world)
    assert selectors.open_steps(sequential=world.sequential) == [2]
    with pytest.raises(Refused, match="Release 1 is frozen"):
        publish(world, "a", 1, fixture(TABLE3))


def test_w1_two_invariant_sequence_scores_as_the_spec_prints():
    world = seq_world()
    publish(world, "a", 1, fixture(TABLE3))
    freeze(world)
    second = publish(world, "a", 2, fixture(TABLE9))
    assert second.status == Release.Status.FINISHED, second.message
    r = second.results
    assert r["MU"] == [2, 2] and r["MINV"] == 2 and r["violations"] == []
    assert r["RN_max"] == pytest.approx(0.5) and r["RA_max"] == pytest.approx(0.5)
    assert r["RN_mean"] == pytest.approx(37 / 80) and r["RN_over"] == 0
    assert r["MAP_N"] == pytest.approx(15 / 32)
    assert r["IL"] == pytest.approx(0.177751, abs=1e-6) and r["CF"] == 2
    assert r["CF_ratio"] == pytest.approx(1 / 11)
    header, *rows = [line.split(",") for line in second.per_person.strip().splitlines()]
    assert header[:4] == ["pid", "lsf", "lsb", "sa"] and "P_N_true" in header
    emily = next(row for row in rows if row[0] == "Emily")
    assert float(emily[header.index("P_N_true")]) == pytest.approx(0.4)


def test_w1b_wrong_sensitive_value_is_kept_failed_with_the_spec_message_in_both_languages():
    world = seq_world()
    publish(world, "a", 1, fixture(TABLE3))
    freeze(world)
    content = fixture("zhang_release_2_table9_as_printed.csv")
    rejected = publish(world, "a", 2, content)
    assert rejected.status == Release.Status.FAILED
    assert read_field(rejected.file) == content  # kept as uploaded
    expected = (
        "release 2, row 1: pid 'Bob' must carry its true Disease 'dyspepsia', got 'gastritis' "
        "(Def. 2(2))"
    )
    with translation.override("en"):
        assert expected in job_message_text(rejected)
    with translation.override("ja"):
        assert "公開データ 2 の 1 行目" in job_message_text(rejected)
    # A failed upload is not the team's release: nothing was scored from it.
    valid = selectors.latest_valid_releases(
        sequential=world.sequential, team=world.teams["a"], steps=[2]
    )
    assert valid == {}


def test_a_refusal_names_the_file_as_the_team_uploaded_it_though_it_is_kept_as_release_j():
    world = seq_world()
    content = fixture(TABLE3) + b"1,Zoe,extra,fields,here,too\n"
    rejected = publish(world, "a", 1, content, name="my_release.csv")
    assert rejected.status == Release.Status.FAILED
    assert rejected.file.name.endswith("release_1.csv")
    for language in ("en", "ja"):
        with translation.override(language):
            text = job_message_text(rejected)
        assert "my_release.csv" in text and "release_1.csv" not in text
    # On the Submit tab: once, in the shared row under the upload (``rounds/_message_row.html``,
    # held at a phone's left edge), not in an old cell of the sequential kind's own.
    browser = Client()
    browser.force_login(world.users["a"])
    page = browser.get(tab_url(world.round, SUBMIT), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    block = page[page.index(f'<tbody data-testid="upload-{rejected.pk}"') :]
    block = block[: block.index("</tbody>")]
    with translation.override("en"):
        shown = html.escape(job_message_text(rejected), quote=False)
    assert block.count('data-testid="message"') == 1 and block.count(shown) == 1, block
    row = block[block.index('<tr class="upload-message') :]
    assert row.index(shown) < row.index("</tr>") and 'class="message"' not in block


def test_w2_intersection_attack_names_every_signature_change():
    world = seq_world()
    publish(world, "a", 1, fixture(TABLE3))
    freeze(world)
    second = publish(world, "a", 2, fixture(TABLE4))
    r = second.results
    assert r["MU"] == [2, 2] and r["MINV"] == 0 and r["RN_max"] == pytest.approx(1.0)
    assert r["RN_over"] == 2
    texts = " ".join(r["violations"])
    assert "person 'Bob': signature {bronchitis, dyspepsia} at release 1" in texts
    assert "person 'David'" in texts


def test_freeze_scores_each_sequence_and_the_ranking_follows_section_11():
    world = seq_world()
    for letter in "ab":
        publish(world, letter, 1, fixture(TABLE3))
    freeze(world)
    publish(world, "a", 2, fixture(TABLE9))  # 2-invariant
    publish(world, "b", 2, fixture(TABLE4))  # 2-unique only: fails the m-invariant gate
    # Team C uploads nothing: incomplete.
    freeze(world)
    assert world.sequential.all_frozen
    scores = {s.team.slug: s for s in SequenceScore.objects.filter(step=2)}
    assert scores["teamA"].complete and scores["teamB"].complete
    assert not scores["teamC"].complete
    rows = selectors.leaderboard_rows(sequential=world.sequential)
    assert [row.team.slug for row in rows] == ["teamA", "teamB", "teamC"]
    assert rows[0].rank == 1 and rows[0].safety == pytest.approx(0.5)
    assert rows[1].rank is None and rows[1].gate_failures == ("m-invariant",)
    assert rows[2].rank is None and not rows[2].complete


def test_the_latest_valid_upload_is_frozen_not_a_later_failed_one():
    world = seq_world()
    good = publish(world, "a", 1, fixture(TABLE3))
    bad = publish(world, "a", 1, b"gid,pid,Age,Zip,Disease\nx,Bob,21,12000,dyspepsia\n")
    assert bad.status == Release.Status.FAILED
    assert "column 'gid'" in bad.message
    freeze(world)
    good.refresh_from_db()
    bad.refresh_from_db()
    assert good.is_frozen and not bad.is_frozen


def test_a_step_table_hides_the_future():
    world = seq_world()
    content = services.step_table_bytes(sequential=world.sequential, team=world.teams["a"], step=1)
    lines = content.decode().splitlines()
    assert lines[0] == "pid,Age,Zip,Disease,lsf"
    assert len(lines) == 1 + 11 and not any(line.startswith("Emily,") for line in lines)


def test_timeline_counts_arrivals_and_departures():
    world = seq_world()
    master = services.master_frame(master=world.sequential.masters.get())
    assert master.timeline() == [
        {"step": 1, "size": 11, "arrivals": 0, "departures": 0},
        {"step": 2, "size": 11, "arrivals": 5, "departures": 5},
    ]


def test_the_console_panel_parses_each_master_once_until_it_or_the_configuration_changes(
    monkeypatch,
):
    """``master_timeline``: the panel shows the master's timeline on every view, parsed
    once per process; a new master (a new file) or a changed configuration is parsed anew."""
    from pwscup.sequential import console, engine
    from pwscup.sequential.services import masters

    world = seq_world()
    parsed = []
    frame = masters.master_frame
    monkeypatch.setattr(masters, "master_frame", lambda **k: parsed.append(1) or frame(**k))

    def timeline():
        return [m["timeline"] for m in console.panel_context(world.round)["masters"]]

    first = timeline()
    assert first == [
        [
            {"step": 1, "size": 11, "arrivals": 0, "departures": 0},
            {"step": 2, "size": 11, "arrivals": 5, "departures": 5},
        ]
    ]
    assert timeline() == first and len(parsed) == 1
    fewer = b"\n".join(fixture("zhang_master.csv").splitlines()[:-1]) + b"\n"
    services.master_upload(
        sequential=world.sequential, uploaded_file=upload_file(fewer, "master.csv"), team=None
    )
    expected = engine.master_read(fewer, world.sequential.config).timeline()
    assert timeline() == [expected] != first and len(parsed) == 2
    world.sequential.config = {**world.sequential.config, "require_m_eligible": False}
    world.sequential.save()
    world.sequential.refresh_from_db()
    timeline()
    assert len(parsed) == 3


def test_rejected_releases_are_bounded_per_day(settings):
    settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY = 2
    world = seq_world()
    bad = b"gid,pid,Age,Zip,Disease\nx,Bob,21,12000,dyspepsia\n"
    for _ in range(2):
        assert publish(world, "a", 1, bad).status == Release.Status.FAILED
    # The core's cap, counted per round-local day over every kind's uploads; it names the
    # kind's own local check (the 2015 game's `python -m scoring check` reads no release).
    with pytest.raises(Refused, match="Your team has had 2 failed uploads today") as refused:
        publish(world, "a", 1, bad)
    assert "first (python -m scoring seq check)." in refused.value.message
    assert publish(world, "b", 1, bad).status == Release.Status.FAILED  # per team
    with pytest.raises(Refused, match="The file is empty"):
        publish(world, "b", 1, b"")


def test_batch_mode_freezes_only_a_release_that_fits_the_frozen_prefix():
    """Batch mode: release 2 (with ``last``) was checked against a release 1 the team then
    replaced; at the freeze it no longer fits (its ``last`` names a group that is gone), so
    the team's sequence is incomplete rather than scored on a release that is now invalid."""
    config = {**fixture_config("small_config_last.json"), "mode": "batch"}
    world = seq_world(slug="seqbatch", config=config, master=fixture("small_master.csv"))
    assert selectors.open_steps(sequential=world.sequential) == [1, 2]
    publish(world, "a", 1, fixture("small_release_1.csv"))
    second = publish(world, "a", 2, fixture("small_release_2_last.csv"))
    assert second.status == Release.Status.FINISHED, second.message
    renumbered = fixture("small_release_1.csv").replace(b"\n1,", b"\n7,").replace(b"\n2,", b"\n8,")
    assert publish(world, "a", 1, renumbered).status == Release.Status.FINISHED
    for letter in "b":
        publish(world, letter, 1, fixture("small_release_1.csv"))
        publish(world, letter, 2, fixture("small_release_2_last.csv"))
    freeze(world)
    freeze(world)
    scores = {s.team.slug: s for s in SequenceScore.objects.filter(step=2)}
    assert not scores["teamA"].complete
    assert scores["teamB"].complete and scores["teamB"].results["RN_max"] == pytest.approx(0.5)


def test_the_order_of_the_qi_columns_survives_the_database():
    """jsonb sorts keys; the release header follows the configuration's QI order."""
    from pwscup.sequential.demo import DISEASES
    from pwscup.sequential.models import SequentialRound

    lines = ["pid,Zip,Age,Disease,lsf,lsb"] + [
        f"P{i},{10000 + i},{20 + i},{DISEASES[i % 4]},1,1" for i in range(8)
    ]
    config = {
        "n_releases": 1,
        "m": 2,
        "qi": {"Zip": "num", "Age": "num"},
        "sa": "Disease",
    }
    world = seq_world(slug="seqorder", config=config, master=("\n".join(lines) + "\n").encode())
    stored = SequentialRound.objects.get(pk=world.sequential.pk)
    assert list(stored.config["qi"]) == ["Zip", "Age"]
    table = services.step_table_bytes(sequential=stored, team=world.teams["a"], step=1)
    assert table.decode().splitlines()[0] == "pid,Zip,Age,Disease,lsf"
