"""Online mode hides the future: before release j opens, nothing of it reaches a team.

The paper's round (spec §13) at step 1: Emily, Mary, Ray, Tom and Vince arrive at release 2,
and whether Bob stays (lsb 2) or Alice leaves (lsb 1) is release 2's news. Every page, CSV
and API answer a team can open is scanned; the numbers of release 1 must not move when the
future persons' values do.
"""

import csv
import html
import io
import re

import pytest
from django.urls import reverse

from pwscup.sequential.models import Release
from tests.pwscup.seq_web_world import fixture, freeze, publish, seq_world, tab

pytestmark = pytest.mark.django_db

TABLE3 = "zhang_release_1.csv"
LATER = ("Emily", "Mary", "Ray", "Tom", "Vince")  # lsf = 2
# Release 1 naming a person of release 2 (row 1) instead of Bob.
WITH_EMILY = fixture(TABLE3).replace(b"\n1,Bob,", b"\n1,Emily,", 1)


def url(world, name, *args):
    return reverse(name, args=[world.competition.slug, world.round.slug, *args])


def api(world, name):
    kwargs = {"competition_slug": world.competition.slug, "round_slug": world.round.slug}
    return reverse(f"api:{name}", kwargs=kwargs)


def team_urls(world, valid: Release, rejected: Release) -> dict[str, str]:
    comp = {"competition_slug": world.competition.slug}
    return {
        "round page": url(world, "round_detail"),
        **{f"{key} tab": tab(world, key) for key in ("data", "rules", "submit", "results")},
        "sample csv": url(world, "sequential:sample"),
        "T1.csv": url(world, "sequential:step_table", 1),
        "T2.csv": url(world, "sequential:step_table", 2),
        "master.csv": url(world, "sequential:master"),
        "config.json": url(world, "sequential:config"),
        "release page": url(world, "sequential:release", valid.pk),
        "risk_per_person.csv": url(world, "sequential:release_risk", valid.pk),
        "rejected release page": url(world, "sequential:release", rejected.pk),
        "leaderboard": url(world, "sequential:leaderboard"),
        "competition page": reverse("competition_detail", args=[world.competition.slug]),
        "api competition": reverse("api:competition-detail", kwargs=comp),
        "api team": reverse("api:team", kwargs=comp),
        **{
            f"api {name}": api(world, name)
            for name in (
                "round-detail",
                "original",
                "submissions",
                "targets",
                "attacks",
                "leaderboard",
                "matrix",
                "final",
            )
        },
    }


def body(response) -> str:
    content = b"".join(response) if response.streaming else response.content
    return content.decode("utf-8", errors="replace")


def lsb_values(text: str) -> list[int]:
    """Every ``lsb`` of a CSV text with such a column."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or "lsb" not in rows[0]:
        return []
    column = rows[0].index("lsb")
    return [int(row[column]) for row in rows[1:] if row]


def page_lsb(text: str) -> dict[str, str]:
    """pid → the lsb cell of the risk table on a release page."""
    head = re.search(r'data-testid="risk-table".*?<thead><tr>(.*?)</tr>', text, re.S)
    assert head, "no risk table on the release page"
    names = re.findall(r"<th[^>]*>([^<]*)</th>", head.group(1))
    out = {}
    for pid, cells in re.findall(r'<tr data-testid="person-([^"]+)">(.*?)</tr>', text, re.S):
        values = re.findall(r"<td[^>]*>([^<]*)</td>", cells)
        out[pid] = values[names.index("lsb")]
    return out


@pytest.fixture
def step_one():
    """Team A at step 1: a valid release 1 and a rejected one naming Emily."""
    world = seq_world(slug="future")
    valid = publish(world, "a", 1, fixture(TABLE3))
    assert valid.status == Release.Status.FINISHED, valid.message
    rejected = publish(world, "a", 1, WITH_EMILY)
    assert rejected.status == Release.Status.FAILED
    return world, valid, rejected


def test_nothing_of_release_2_in_any_page_csv_or_api_answer_at_step_1(client, step_one):
    world, valid, rejected = step_one
    client.force_login(world.users["a"])
    seen = 0
    for key, address in team_urls(world, valid, rejected).items():
        response = client.get(address)
        assert response.status_code in (200, 403, 404), (key, response.status_code)
        if response.status_code != 200:
            continue
        seen += 1
        # The rejection quotes the team's own row back; nothing else may name Emily.
        text = html.unescape(body(response)).replace(rejected.message, "")
        for pid in LATER:
            assert not re.search(rf"\b{pid}\b", text), (key, pid)
        assert "lifespan [2" not in text and "ライフスパン [2" not in text, key
        if "csv" in key:
            assert all(lsb <= 1 for lsb in lsb_values(text)), (key, lsb_values(text))
    assert seen >= 13
    assert client.get(url(world, "sequential:step_table", 2)).status_code == 404


def test_the_risk_table_shows_lsb_as_known_at_release_1(client, step_one):
    world, valid, _rejected = step_one
    client.force_login(world.users["a"])
    page = body(client.get(url(world, "sequential:release", valid.pk)))
    shown = page_lsb(page)
    assert shown["Bob"] == "1" and shown["Alice"] == "1"  # Bob stays, Alice leaves: hidden
    assert set(shown.values()) == {"1"}
    risk = body(client.get(url(world, "sequential:release_risk", valid.pk)))
    assert lsb_values(risk) == [1] * 11
    assert valid.per_person == risk  # stored as known at release 1


def test_a_stored_table_with_later_lifespans_is_shown_cut_at_its_release(client, step_one):
    """Whatever a stored table holds, the page and the CSV cut lsb at the release."""
    world, valid, _rejected = step_one
    Release.objects.filter(pk=valid.pk).update(
        per_person=valid.per_person.replace("\nBob,1,1,", "\nBob,1,2,")
    )
    client.force_login(world.users["a"])
    assert page_lsb(body(client.get(url(world, "sequential:release", valid.pk))))["Bob"] == "1"
    risk = body(client.get(url(world, "sequential:release_risk", valid.pk)))
    assert lsb_values(risk) == [1] * 11 and "\nBob,1,1," in risk


def test_the_rejection_does_not_tell_when_a_later_person_arrives(step_one):
    _world, _valid, rejected = step_one
    assert "lifespan" not in rejected.message, rejected.message
    assert rejected.message == "release 1, row 1: pid 'Emily' is not in the master table"


def test_release_1_scores_the_same_whatever_the_later_persons_hold():
    """IL's ranges, the domains and the risk of release 1 come from U(1): changing the QI
    values of persons who arrive at release 2 changes no number of release 1."""
    paper = fixture("zhang_master.csv")
    moved = paper.replace(b"Vince,65,36000,", b"Vince,99,36000,").replace(
        b"Tom,60,44000,", b"Tom,60,90000,"
    )
    assert moved != paper
    results = []
    for slug, master in (("paper", paper), ("moved", moved)):
        world = seq_world(slug=slug, master=master)
        release = publish(world, "a", 1, fixture(TABLE3))
        assert release.status == Release.Status.FINISHED, release.message
        results.append((release.results, release.per_person))
        freeze(world)
    assert results[0] == results[1]
