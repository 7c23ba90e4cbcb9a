"""A kind declares its own ``GET`` endpoints under the round (``RoundEndpoint``) and the core
serves them (``pwscup/api/views/files.py``): the toy declares a file of its team's and gets
its address, the round's access rule (401 without a token, the kind's part of the round and
its refusals) and its OpenAPI operation, without writing a view; given a page name, the same
answer among its pages."""

import dataclasses

import pytest
from django.http import Http404
from django.test import Client
from django.urls import NoReverseMatch, reverse

from pwscup.api.services import api_token_create
from pwscup.competitions.models import Round
from pwscup.core.exports import csv_bytes_response
from pwscup.core.rest import CSV_FILE, errors
from pwscup.kinds import register, unregister
from pwscup.submissions.round_endpoints import RoundEndpoint
from tests.kinds.toy.kind import ToyGameKind
from tests.kinds.toy.player import PLAYER, _reload_urls

pytestmark = pytest.mark.django_db

SEEN = []


def toy_part(access):
    """The toy's part of the round: the round itself, unless it is closed to the API."""
    if access.round.slug.endswith("-closed"):
        raise Http404("No toy part.")
    return access.round


def team_sheet(request, access, part, sheet):
    SEEN.append((part, sheet))
    if access.team is None:
        raise Http404("Not in a team of this competition.")
    return csv_bytes_response(f"team,sheet\n{access.team.slug},{sheet}\n", f"{sheet}.csv")


class SheetToyKind(ToyGameKind):
    def api_round_endpoints(self):
        return [
            RoundEndpoint(
                "toy/sheets/<str:sheet>.csv",
                "toy-sheet",
                team_sheet,
                part=toy_part,
                responses={(200, "text/csv"): CSV_FILE, **errors(401, 404)},
                summary="A toy sheet of my team's",
                operation_id="toy_sheet_retrieve",
            )
        ]


@pytest.fixture
def arena(db):
    PLAYER.install()
    unregister(PLAYER.key)
    register(SheetToyKind())
    _reload_urls()
    SEEN.clear()
    yield PLAYER.arena(slug="sheets")
    PLAYER.uninstall()


def api_client(user) -> Client:
    secret = api_token_create(user=user, name="t").secret
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def test_a_kind_without_a_declared_endpoint_has_none(db):
    PLAYER.install()
    try:
        with pytest.raises(NoReverseMatch):
            reverse("api:toy-sheet", args=["c", "r", "s"])
    finally:
        PLAYER.uninstall()


def test_the_declared_endpoint_is_served_with_the_rounds_access_rule(arena):
    url = reverse("api:toy-sheet", args=[arena.competition.slug, arena.round.slug, "week1"])
    assert url.endswith("/toy/sheets/week1.csv")
    answer = api_client(arena.users["a"]).get(url)
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"].startswith("text/csv")
    assert answer.content.decode() == f"team,sheet\n{arena.teams['a'].slug},week1\n"
    # The kind's part of the round reached the answer, with the route's value.
    assert SEEN == [(arena.round, "week1")]
    # No token: 401 before the kind is asked; the answer's own refusal: 404.
    assert Client().get(url).status_code == 401
    assert api_client(arena.organizer).get(url).status_code == 404
    assert len(SEEN) == 2
    # No such round, or a round without the kind's part: 404, and the answer is not asked.
    missing = reverse("api:toy-sheet", args=[arena.competition.slug, "no-such-round", "w"])
    assert api_client(arena.users["a"]).get(missing).status_code == 404
    Round.objects.filter(pk=arena.round.pk).update(slug="sheets-closed")
    closed = reverse("api:toy-sheet", args=[arena.competition.slug, "sheets-closed", "w"])
    assert api_client(arena.users["a"]).get(closed).status_code == 404
    assert len(SEEN) == 2


def test_the_schema_names_the_declared_operation(arena):
    schema = api_client(arena.users["a"]).get(reverse("api:schema"), {"format": "json"}).json()
    operations = {
        op["operationId"]: op
        for item in schema["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    sheet = operations["toy_sheet_retrieve"]
    assert sheet["summary"] == "A toy sheet of my team's"
    assert "text/csv" in sheet["responses"]["200"]["content"]
    assert {"401", "404"} <= set(sheet["responses"])


class SheetPageToyKind(ToyGameKind):
    """The same endpoint, also the Data tab's link (``page_name``)."""

    def api_round_endpoints(self):
        return [
            dataclasses.replace(endpoint, page_name="sheet")
            for endpoint in SheetToyKind().api_round_endpoints()
        ]


@pytest.fixture
def page_arena(db):
    PLAYER.install()
    unregister(PLAYER.key)
    register(SheetPageToyKind())
    _reload_urls()
    SEEN.clear()
    yield PLAYER.arena(slug="sheetpages")
    PLAYER.uninstall()


def test_a_declared_endpoint_with_a_page_name_is_a_page_too(page_arena):
    """The core mounts it among the kind's pages at the same route: a logged-in browser gets
    the client's answer, with the pages' access (404 to a visitor, for a round of another
    kind), and the kind writes no view."""
    args = [page_arena.competition.slug, page_arena.round.slug, "week2"]
    page = reverse(f"{PLAYER.key}:sheet", args=args)
    api = reverse("api:toy-sheet", args=args)
    assert page.split(f"/{page_arena.round.slug}/", 1)[1] == "toy/sheets/week2.csv"
    browser = Client()
    browser.force_login(page_arena.users["a"])
    web = browser.get(page)
    assert web.status_code == 200, web.content
    assert web.content == api_client(page_arena.users["a"]).get(api).content
    assert SEEN == [(page_arena.round, "week2")] * 2
    # The answer's own refusal (no team) and a visitor: the pages' 404.
    browser.force_login(page_arena.organizer)
    assert browser.get(page).status_code == 404
    browser.logout()
    assert browser.get(page).status_code == 404
    # A round of another kind under the toy's address: 404, the answer not asked.
    asked = len(SEEN)
    Round.objects.filter(pk=page_arena.round.pk).update(kind="dp")
    browser.force_login(page_arena.users["a"])
    assert browser.get(page).status_code == 404
    assert len(SEEN) == asked


def test_without_a_page_name_the_endpoint_is_no_page(arena):
    with pytest.raises(NoReverseMatch):
        reverse(f"{PLAYER.key}:sheet", args=["c", "r", "s"])
