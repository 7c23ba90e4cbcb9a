"""The DP round page's five tabs (``pwscup.dp.views.tabs``): what each says to a visitor, a
team and an organizer, in both languages; the level page under *Submit* and the leaderboard
under *Results*; "what to do now" as the team goes; the worked example's numbers are the
scorer's; the sample estimate and the starter kit are for teams and organizers only."""

import io
import re
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pwscup.accounts.services import user_create
from pwscup.core import toolkit
from pwscup.dp.kit import sample_estimate
from pwscup.dp.services import (
    dp_estimate_check,
    dp_estimate_upload,
    dp_query_answer,
    dp_round_score,
)
from pwscup.kinds.tabs import DATA, OVERVIEW, RESULTS, RULES, SUBMIT, TABS, tab_url
from scoring.dp.utility import l2, spearman
from tests.pwscup.dp_world import TOY_Z, build_dp_world, close_now
from tests.pwscup.live_support import live_box, poll

pytestmark = pytest.mark.django_db

CURRENT = re.compile(r'data-testid="tab-([a-z]+)" aria-current="page"')


@pytest.fixture
def world(db):
    return build_dp_world(slug="dptabs")


def client_for(world, who: str, lang: str = "en") -> Client:
    client = Client()
    client.cookies["django_language"] = lang
    if who == "organizer":
        client.force_login(world.organizer)
    elif who != "visitor":
        client.force_login(world.users[who])
    return client


def page(client, address) -> str:
    response = client.get(address)
    assert response.status_code == 200, address
    return response.content.decode()


def dp_url(world, name, **kwargs) -> str:
    return reverse(
        f"dp:{name}",
        kwargs={
            "competition_slug": world.competition.slug,
            "round_slug": world.round.slug,
            **kwargs,
        },
    )


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("who", ["visitor", "a", "organizer"])
def test_every_tab_answers_with_the_tab_bar_marking_it(world, who, lang):
    client = client_for(world, who, lang)
    for key, _label in TABS:
        text = page(client, tab_url(world.round, key))
        assert CURRENT.findall(text) == [key]
    if who == "a":
        assert CURRENT.findall(page(client, dp_url(world, "level", level="eps-1"))) == [SUBMIT]
    assert CURRENT.findall(page(client, dp_url(world, "leaderboard"))) == [RESULTS]


def test_the_overview_says_the_game_in_plain_words_before_the_paper_s(world):
    text = page(client_for(world, "a"), tab_url(world.round, OVERVIEW))
    plain = text.index("The organizers hold a hidden table of 10 rows")
    assert "estimate some of its counts" in text and "privacy budget, ε" in text
    assert "L2 error (how far your counts are from the truth; lower is better)" in text
    paper = text.index('data-testid="dp-paper-words"')
    assert plain < text.index('data-testid="flow"') < text.index('data-testid="now"') < paper
    for term in ("Pk-anonymization", "eq. 2", "ρ", "BT, BR, BI"):
        assert term not in text[:paper], term
        assert term in text[paper:], term
    japanese = page(client_for(world, "a", "ja"), tab_url(world.round, OVERVIEW))
    assert "運営者は 10 行の非公開テーブルを持っています" in japanese
    assert "論文の用語では" in japanese


def _now(world, who="a") -> str:
    text = page(client_for(world, who), tab_url(world.round, OVERVIEW))
    start = text.index('data-testid="now"')
    return text[start : text.index("</section>", start)]


def _flow_now(world) -> str:
    text = page(client_for(world, "a"), tab_url(world.round, OVERVIEW))
    return re.search(r'flow-now" aria-current="step">.*?<strong>(.*?)</strong>', text, re.S)[1]


def test_what_to_do_now_follows_the_team(world):
    now = _now(world)
    assert "Start with the sample estimate of the Data tab" in now
    assert "Open level eps-1 and ask a first query, or upload an estimate." in now
    assert dp_url(world, "level", level="eps-4") in now
    assert _flow_now(world) == "Spend your budget"
    dp_query_answer(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
        payload={"type": "histogram", "attributes": ["gender"], "epsilon": "0.5"},
    )  # fmt: skip
    now = _now(world)
    assert "Upload an estimate for level eps-1 (you have none yet)." in now
    assert "Open level eps-4 and ask a first query" in now
    assert _flow_now(world) == "Upload an estimate per level"
    close_now(world)
    assert "the scores are being computed" in _now(world)
    assert _flow_now(world) == "The round closes"
    dp_round_score(dp_round=world.dp_round)
    now = _now(world)
    assert "The round is closed: see the leaderboard." in now
    assert dp_url(world, "leaderboard") in now
    assert _flow_now(world) == "Scores and ranking"


def test_a_visitor_is_offered_to_sign_up_and_an_organizer_the_console(world):
    visitor = page(client_for(world, "visitor"), tab_url(world.round, OVERVIEW))
    assert 'data-testid="team-register"' in visitor and "sign up" in visitor
    organizer = page(client_for(world, "organizer"), tab_url(world.round, OVERVIEW))
    assert "You organize this competition; you are not in a team." in organizer


def test_the_data_tab_offers_the_kit_the_sample_and_the_wheel(world):
    text = page(client_for(world, "a"), tab_url(world.round, DATA))
    assert dp_url(world, "kit_download") in text and dp_url(world, "sample_estimate") in text
    assert reverse("toolkit_download", args=[toolkit.wheel_filename()]) in text
    head = re.search(r'data-testid="dp-sample-head">(.*?)</pre>', text, re.S)[1]
    assert head.startswith("target,gender,age,count\ngender_age,F,&lt;=17,1.6666666666666667\n")
    assert head.endswith("\n…")
    assert "9 lines in all, the header included." in text
    assert 'data-testid="dp-attributes"' in text and 'data-testid="dp-workload"' in text
    visitor = page(client_for(world, "visitor"), tab_url(world.round, DATA))
    assert dp_url(world, "kit_download") not in visitor
    assert 'data-testid="dp-kit-login"' in visitor
    assert "F, M" in visitor  # the public domains are public


def test_the_sample_and_the_kit_are_for_teams_and_organizers_only(world):
    for who in ("a", "organizer"):
        client = client_for(world, who)
        sample = client.get(dp_url(world, "sample_estimate"))
        assert sample.status_code == 200 and sample["Content-Type"].startswith("text/csv")
        assert sample["Content-Disposition"] == 'attachment; filename="dp_sample_estimate.csv"'
        assert sample.content.decode().splitlines()[-1] == "gender,M,,5.0"
    assert client_for(world, "visitor").get(dp_url(world, "sample_estimate")).status_code == 302
    outsider = Client()
    outsider.force_login(user_create(username="dptabs-outsider", password="pw"))
    assert outsider.get(dp_url(world, "sample_estimate")).status_code == 404
    assert outsider.get(dp_url(world, "kit_download")).status_code == 404


def test_the_kit_holds_the_config_the_sample_a_practice_table_a_readme_and_the_wheel(world):
    response = client_for(world, "a").get(dp_url(world, "kit_download"))
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('filename="dp_dp_kit.zip"')
    with zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))) as zf:
        names = zf.namelist()
        readme = zf.read("README.md").decode()
        practice = zf.read("practice_table.csv").decode().splitlines()
        sample = zf.read("sample_estimate.csv")
    assert names == [
        "README.md",
        "dp_config.json",
        "sample_estimate.csv",
        "practice_table.csv",
        toolkit.wheel_filename(),
    ]
    assert "## English" in readme and "## 日本語" in readme
    assert readme.index("## English") < readme.index("## 日本語")
    assert f'pip install "{toolkit.wheel_filename()}[dp]"' in readme
    assert "python -m venv .venv" in readme and ". .venv/bin/activate" in readme
    assert "python -m scoring dp check sample_estimate.csv --config dp_config.json" in readme
    assert practice[0] == "gender,age" and len(practice) == 1 + 10
    assert sample == client_for(world, "a").get(dp_url(world, "sample_estimate")).content


def test_the_worked_example_is_the_scorer_s(world):
    text = page(client_for(world, "a"), tab_url(world.round, RULES))
    truth, estimate = [10, 5, 3, 2], [8, 6, 1, 3]
    assert f"{l2(estimate, truth):.3f}" == "3.162"
    assert f"{spearman(estimate, truth):.3f}" == "0.800"
    assert "√(4 + 1 + 4 + 1) = <strong>3.162</strong>" in text
    assert "Spearman correlation = <strong>0.800</strong>" in text
    uniform = l2([5] * 4, truth)
    assert f"has L2 = {uniform:.3f} and Spearman = 0.000" in text
    for sentence in (
        "How far your counts are from the true counts, summed over cells",
        "Whether you ordered the cells by size the same way the truth does: higher is better",
        "None in this round: every estimate is ranked by the rule below.",
        "At each level, the lowest mean L2 ranks first",
        "1/14 charged fourteen times is exactly 1",
    ):
        assert sentence in text, sentence
    assert 'data-testid="dp-levels-config"' in text and "eps-4" in text


def test_the_submit_tab_lists_the_levels_first_while_open_and_one_line_otherwise(world):
    text = page(client_for(world, "a"), tab_url(world.round, SUBMIT))
    bar = text.index('data-testid="round-tabs"')
    tab = text[text.index("</nav>", bar) :]
    assert tab.index('data-testid="dp-levels"') < 200  # the levels come first
    assert 'data-testid="dp-level-link-eps-1"' in tab and 'data-testid="dp-level-eps-4"' in tab
    assert dp_url(world, "level", level="eps-1") in tab
    close_now(world)
    closed = page(client_for(world, "a"), tab_url(world.round, SUBMIT))
    assert 'data-testid="dp-state"' in closed and "dp-level-link" not in closed
    assert "The release phase closed on" in closed


def test_results_before_and_after_the_close(world):
    kept = dp_estimate_upload(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
        uploaded_file=SimpleUploadedFile("e.csv", sample_estimate(dp_round=world.dp_round)),
    )  # fmt: skip
    dp_estimate_check(estimate_id=kept.pk)
    before = page(client_for(world, "a"), tab_url(world.round, RESULTS))
    assert 'data-testid="dp-hidden"' in before and "dp-leaderboard-link" not in before
    assert f'data-testid="dp-verdict-{kept.pk}" data-status="finished"' in before
    assert "Mean L2" not in before
    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    after = page(client_for(world, "a"), tab_url(world.round, RESULTS))
    assert 'data-testid="dp-leaderboard-link"' in after and dp_url(world, "leaderboard") in after
    expected = (l2([10 / 6] * 6, TOY_Z) + l2([5, 5], [4, 6])) / 2
    assert f'data-testid="dp-result-l2-eps-1">{expected:.4f}<' in after


def test_the_level_page_s_estimate_list_is_polled_in_place_until_the_verdict(world):
    client = client_for(world, "a")
    address = dp_url(world, "level", level="eps-1")
    kept = dp_estimate_upload(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
        uploaded_file=SimpleUploadedFile("e.csv", sample_estimate(dp_round=world.dp_round)),
    )  # fmt: skip
    full = page(client, address)
    assert f'data-fragment-url="{address}?fragment=1"' in full
    assert 'data-pending="1"' in full  # static/live.js polls while a check is pending
    live_url, etag = live_box(full)
    assert live_url == reverse("live_team", args=[world.competition.slug, world.round.slug])
    waiting = client.get(address + "?fragment=1")
    assert waiting.status_code == 200 and b'data-pending="1"' in waiting.content
    assert b"<html" not in waiting.content and b"round-tabs" not in waiting.content
    again = poll(client, live_url, etag)
    assert again.status_code == 304 and again.content == b""  # nothing moved
    dp_estimate_check(estimate_id=kept.pk)  # the worker: claim, then complete
    assert poll(client, live_url, etag).status_code == 200  # the script fetches the list
    done = client.get(address + "?fragment=1")
    assert done.status_code == 200 and b'data-pending="0"' in done.content
    assert f'data-testid="dp-verdict-{kept.pk}" data-status="finished"'.encode() in done.content
