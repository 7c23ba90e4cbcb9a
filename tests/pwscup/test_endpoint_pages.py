"""A kind's declared endpoint that is also a page (``RoundEndpoint.page_name``): the core
serves one answer at the same route to the client (``api:<name>``) and to a logged-in
browser (``<kind>:<page_name>``), with the pages' access. The sequential round's Data tab
downloads are the case played here: the same bytes on both faces, the same refusals."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.kinds.registry import all_kinds
from tests.pwscup.seq_web_world import seq_world


def test_every_page_of_an_endpoint_has_the_endpoint_s_route():
    """For every registered kind, each endpoint's page resolves under the round exactly where
    its API endpoint does (the API's prefix aside), so the Data tab and the client name one
    address."""
    pages = 0
    for kind in all_kinds():
        for endpoint in kind.api_round_endpoints():
            if not endpoint.page_name:
                continue
            pages += 1
            kwargs = {"competition_slug": "comp", "round_slug": "rnd"}
            for converter, name in re.findall(r"<(?:(\w+):)?(\w+)>", endpoint.route):
                kwargs[name] = 2 if converter == "int" else "teamb"
            page = reverse(f"{kind.namespace}:{endpoint.page_name}", kwargs=kwargs)
            api = reverse(f"api:{endpoint.name}", kwargs=kwargs)
            assert page.split("/rnd/", 1)[1] == api.split("/rnd/", 1)[1], (kind.key, page, api)
    assert pages >= 7  # sequential 4, synthetic 2, scorer 1


@pytest.fixture
def seq(db):
    return seq_world(slug="seqpages")


def _browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _api(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def _body(response) -> bytes:
    return b"".join(response) if response.streaming else response.content


def test_the_data_tab_and_the_client_get_one_answer(seq):
    args = [seq.competition.slug, seq.round.slug]
    team, organizer = seq.users["a"], seq.organizer
    browser, client = _browser(team), Client()
    for page, name, extra in (
        ("step_table", "seq-step", [1]),
        ("master", "seq-master", []),
        ("config", "seq-config", []),
    ):
        web = browser.get(reverse(f"sequential:{page}", args=[*args, *extra]))
        api = client.get(reverse(f"api:{name}", args=[*args, *extra]), **_api(team))
        assert (web.status_code, api.status_code) == (200, 200), page
        assert _body(web) == _body(api) and _body(web), page
    # The future stays hidden on both (online mode: release 2 opens after the freeze).
    assert browser.get(reverse("sequential:step_table", args=[*args, 2])).status_code == 404
    # A team asks for another team's master: refused on both faces.
    other = "?team=" + seq.teams["b"].slug
    assert browser.get(reverse("sequential:master", args=args) + other).status_code == 404
    assert client.get(reverse("api:seq-master", args=args) + other, **_api(team)).status_code == 404
    # An organizer gets any team's whole master on both (before, the API refused it).
    web = _browser(organizer).get(reverse("sequential:master", args=args) + other)
    api = client.get(reverse("api:seq-master", args=args) + other, **_api(organizer))
    assert (web.status_code, api.status_code) == (200, 200)
    assert _body(web) == _body(api) and _body(web).startswith(b"pid,")
    # A visitor's browser: the pages' 404, nothing of the team's.
    visitor = Client().get(reverse("sequential:master", args=args))
    assert visitor.status_code == 404 and not _body(visitor).startswith(b"pid,")
