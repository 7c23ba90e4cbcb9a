"""The sequential round's groups chart (``pwscup.sequential.charts.groups_chart``): one
column per release of the team's latest valid sequence on its Results tab and its release
page, counted from the per-person table, in English and Japanese; nothing of another team."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.sequential import selectors
from pwscup.sequential.charts import groups_chart
from tests.pwscup.seq_web_world import fixture, freeze, publish, run_seq_jobs, seq_world, tab

pytestmark = pytest.mark.django_db

TABLE3, TABLE9 = "zhang_release_1.csv", "zhang_release_2_table9.csv"


def svg_of(page: str) -> str:
    found = re.search(r'<svg [^>]*data-testid="groups-svg".*?</svg>', page, re.S)
    assert found, "no groups chart"
    return found.group(0)


def two_releases():
    world = seq_world()
    publish(world, "a", 1, fixture(TABLE3))
    run_seq_jobs()
    freeze(world)
    publish(world, "a", 2, fixture(TABLE9))
    run_seq_jobs()
    return world


def test_the_release_groups_are_counted_from_the_per_person_table():
    world = two_releases()
    release = world.sequential.releases.get(step=2)
    groups = selectors.release_groups(release=release)
    assert [g["step"] for g in groups] == [1, 2]
    table = selectors.release_risk_table(release=release).splitlines()
    header = table[0].split(",")
    present = {1: 0, 2: 0}
    for line in table[1:]:
        cells = dict(zip(header, line.split(","), strict=True))
        for offset, _piece in enumerate(cells["groups_per_release"].split(";")):
            present[int(cells["lsf"]) + offset] += 1
    assert [g["persons"] for g in groups] == [present[1], present[2]]
    assert all(g["min"] <= g["mean"] <= g["max"] for g in groups)
    assert [g["MU"] for g in groups] == release.results["MU"]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_results_tab_and_release_page_draw_a_column_per_release(language):
    world = two_releases()
    release = world.sequential.releases.get(step=2)
    client = Client(headers={"accept-language": language})
    client.force_login(world.users["a"])
    results = client.get(tab(world, "results"))
    detail = client.get(
        reverse("sequential:release", args=[world.competition.slug, world.round.slug, release.pk])
    )
    for response in (results, detail):
        assert response.status_code == 200
        svg = svg_of(response.content.decode())
        groups = selectors.release_groups(release=release)
        assert svg.count('class="mean"') == len(groups) == 2
        assert svg.count('class="span"') == 2
        persons = f"{groups[0]['persons']} 人" if language == "ja" else "persons"
        assert persons in svg
        heading = "公開データごとのグループ" if language == "ja" else "Groups per release"
        assert heading in response.content.decode()
        # Only numbers per release: no person's identifier or sensitive value.
        assert "Bob" not in svg and "dyspepsia" not in svg
    other = Client()
    other.force_login(world.users["b"])
    assert "groups-chart" not in other.get(tab(world, "results")).content.decode()


def test_one_group_for_everyone_is_a_bar_of_no_length_still_drawn():
    chart = groups_chart(
        [{"step": 1, "persons": 3, "min": 1, "mean": 1.0, "max": 1, "MU": 1, "IL": 0.0}]
    )
    (span,) = chart.spans
    assert span.low_y == span.high_y == span.mean_y < chart.bottom
    assert groups_chart([]) is None
