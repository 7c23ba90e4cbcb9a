"""The Results tab's release ranking shows every release score the round declares (PWSCup
2026 splits its utility into general, specific, rare-type and validity parts), as the API's
and the client's leaderboard do, not the primary score alone."""

import pytest
from django.test import Client

from pwscup.kinds.tabs import RESULTS, tab_url
from pwscup.scorer import services
from tests.pwscup.scorer_world import (
    CONFIG,
    attack_phase,
    program_version,
    release,
    release_bytes,
    scorer_world,
)
from tests.pwscup.test_scorer_services import zipped_program

pytestmark = pytest.mark.django_db

RETURN = 'return {"utility": utility}'
COLUMNS = [
    *CONFIG["release_columns"],
    {"key": "rows", "label": "Rows", "label_ja": "行数", "higher_is_better": True},
    {"key": "spread", "label": "Spread", "label_ja": "散らばり", "higher_is_better": False},
]


def test_the_release_ranking_shows_every_declared_release_score():
    from scoring.scorer.demo import demo_program_zip

    world = scorer_world(
        slug="rescols", letters="ab", config={**CONFIG, "release_columns": COLUMNS}
    )
    # The demo program, writing a count beside its utility (and no "spread").
    program_version(
        world, zipped_program(demo_program_zip(), RETURN, 'return {"utility": utility, "rows": 7}')
    )
    scored = release(world, "a", release_bytes(noise=10))
    release(world, "b", release_bytes(noise=20, seed=1))
    attack_phase(world)
    services.results_publish(scorer=world.scorer, user=world.organizer)
    browser = Client()
    browser.force_login(world.users["b"])
    for language, labels in (("en", ("Rows", "Spread")), ("ja", ("行数", "散らばり"))):
        page = browser.get(
            tab_url(world.round, RESULTS), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        table = page.split('data-testid="release-ranking"')[1].split("</table>")[0]
        head = table.split("</thead>")[0]
        assert all(f">{label}" in head for label in labels), (language, head)
        row = table.split('data-testid="release-rank-teama"')[1].split("</tr>")[0]
        cells = row.split('data-testid="score"')
        assert len(cells) == 3, row
        assert ">7<" in cells[1] and ">—<" in cells[2], row
        assert f"{scored.scores['utility']:.4f}" in row
