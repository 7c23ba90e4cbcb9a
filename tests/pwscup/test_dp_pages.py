"""The DP round's pages over HTTP: the query endpoint's JSON replies (409 past the budget),
the browser forms, the ledger CSV, and what a team may never see (the hidden table, the
truth, another team's answers and releases, any score before the close)."""

import json

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pwscup.dp.services import (
    dp_estimate_check,
    dp_estimate_upload,
    dp_release_request,
    dp_rounds_score_closed,
)
from scoring.dp.errors import method_text
from tests.pwscup.dp_world import TOY_Z, build_dp_world, close_now


@pytest.fixture
def world(db):
    return build_dp_world()


def client_for(world, letter) -> Client:
    client = Client()
    client.force_login(world.users[letter])
    return client


def url(world, name, **kwargs):
    return reverse(
        f"dp:{name}",
        kwargs={
            "competition_slug": world.competition.slug,
            "round_slug": world.round.slug,
            **kwargs,
        },
    )


def post_json(client, address, payload):
    return client.post(address, data=json.dumps(payload), content_type="application/json")


def test_query_endpoint_answers_json_and_refuses_past_the_budget_with_409(world):
    client = client_for(world, "a")
    address = url(world, "query", level="eps-1")
    payload = {
        "type": "histogram",
        "attributes": ["gender", "age"],
        "epsilon": "1/14",
        "request_id": "q-1",
    }
    response = post_json(client, address, payload)
    assert response.status_code == 200
    body = response.json()
    assert body["charge_no"] == 1 and body["epsilon"] == "1/14" and body["sensitivity"] == 2
    assert body["lambda"] == 28.0 and len(body["answer"]) == 6
    assert (
        body["cells"][0] == ["F", "<=17"]
        and body["spent"] == "1/14"
        and body["remaining"] == "13/14"
    )
    again = post_json(client, address, payload).json()
    assert again["replayed"] is True and again["answer"] == body["answer"]
    big = post_json(client, address, {**payload, "epsilon": "1", "request_id": "q-2"})
    assert big.status_code == 409
    assert big.json()["error"].startswith("refused: query 2 asks epsilon 1 but only 13/14")
    bad = post_json(client, address, {**payload, "epsilon": "1e-3x", "request_id": "q-3"})
    assert bad.status_code == 400 and "not a decimal number" in bad.json()["error"]


def test_refusal_in_japanese(world):
    client = client_for(world, "a")
    response = client.post(
        url(world, "query", level="eps-1"),
        data=json.dumps({"type": "histogram", "attributes": ["gender"], "epsilon": "2"}),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 409
    assert response.json()["error"].startswith("拒否: クエリ 1 は epsilon 2 を求めていますが")


def test_the_browser_form_spends_and_the_ledger_page_and_csv_show_it(world):
    client = client_for(world, "a")
    level_page = client.get(url(world, "level", level="eps-1"))
    assert level_page.status_code == 200
    form = {
        "type": "histogram",
        "attributes": ["gender", "age"],
        "epsilon": "0.5",
        "request_id": "f-1",
    }
    response = client.post(url(world, "query", level="eps-1"), form)
    assert response.status_code == 302
    page = client.get(url(world, "level", level="eps-1")).content.decode()
    assert 'data-testid="dp-charge-1"' in page and 'data-testid="dp-remaining">0.5<' in page
    count = {"type": "count", "where_gender": "M", "where_age": "25-34", "epsilon": "0.25"}
    client.post(url(world, "query", level="eps-1"), count)
    refused = client.post(
        url(world, "query", level="eps-1"), {**form, "request_id": "f-3"}, follow=True
    )
    assert "refused: query 3 asks epsilon 0.5 but only 0.25" in refused.content.decode()
    csv_text = client.get(url(world, "ledger_csv", level="eps-1")).content.decode()
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("charge_no,kind,created_at,request_id,epsilon,spent_after")
    assert len(lines) == 1 + 6 + 1  # six cells of the histogram, one count


def test_the_ledger_names_each_query_in_japanese(world):
    """The ledger's Request column names the query by the form's words, not by the
    protocol's values ``histogram`` and ``count``."""
    client = client_for(world, "a")
    histogram = {"type": "histogram", "attributes": ["gender"], "epsilon": "0.25"}
    client.post(url(world, "query", level="eps-1"), {**histogram, "request_id": "j-1"})
    count = {"type": "count", "where_gender": "M", "epsilon": "0.25", "request_id": "j-2"}
    client.post(url(world, "query", level="eps-1"), count)
    page = client.get(url(world, "level", level="eps-1"), HTTP_ACCEPT_LANGUAGE="ja")
    html = page.content.decode()
    assert "<td>集計表: gender" in html and "<td>件数（1 セル）: gender=M" in html
    assert "histogram:" not in html and "count:" not in html


def test_an_empty_estimate_file_is_answered_as_empty(world):
    client = client_for(world, "a")
    address = url(world, "estimate_upload", level="eps-1")
    empty = SimpleUploadedFile("estimate.csv", b"", "text/csv")
    answer = client.post(address, {"file": empty}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert [str(m) for m in answer.context["messages"]] == ["The submitted file is empty."]
    answer = client.post(address, {}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert [str(m) for m in answer.context["messages"]] == ["Choose an estimate.csv file."]


def test_release_form_and_download(world):
    client = client_for(world, "a")
    response = client.post(
        url(world, "release", level="eps-4"),
        {
            "group_of_gender": "1",
            "group_of_age": "2",
            "g1_amount": "1",
            "g1_as": "epsilon",
            "g2_amount": "0.5",
            "g2_as": "rho",
        },
    )
    assert response.status_code == 302
    download = client.get(url(world, "release_csv", level="eps-4", number=1))
    assert download.status_code == 200
    assert b"".join(download.streaming_content).startswith(b"gender,age\n")
    other = client_for(world, "b")
    assert other.get(url(world, "release_csv", level="eps-4", number=1)).status_code == 404


def test_a_team_never_sees_the_hidden_table_or_another_teams_ledger(world):
    dp_release_request(
        dp_round=world.dp_round,
        team=world.teams["a"],
        user=world.users["a"],
        level="eps-1",
        payload={"groups": [{"attributes": ["gender", "age"], "epsilon": "1"}]},
    )
    client = client_for(world, "b")
    base = f"/c/{world.competition.slug}/{world.round.slug}/"
    # The first kind's download of the original answers 404 for a DP round.
    assert client.get(base + "original.csv").status_code == 404
    assert client.get(base + "config.json").status_code == 404
    assert client.get(base + "kit.zip").status_code == 404
    page = client.get(url(world, "level", level="eps-1")).content.decode()
    assert "dp-charge-1" not in page  # team A's release is not in team B's ledger
    assert client.get(url(world, "release_csv", level="eps-1", number=1)).status_code == 404
    anonymous = Client()
    assert anonymous.get(url(world, "level", level="eps-1")).status_code in (302, 404)
    assert anonymous.post(url(world, "query", level="eps-1")).status_code in (302, 404)


def test_no_score_or_truth_before_the_close_then_scores_after(
    world, django_capture_on_commit_callbacks
):
    content = (
        "target,gender,age,count\n"
        + "".join(
            f"gender_age,{g},{a},{v}\n"
            for (g, a), v in zip(
                [(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")], TOY_Z, strict=True
            )
        )
        + "gender,F,,4\ngender,M,,6\n"
    ).encode()
    kept = dp_estimate_upload(
        dp_round=world.dp_round,
        team=world.teams["a"],
        user=world.users["a"],
        level="eps-1",
        uploaded_file=SimpleUploadedFile("estimate.csv", content),
    )
    dp_estimate_check(estimate_id=kept.pk)  # what the worker runs
    for who in ("a", "b"):
        client = client_for(world, who)
        for address in (
            url(world, "leaderboard"),
            url(world, "level", level="eps-1"),
            f"/c/{world.competition.slug}/{world.round.slug}/",
        ):
            body = client.get(address).content.decode()
            assert "dp-l2-" not in body and "Mean L2" not in body
        board = client.get(url(world, "leaderboard")).content.decode()
        assert 'data-testid="dp-hidden"' in board
    organizer = Client()
    organizer.force_login(world.organizer)
    assert "dp-l2-" not in organizer.get(url(world, "leaderboard")).content.decode()
    close_now(world)
    with django_capture_on_commit_callbacks() as callbacks:
        waiting = client_for(world, "b").get(url(world, "leaderboard")).content.decode()
    assert 'data-testid="dp-scoring"' in waiting and "dp-l2-" not in waiting
    assert len(callbacks) == 1  # the score job is sent to the worker
    assert dp_rounds_score_closed() == [world.dp_round.pk]  # what the worker's beat task runs
    board = client_for(world, "b").get(url(world, "leaderboard"))
    text = board.content.decode()
    assert 'data-testid="dp-l2-eps-1-teama"' in text and "dp-baseline-eps-1-BT" in text
    # The truth is never printed: its cell counts do not appear as a row of the table.
    assert "publish_truth" not in text
    csv_text = (
        client_for(world, "b").get(url(world, "leaderboard") + "?format=csv").content.decode()
    )
    assert csv_text.splitlines()[0].startswith("level,table,rank,team")
    assert "eps-1,verified,1,Team A,prior (ε = 0),0,0.000000" in csv_text
    # The page's Method column speaks the reader's language; the CSV keeps the label's code.
    japanese = client_for(world, "b")
    japanese.cookies["django_language"] = "ja"
    board_ja = japanese.get(url(world, "leaderboard")).content.decode()
    assert method_text("prior (ε = 0)", "ja") in board_ja
    assert "<td>prior (ε = 0)</td>" not in board_ja


def test_a_round_of_another_kind_has_no_dp_pages(world):
    from tests.support import build_world

    other = build_world(slug="classic")
    client = Client()
    client.force_login(other.users["a"])
    address = reverse(
        "dp:leaderboard", kwargs={"competition_slug": "classic", "round_slug": other.round.slug}
    )
    assert client.get(address).status_code == 404
    assert address.endswith("/dp/leaderboard/")


def test_console_creates_a_dp_round_with_the_spec_messages(world):
    client = Client()
    client.force_login(world.organizer)
    address = reverse("dp_console:create", kwargs={"competition_slug": world.competition.slug})
    assert client.get(address).status_code == 200
    from django.core.files.uploadedfile import SimpleUploadedFile

    config = {
        "attributes": {"gender": ["F", "M"], "age": ["<=17", "18-24", "25-34"]},
        "workload": [{"id": "ga", "attributes": ["gender", "sexx"]}],
        "levels": [{"id": "eps-1", "epsilon": "1"}],
    }
    data = {
        "name": "New",
        "slug": "new",
        "config": json.dumps(config),
        "timezone": "Asia/Tokyo",
        "opens_at": "2026-01-01 00:00",
        "closes_at": "2026-12-01 00:00",
        "table": SimpleUploadedFile("t.csv", b"gender,age\nF,<=17\nM,18-24\n"),
    }
    response = client.post(address, data)
    assert response.status_code == 200
    assert (
        "Target &#x27;ga&#x27; names unknown attribute &#x27;sexx&#x27;"
        in response.content.decode()
    )
    data["config"] = "{"
    data["table"] = SimpleUploadedFile("t.csv", b"gender,age\nF,<=17\nM,18-24\n")
    response = client.post(address, data)
    assert response.status_code == 200
    assert "Not valid JSON: the syntax breaks at line 1, column 2." in response.content.decode()
    config["workload"][0]["attributes"] = ["gender", "age"]
    data["config"] = json.dumps(config)
    data["table"] = SimpleUploadedFile("t.csv", b"gender,age\nF,17-\nM,18-24\n")
    response = client.post(address, data)
    assert (
        "Column &#x27;age&#x27; holds values outside its declared domain: row 1 (&#x27;17-&#x27;)"
        in response.content.decode()
    )
    data["table"] = SimpleUploadedFile("t.csv", b"gender,age\nF,<=17\nM,18-24\n")
    response = client.post(address, data)
    assert response.status_code == 302
    from pwscup.competitions.models import Round

    created = Round.objects.get(competition=world.competition, slug="new")
    assert created.kind == "dp" and created.dp.config["workload"][0]["id"] == "ga"
    panel = client.get(reverse("console:round", args=[world.competition.slug, "new"]))
    assert 'data-testid="dp-console-panel"' in panel.content.decode()
    assert 'data-testid="dp-overview"' in panel.content.decode()
    outsider = client_for(world, "a")
    assert outsider.get(address).status_code == 404


def test_the_console_panel_shows_each_teams_spending_but_no_answer(world):
    from pwscup.dp.services import dp_query_answer

    result = dp_query_answer(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
        payload={"type": "histogram", "attributes": ["gender"], "epsilon": "0.5"},
    )  # fmt: skip
    client = Client()
    client.force_login(world.organizer)
    page = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    text = page.content.decode()
    assert 'data-testid="dp-overview"' in text
    # spent of the level's budget, and the number of charges said as such; nothing spent: —
    assert '0.5 of 1 <small class="muted">· 1 charge</small>' in text
    assert '<td class="num">— <small class="muted"></small></td>' in text
    assert repr(result.charge.reply["answer"][0]) not in text
    client.cookies["django_language"] = "ja"
    page = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    assert '1 のうち 0.5 <small class="muted">· 1 回</small>' in page.content.decode()


def test_a_refused_form_query_comes_back_302_with_its_message_as_dp_md_says(world):
    """docs/dp.md: past the budget or with an ε that does not parse, the level page comes
    back (302) with the message at its top; only an invalid form answers 400."""
    client = client_for(world, "a")
    address = url(world, "query", level="eps-1")
    form = {"type": "histogram", "attributes": ["gender"], "request_id": "d-1"}
    for epsilon, words in (("abc", "is not a decimal number"), ("5", "refused: query 1")):
        refused = client.post(address, {**form, "epsilon": epsilon})
        assert refused.status_code == 302
        page = client.get(refused["Location"]).content.decode()
        assert words in page
    assert client.post(address, {"type": "mean?", "epsilon": "0.1"}).status_code == 400
    # An estimate "from" a charge no team can have: refused with a message, never a 500.
    built = url(world, "estimate_from", level="eps-1")
    for source in ("release-99999999999999999999", "answer-²", "release-"):
        assert client.post(built, {"source": source}).status_code in (302, 400), source
    docs = (settings.BASE_DIR / "docs" / "dp.md").read_text()
    assert "brings the page back (302) with the message at its top" in docs
    assert "is a 400 on the pages" not in docs


def test_the_console_panel_writes_a_fraction_as_the_team_pages_and_says_the_close(world):
    """ε spent 1/3 reads ``1/3 (= 0.333333)`` as on the team's pages; once the release phase
    has closed and before the scores, the panel says they are being computed."""
    from pwscup.dp.services import dp_query_answer

    dp_query_answer(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
        payload={"type": "histogram", "attributes": ["gender"], "epsilon": "1/3"},
    )  # fmt: skip
    client = Client()
    client.force_login(world.organizer)
    address = reverse("console:round", args=[world.competition.slug, world.round.slug])
    text = client.get(address).content.decode()
    assert "1/3 (= 0.333333) of 1 <small" in text
    assert "are computed when the release phase closes" in text
    close_now(world)
    text = client.get(address).content.decode()
    assert "scores and baselines are being computed" in text
    assert "are computed when the release phase closes" not in text


def test_dp_md_names_the_method_labels_and_the_prior_baseline_as_the_product_writes_them():
    """An uploaded sample estimate is the team's row, labelled by its ledger (spec §7.4):
    docs/dp.md says so with the labels the product writes, and names the baseline row
    ``prior`` (it called an uploaded sample the leaderboard's "prior")."""
    from scoring.dp import method_label

    docs = (settings.BASE_DIR / "docs" / "dp.md").read_text()
    for queries, releases in ((2, 0), (1, 1), (0, 0)):
        assert f"`{method_label(queries=queries, releases=releases)}`" in docs
    assert method_label(queries=0, releases=1, estimator="own") == "own" and "`own`" in docs
    assert "baseline row `prior`" in docs and 'the leaderboard\'s "prior")' not in docs
