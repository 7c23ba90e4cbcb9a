"""Where a team stands, on the Submit and Results tabs of every kind: each scored upload
against the round's gates (named, passed or failed) and the team's current rank, read from
the leaderboard's own ranking (never computed a second way)."""

import re

import pytest

from pwscup.kinds.tabs import RESULTS, SUBMIT, tab_url
from pwscup.pwscup2015.leaderboards.selectors import leaderboard_standings
from pwscup.pwscup2015.models import Pwscup2015Round
from tests.pwscup.factories import scored

pytestmark = pytest.mark.django_db


def page(client, world, tab) -> str:
    response = client.get(tab_url(world.round, tab))
    assert response.status_code == 200
    return response.content.decode()


def gates_row(html: str, n: int) -> str:
    match = re.search(rf'<tr data-testid="gates-{n}"[^>]*>(.*?)</tr>', html, re.S)
    assert match, html[html.find('data-testid="standing"') :][:3000]
    return match.group(0)


def test_2015_each_scored_upload_names_each_gate_passed_or_failed(world, client):
    Pwscup2015Round.objects.filter(round=world.round).update(
        utility_gates={"U1": 1e12, "S1": {"min": 1e12}}
    )
    scored(world, "a", seed=1)
    client.force_login(world.users["a"])
    for tab in (SUBMIT, RESULTS):
        html = page(client, world, tab)
        row = gates_row(html, 1)
        assert 'data-passed="0"' in row
        assert "U1 ≤ 1,000,000,000,000" in html and "S1 ≥ 1,000,000,000,000" in html
        assert row.count("gate-pass") == 1 and row.count("gate-fail") == 2  # S1 and "all"
        rank = re.search(r'data-testid="rank"[^>]*>(.*?)</p>', html, re.S).group(1)
        assert "leaderboard is not public" in rank  # a private leaderboard tells no rank


def test_2015_the_rank_is_the_leaderboards_own(make_world, client):
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    scored(world, "b", seed=2, delete=3)
    client.force_login(world.users["b"])
    standings = leaderboard_standings(
        phase=world.anonymization, user=world.users["b"], is_organizer=False
    )
    expected = next(r.rank for r in standings.rows() if r.team.pk == world.teams["b"].pk)
    for tab in (SUBMIT, RESULTS):
        html = page(client, world, tab)
        assert f"Your current rank: <strong>{expected}</strong> of 2 ranked teams" in html
        assert 'data-testid="no-gates"' in html  # this round has no gates: said, not invented


def test_2015_the_rank_follows_the_next_score_of_another_team(make_world, client):
    """The tabs read a small table of places kept per ranking version: a new score is a new
    version, so the next page tells the new rank and count."""
    world = make_world(leaderboard_public=True)
    scored(world, "b", seed=2, delete=3)
    client.force_login(world.users["b"])
    pattern = r"Your current rank: <strong>(\d+)</strong> of (\d+) ranked team"
    assert re.search(pattern, page(client, world, SUBMIT)).groups() == ("1", "1")
    scored(world, "a", seed=1)
    standings = leaderboard_standings(
        phase=world.anonymization, user=world.users["b"], is_organizer=False
    )
    expected = next(r.rank for r in standings.rows() if r.team.pk == world.teams["b"].pk)
    for tab in (SUBMIT, RESULTS):
        assert re.search(pattern, page(client, world, tab)).groups() == (str(expected), "2")


def test_2015_a_team_that_fails_a_gate_is_told_it_is_unranked(make_world, client):
    world = make_world(leaderboard_public=True)
    Pwscup2015Round.objects.filter(round=world.round).update(utility_gates={"S1": {"min": 1e12}})
    scored(world, "a", seed=1)
    client.force_login(world.users["a"])
    html = page(client, world, SUBMIT)
    assert "<strong>Unranked</strong>" in html
    assert 'data-passed="0"' in gates_row(html, 1)
    client.force_login(world.users["c"])  # no upload: no rank, and says why
    assert "No rank yet" in page(client, world, RESULTS)


def dp_scored_world(config_extra: dict):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from pwscup.dp.kit import sample_estimate
    from pwscup.dp.services import dp_estimate_check, dp_estimate_upload
    from tests.pwscup.dp_world import TOY_CONFIG, build_dp_world

    world = build_dp_world(slug="dpstand", config={**TOY_CONFIG, **config_extra})
    for letter in "ab":
        kept = dp_estimate_upload(
            dp_round=world.dp_round, team=world.teams[letter], user=world.users[letter],
            level="eps-1",
            uploaded_file=SimpleUploadedFile("e.csv", sample_estimate(dp_round=world.dp_round)),
        )  # fmt: skip
        dp_estimate_check(estimate_id=kept.pk)
    return world


def test_dp_gate_and_ranks_are_shown_once_scored(db, client):
    from pwscup.dp.ranking import level_boards, overall_ranking
    from pwscup.dp.services import dp_round_score
    from tests.pwscup.dp_world import close_now

    world = dp_scored_world({"spearman_gate": 0.99})
    client.force_login(world.users["a"])
    before = page(client, world, SUBMIT)
    assert 'data-testid="gate-rule"' in before and "mean ρs ≥ 0.99" in before
    assert "upload-gates" not in before  # no score before the close
    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    overall = overall_ranking(level_boards(dp_round=world.dp_round))
    for tab in (SUBMIT, RESULTS):
        html = page(client, world, tab)
        row = gates_row(html, 1)
        assert "eps-1 · #1" in row and 'data-passed="0"' in row  # a uniform guess: ρs < 0.99
        # the legend stands above the sideways-scrolling table, not in it (a phone cut it off)
        gates = html[html.index('data-testid="upload-gates"') :]
        legend = gates.index('data-testid="gates-legend"')
        assert (
            legend < gates.index('class="scroll"') and "<caption" not in gates.split("</table>")[0]
        )
        assert 'aria-describedby="gates-legend"' in gates
        mine = next((r for r in overall if r.team.pk == world.teams["a"].pk), None)
        if mine is None:
            assert "No overall rank" in html
        else:
            assert f"Your overall rank: <strong>{mine.rank}</strong> of {len(overall)}" in html


def test_dp_without_a_gate_says_so(db, client):
    from pwscup.dp.services import dp_round_score
    from tests.pwscup.dp_world import close_now

    world = dp_scored_world({})
    client.force_login(world.users["a"])
    assert 'data-testid="no-gates"' in page(client, world, SUBMIT)
    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    html = page(client, world, RESULTS)
    assert 'data-testid="no-gates"' in html and "Your overall rank: <strong>" in html


def test_sequential_gates_per_release_and_the_leaderboards_rank(db, client):
    from pwscup.sequential import selectors
    from tests.pwscup.seq_web_world import fixture, freeze, publish, seq_world

    world = seq_world(slug="seqstand")
    client.force_login(world.users["a"])
    assert "none is frozen yet" in page(client, world, SUBMIT)
    for letter in "ab":
        publish(world, letter, 1, fixture("zhang_release_1.csv"))
    freeze(world)
    publish(world, "a", 2, fixture("zhang_release_2_table9.csv"))  # 2-invariant
    publish(world, "b", 2, fixture("zhang_release_2_table4.csv"))  # fails the m-invariant gate
    freeze(world)
    rows = {r.team.slug: r for r in selectors.leaderboard_rows(sequential=world.sequential)}
    for tab in (SUBMIT, RESULTS):
        html = page(client, world, tab)
        assert f"Your current rank: <strong>{rows['teamA'].rank}</strong> of 1 ranked" in html
        newest = gates_row(html, 1)
        assert "Release 2" in newest and "m-invariant (MINV ≥ 2)" in html
        assert 'data-passed="1"' in newest
    client.force_login(world.users["b"])
    for tab in (SUBMIT, RESULTS):
        html = page(client, world, tab)
        assert "<strong>Unranked</strong>" in html and "fails m-invariant" in html
        newest = gates_row(html, 1)
        assert "Release 2" in newest and 'data-passed="0"' in newest and "✘" in newest


def test_sequential_gates_are_named_in_japanese(db, client):
    """The require gate is the library's key (``m-invariant``): a Japanese reader sees its
    word translated on the gates table, the unranked line and the leaderboard."""
    from tests.pwscup.seq_web_world import fixture, freeze, publish, seq_world, url

    world = seq_world(slug="seqstandja")
    for letter in "ab":
        publish(world, letter, 1, fixture("zhang_release_1.csv"))
    freeze(world)
    publish(world, "a", 2, fixture("zhang_release_2_table9.csv"))
    publish(world, "b", 2, fixture("zhang_release_2_table4.csv"))  # fails the m-invariant gate
    freeze(world)
    client.force_login(world.users["b"])
    for tab in (SUBMIT, RESULTS):
        html = client.get(tab_url(world.round, tab), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
        assert "m-不変 (MINV ≥ 2)" in html and "系列が m-不変 を満たしていません。" in html
        assert "m-invariant" not in html
    board = client.get(url(world, "sequential:leaderboard"), HTTP_ACCEPT_LANGUAGE="ja")
    html = board.content.decode()
    assert "m-不変 を満たさない" in html and "fails m-invariant" not in html


def test_2015_data_tab_describes_each_column(world, client):
    from pwscup.competitions.selectors import round_config, round_original_table
    from pwscup.kinds.tabs import DATA

    config = round_config(round=world.round)
    table = round_original_table(round=world.round)
    client.force_login(world.users["a"])
    html = page(client, world, DATA)
    for name in config.columns:
        row = re.search(rf'<tr[^>]* data-testid="column-{re.escape(name)}">(.*?)</tr>', html, re.S)
        assert row, name
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
        role = "quasi-identifier" if name in config.qi else "sensitive" if name in config.sa else ""
        assert role in cells[0], (name, cells)
        # The count, after the column's name a phone shows in the cell ("Values").
        count = re.fullmatch(r'<span class="phone-label"[^>]*>Values</span> (\d+)', cells[2])
        assert count and count.group(1) == str(table[name].nunique()), (name, cells)
    age = re.search(r'<tr[^>]* data-testid="column-age">(.*?)</tr>', html, re.S).group(1)
    ages = table["age"].astype(int)
    assert f"{ages.min()} to {ages.max()}" in age and "number" in age and "quasi-identifier" in age
    visitor = page(client.__class__(), world, DATA)  # roles and types, not the values
    assert 'data-testid="column-age"' in visitor and f"{ages.min()} to {ages.max()}" not in visitor


def test_2015_overview_says_how_to_generalize(world, client):
    from pwscup.kinds.tabs import OVERVIEW

    hint = re.search(r'data-testid="generalize-hint">(.*?)</span>', page(client, world, OVERVIEW))
    assert "30-39" in hint.group(1) and "refused" in hint.group(1) and "35" in hint.group(1)


def test_2015_a_range_is_refused_with_the_accepted_form(world):
    from pwscup.submissions.models import Status
    from tests.pwscup.factories import read_csv_text, score, upload
    from tests.support import table_bytes

    table = read_csv_text(world.original)
    table.loc[0, "age"] = "30-39"
    submission = score(upload(world, "a", table_bytes(table)))
    assert submission.status == Status.FAILED
    from pwscup.submissions.templatetags.job_messages import job_message

    message = job_message(submission)
    assert "row 1 ('30-39')" in message
    assert "every age from 30 to 39 by 35" in message and "a range such as 30-39" in message


def test_dp_level_ranks_listed_are_the_terms_of_the_rank_sum(db, client):
    """The Results tab lists every level the overall sum counts: a level without the team's
    verified estimate adds the level's last rank + 1, and says so (it was left out)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from pwscup.dp.kit import sample_estimate
    from pwscup.dp.ranking import team_standing
    from pwscup.dp.services import dp_estimate_check, dp_estimate_upload, dp_round_score
    from tests.pwscup.dp_world import close_now

    world = dp_scored_world({})  # teams A and B at eps-1, A first
    kept = dp_estimate_upload(
        dp_round=world.dp_round, team=world.teams["b"], user=world.users["b"], level="eps-4",
        uploaded_file=SimpleUploadedFile("e.csv", sample_estimate(dp_round=world.dp_round)),
    )  # fmt: skip
    dp_estimate_check(estimate_id=kept.pk)
    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    standing = team_standing(dp_round=world.dp_round, team=world.teams["a"])
    assert standing.overall.total == 3  # eps-1: 1, eps-4 (no estimate): 1 + 1
    client.force_login(world.users["a"])
    html = page(client, world, RESULTS)
    listed = re.findall(r'data-testid="level-rank-([^"]+)" data-rank="(\d+)"', html)
    assert listed == [("eps-1", "1"), ("eps-4", "2")]
    assert sum(int(rank) for _, rank in listed) == standing.overall.total
    assert "(sum of your level ranks: 3)" in html
    assert "Level eps-4: counts as rank 2 (no verified estimate of yours" in html


def test_dp_a_declared_entry_is_a_row_of_its_own_on_the_results_tab_and_the_leaderboard(db, client):
    """A team's declared upload (spec §8.2) is ranked in the level's declared table, apart:
    the Results tab's level line names its rank there and says it is not in the sum, and the
    leaderboard lists it in the "Declared, unverified" table with its declared ε and flag."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    from pwscup.dp.services import dp_declared_upload, dp_estimate_check, dp_round_score
    from tests.pwscup.dp_world import close_now, toy_csv

    world = dp_scored_world({"tracks": {"interactive": True, "batch": "both"}})
    declaration = {  # the hidden table itself as a release at ε = 1: flagged, not rejected
        "mechanism": "pk_anonymization",
        "groups": [{"attributes": ["gender", "age"], "epsilon": "1"}],
        "estimator": "BT",
    }
    declared = dp_declared_upload(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-4",
        uploaded_file=SimpleUploadedFile("release.csv", toy_csv()), declaration_raw=declaration,
    )  # fmt: skip
    dp_estimate_check(estimate_id=declared.pk)
    declared.refresh_from_db()
    assert declared.declared and declared.flagged
    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    client.force_login(world.users["a"])
    html = page(client, world, RESULTS)
    line = re.search(r'<li data-testid="level-rank-eps-4"[^>]*>(.*?)</li>', html, re.S)
    assert line, html[html.find('data-testid="standing"') :][:3000]
    assert "Level eps-4: counts as rank 1 (no verified estimate of yours" in line.group(1)
    assert (
        "(your declared entry: rank 1 of the declared table, ranked apart and not in the sum)"
        in line.group(1)
    )
    board = client.get(
        reverse("dp:leaderboard", args=[world.competition.slug, world.round.slug])
    ).content.decode()
    table = re.search(r'<table[^>]*data-testid="dp-declared-eps-4">(.*?)</table>', board, re.S)
    assert table and 'data-testid="dp-declared-eps-1"' not in board
    (row,) = re.findall(r"<tr><td.*?</tr>", table.group(1), re.S)
    cells = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
    assert cells[:5] == ["1", world.teams["a"].name, declared.method_shown, "1", "flagged"]
    assert cells[5] == "0.0000"  # the hidden table itself: its counts are exact
    assert 'data-testid="dp-row-eps-4-' not in board  # not among the verified rows


def test_2015_the_rank_reads_naturally_in_japanese(make_world, client):
    """The ranking's label already ends in による (「…による最悪の再識別率」): the sentence
    names it as the ranking's measure rather than adding a second による."""
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    client.force_login(world.users["a"])
    html = client.get(tab_url(world.round, SUBMIT), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    rank = re.search(r'data-testid="rank"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert "位（順位の指標: " in rank and "、最終提出での順位）。" in rank
    assert " による、" not in rank
