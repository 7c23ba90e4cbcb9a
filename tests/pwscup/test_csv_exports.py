"""Every CSV the platform renders is safe to open in a spreadsheet (no formula injection)."""

import csv
import doctest
import io

import pytest
from django.urls import reverse

from pwscup.accounts.models import Team
from pwscup.competitions.models import Round
from pwscup.core import exports
from pwscup.core.exports import spreadsheet_safe
from tests.pwscup.factories import freeze, scored, scored_attack, truth_of

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("x")'


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("x")', '\'=HYPERLINK("x")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Team A", "Team A"),
        ("a=b", "a=b"),
        ("", ""),
        ("-0.5", "-0.5"),
        ("+1.5e-3", "+1.5e-3"),
        (-0.5, -0.5),
        (3, 3),
        (None, None),
        (True, True),
    ],
)
def test_each_cell_kind(cell, written):
    assert spreadsheet_safe(cell) == written


def test_the_helpers_doctests_run():
    assert doctest.testmod(exports).failed == 0


def rows_of(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


def test_every_csv_download_neutralises_a_formula_team_name(world, client):
    Team.objects.filter(pk=world.teams["a"].pk).update(name=EVIL)
    world.teams["a"].refresh_from_db()
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    targets = freeze(world)
    scored_attack(world, "a", targets["b"], truth_of(targets["b"]))
    Round.objects.filter(pk=world.round.pk).update(results_published=True)
    world.anonymization.leaderboard_public = True
    world.anonymization.save()
    args = [world.competition.slug, world.round.slug]
    downloads = {
        "leaderboard": reverse("leaderboard", args=args) + "?format=csv",
        "matrix": reverse("matrix", args=args) + "?format=csv",
        "final anonymization": reverse("final_ranking", args=args) + "?format=anonymization-csv",
        "final attack": reverse("final_ranking", args=args) + "?format=attack-csv",
    }
    client.force_login(world.organizer)
    for name, url in downloads.items():
        rows = rows_of(client.get(url))
        cells = [cell for row in rows for cell in row]
        assert "'" + EVIL in cells, f"{name}: the team name is written as text"
        assert EVIL not in cells, f"{name}: a cell a spreadsheet would run as a formula"
        assert not [c for c in cells if c[:1] in ("=", "@", "\t", "\r")], name
        # Numbers stay numbers: every cell starting with + or - is a plain number.
        for cell in cells:
            if cell[:1] in "+-" and cell:
                float(cell)
    # The matrix holds the attack rate as a number, not as text.
    matrix = rows_of(client.get(downloads["matrix"]))
    row = next(r for r in matrix if r[0] == "'" + EVIL)
    assert float(row[matrix[0].index("Team B")]) == 1.0
