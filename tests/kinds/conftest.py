"""The conformance suite's fixtures: one run of every test per kind (``player``)."""

import pytest
from django.utils import translation

from tests.kinds.players import discover_players

PLAYERS = discover_players()


def pytest_ignore_collect(collection_path, config):
    """Only test files and conftests are collected under ``tests/kinds``: a kind folder's
    other modules (a test-only kind's models) are imported by the tests as
    ``tests.kinds.<folder>.<module>``; collected for doctests they would be imported a second
    time under another name, and a model twice."""
    if collection_path.suffix == ".py" and not collection_path.name.startswith(
        ("test_", "conftest")
    ):
        return True
    return None


@pytest.fixture(autouse=True)
def language_reset():
    """A page served in Japanese leaves Japanese active in the thread (the locale middleware
    activates a language per request and does not restore it): messages a later test reads
    from a service would be Japanese."""
    yield
    translation.deactivate()


@pytest.fixture(params=sorted(PLAYERS))
def player(request, db):
    """Each kind's player in turn, installed for the test."""
    chosen = PLAYERS[request.param]
    gap = chosen.gaps.get(request.node.originalname)
    if gap:
        request.applymarker(pytest.mark.xfail(reason=gap, strict=True))
    chosen.install()
    yield chosen
    chosen.uninstall()


@pytest.fixture
def arena_of(player):
    """``arena_of(daily_limit=..., total_limit=...)``: an open round of the player's kind."""
    made = []

    def make(**limits):
        made.append(player.arena(slug=f"conf{len(made)}", **limits))
        return made[-1]

    return make
