"""Property-based run of the published OpenAPI schema against a live test server
(schemathesis): for every operation, a bounded number of generated requests (path, query and
multipart bodies), each answer checked: never a 500, status codes, content types, headers and
bodies as the schema documents them.

The world is a frozen round with published results: team A (the caller) has a scored
submission and an attack on the published target of team B, so that the generated requests reach real objects: the slugs are
fixed to the world's, numbers and bodies are generated.

Slow (over 20 s on its own, so its module is scheduled first): schemathesis sends a bounded
number of generated requests to every operation of the live server.
"""

from decimal import Decimal

import pytest
import schemathesis

from pwscup.api.services import api_token_create
from pwscup.competitions.standings_services import EntryInput, standings_update
from pwscup.kinds.layout import kind_package
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission, Pwscup2015Round
from tests.pwscup.api_fuzz import MAX_EXAMPLES, OTHER_KIND_EXAMPLES, fuzz, view_module
from tests.pwscup.factories import freeze, scored, scored_attack, truth_of
from tests.support import site_kinds

pytestmark = pytest.mark.slow


@pytest.fixture
def api_world(transactional_db, live_server, make_world):
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1, delete=2)
    scored(world, "b", seed=2)
    targets = freeze(world)
    scored_attack(world, "a", targets["b"], truth_of(targets["b"]))
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    # The competition's standings, so that their endpoint answers 200 too.
    standings_update(
        user=world.organizer,
        competition=world.competition,
        rule="weighted_rank",
        entries=[EntryInput(world.round, Decimal(1), ("anonymization", "attack"))],
    )
    token = api_token_create(user=world.users["a"], name="schemathesis").secret
    return {"world": world, "token": token, "base_url": live_server.url}


@pytest.fixture
def api_schema(api_world):
    return schemathesis.openapi.from_url(f"{api_world['base_url']}/api/schema/?format=json")


def real_path_parameters(world, operation) -> dict:
    """The world's slugs and the caller's own submission / attack numbers."""
    if "/rounds/{round_slug}/attacks/" in operation.path:
        pk = AttackSubmission.objects.filter(team=world.teams["a"]).latest("pk").pk
    else:
        pk = AnonymizationSubmission.objects.filter(team=world.teams["a"]).latest("pk").pk
    return {
        "competition_slug": world.competition.slug,
        "round_slug": world.round.slug,
        "team_slug": "teamB",
        "division_key": "overall",  # the standings the world's fixture sets
        "id": pk,  # drf-spectacular names a ``pk`` path parameter ``id``
    }


def first_kind(path_template: str, world) -> bool:
    """Whether the operation is one of pwscup/api's own views (the first round kind's)."""
    known = {"competition_slug": world.competition.slug, "round_slug": world.round.slug, "id": 1}
    return view_module(path_template, known).startswith("pwscup.api.views")


def other_kinds(world) -> set[str]:
    """The packages (``dp``, ``scorer``...) of every kind the site registers but the world's
    round's: a new kind is among them without this module naming it."""
    return {
        kind_package(kind).split(".")[1] for kind in site_kinds() if kind.key != world.round.kind
    }


def other_kind(path_template: str, world) -> bool:
    """Whether the operation is another round kind's (on this world's round: a 404)."""
    known = {"competition_slug": world.competition.slug, "round_slug": world.round.slug, "id": 1}
    module = view_module(path_template, known)
    return module.startswith("pwscup.") and module.split(".")[1] in other_kinds(world)


def test_api_answers_match_the_schema(api_schema, api_world):
    """Every operation of the schema, one after the other (tests/pwscup/api_fuzz.py); the
    other kinds' operations with a smaller budget (their round here answers 404)."""
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 19
    world = api_world["world"]
    others = {op.label for op in operations if other_kind(op.path, world)}
    assert others and len(others) < len(operations)
    failures, statuses = fuzz(
        operations,
        real_for=lambda operation: real_path_parameters(world, operation),
        base_url=api_world["base_url"],
        token=api_world["token"],
        examples_for=lambda op: OTHER_KIND_EXAMPLES if op.label in others else MAX_EXAMPLES,
    )
    assert not failures, "\n\n".join(f"{label}: {error}" for label, error in failures.items())
    # The run reached real objects: every GET of the first kind's endpoints (this world's
    # round) answered 200 at least once. Other kinds' endpoints answer 404 on this round.
    for label, codes in statuses.items():
        print(label, sorted(set(codes)))
        method, _, path = label.partition(" ")
        # (The world's round is in the shared mode: it has no candidate tables.)
        if method == "GET" and first_kind(path, world) and not path.endswith("candidate.csv"):
            assert 200 in codes, f"{label} never answered 200: {sorted(set(codes))}"
