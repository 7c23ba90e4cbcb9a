"""The round page's five tabs (``pwscup.kinds.tabs``), the same for every kind: each tab of
each of the demo's rounds (five kinds) answers for a visitor, a team member and an
organizer, in both languages, with the tab bar marking where the reader is."""

import re

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse

from pwscup.competitions.models import Round
from pwscup.kinds import kind_of
from pwscup.kinds.tabs import OVERVIEW, TABS, tab_url

pytestmark = pytest.mark.django_db

TAB_LINK = re.compile(r'<a href="([^"]+)" data-testid="tab-([a-z]+)"( aria-current="page")?>')


@pytest.fixture
def demo_rounds(demo_loaded, db):
    """The demo's rounds; the demo is loaded once for the module (tests/conftest.py): the
    tests only read it, each in its own rolled-back transaction."""
    rounds = list(Round.objects.filter(competition__slug="demo").order_by("order"))
    assert {kind_of(r).key for r in rounds} == {
        "pwscup2015",
        "dp",
        "sequential",
        "synthetic",
        "scorer",
    }
    return rounds


def _client(who: str, lang: str) -> Client:
    client = Client()
    client.cookies["django_language"] = lang
    if who != "visitor":
        assert client.login(username=who, password="pwscup-demo")
    return client


def test_the_tab_addresses_are_the_round_page_and_one_path_per_tab(demo_rounds):
    round_ = demo_rounds[0]
    base = f"/c/demo/{round_.slug}/"
    assert tab_url(round_, OVERVIEW) == base
    assert [tab_url(round_, key) for key, _label in TABS[1:]] == [
        base + "data/",
        base + "rules/",
        base + "submit/",
        base + "results/",
    ]
    with pytest.raises(NoReverseMatch):
        reverse("round_tab", args=["demo", round_.slug, "overview"])  # it is the round page
    assert Client().get(base + "bogus/").status_code == 404


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("who", ["visitor", "team-a", "organizer"])
def test_every_tab_of_every_kind_answers_with_the_tab_bar(demo_rounds, who, lang):
    client = _client(who, lang)
    labels = {
        "en": ["Overview", "Data", "Rules and scoring", "Submit", "Results"],
        "ja": ["概要", "データ", "ルールと採点", "提出", "結果"],
    }[lang]
    for round_ in demo_rounds:
        for key, _label in TABS:
            url = tab_url(round_, key)
            response = client.get(url)
            assert response.status_code == 200, (round_.slug, key, who)
            page = response.content.decode()
            links = TAB_LINK.findall(page)
            assert [(href, tab) for href, tab, _ in links] == [
                (tab_url(round_, k), k) for k, _l in TABS
            ], (round_.slug, key)
            assert [tab for _h, tab, current in links if current] == [key], (round_.slug, key)
            bar = page[page.index('data-testid="round-tabs">') + len('data-testid="round-tabs">') :]
            bar = bar[: bar.index("</nav>")]
            assert [re.sub(r"<[^>]+>", "", part).strip() for part in bar.split("</a>")[:-1]] == (
                labels
            )
            assert str(kind_of(round_).label) in page or lang == "ja"


def test_a_visitor_is_offered_to_log_in_or_sign_up_on_the_overview(demo_rounds):
    for round_ in demo_rounds:
        page = Client().get(tab_url(round_, OVERVIEW)).content.decode()
        assert 'data-testid="team-register"' in page, round_.slug
        assert reverse("signup") in page and reverse("login") in page


def test_a_team_member_is_told_what_to_do_now_and_shown_the_flow(demo_rounds):
    client = _client("team-a", "en")
    for round_ in demo_rounds:
        page = client.get(tab_url(round_, OVERVIEW)).content.decode()
        assert 'data-testid="now"' in page and 'data-testid="flow"' in page, round_.slug
        steps = re.findall(r'<li class="flow-step flow-(done|now|later)"', page)
        assert len(steps) >= 3 and steps.count("now") <= 1, (round_.slug, steps)
