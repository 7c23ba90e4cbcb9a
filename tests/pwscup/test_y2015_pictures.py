"""The 2015 round's two new pictures: the Rules tab's worked example drawn from the example
the tab's tables show (which the scorer's test checks), and the Data tab's chart per column
of the table the reader may download (counts only, once per version of the data, never for a
reader without the download), in English and Japanese."""

import io
import re

import pandas as pd
import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

import scoring
from pwscup.kinds.tabs import DATA, RULES, tab_url
from pwscup.pwscup2015 import data_picture, explanations
from pwscup.pwscup2015.models import Pwscup2015Round

pytestmark = pytest.mark.django_db


def page(world, tab, *, user=None, language="en") -> str:
    client = Client(headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    response = client.get(tab_url(world.round, tab))
    assert response.status_code == 200
    return response.content.decode()


def svg(html: str, testid: str) -> str:
    found = re.search(rf'<svg [^>]*data-testid="{testid}".*?</svg>', html, re.S)
    assert found, testid
    return found.group(0)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_rules_tab_draws_the_worked_example(world, language):
    html = page(world, RULES, language=language)  # a visitor sees the Rules tab
    plane = svg(html, "example-plane")
    rows = len(explanations.EXAMPLE_ORIGINAL)
    assert plane.count('<g class="original">') == plane.count('class="move"') == rows == 4
    assert plane.count('class="copy"') == len(set(explanations.EXAMPLE_COPY)) == 2
    assert ("1 行目" if language == "ja" else "Row 1:") in plane
    assert "(100, 100) → (150, 250)" in plane  # row 1's SA1, SA2 before and after
    rates = svg(html, "example-rates")
    attacks = [r for r in explanations.EXAMPLE_SCORES if r[0] in scoring.ATTACK_METRICS]
    assert rates.count('class="before"') == rates.count('class="after"') == len(attacks)
    for metric, before, after in attacks:
        block = re.search(rf'data-testid="example-rate-{metric}".*?</g>', rates, re.S).group(0)
        assert f"{metric}: {before:g}" in block and f"{metric}: {after:g}" in block
    words = "各攻撃の成功率" if language == "ja" else "Each attack's success rate"
    assert words in html


def downloaded(world, user) -> pd.DataFrame:
    client = Client()
    client.force_login(user)
    response = client.get(
        reverse("original_download", args=[world.competition.slug, world.round.slug])
    )
    assert response.status_code == 200
    return pd.read_csv(io.BytesIO(b"".join(response.streaming_content)), dtype=str)


def drawn(html: str, column: str) -> tuple[str, list[int]]:
    figure = re.search(
        rf'<figure [^>]*data-testid="data-chart-{re.escape(column)}" data-kind="(\w+)".*?</figure>',
        html,
        re.S,
    )
    assert figure, column
    counts = [int(c) for c in re.findall(r"<title>[^<]*: (\d+)</title>", figure.group(0))]
    return figure.group(1), counts


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_data_tab_draws_each_column_of_the_teams_table(world, language):
    cache.clear()
    html = page(world, DATA, user=world.users["a"], language=language)
    assert ("データの概観" if language == "ja" else "Your data at a glance") in html
    table = downloaded(world, world.users["a"])
    assert html.count('class="chart data-chart"') == len(table.columns)
    for column in table.columns:
        kind, counts = drawn(html, column)
        values = table[column].dropna()
        if kind == "numeric":
            assert len(counts) == data_picture.BINS and sum(counts) == len(values)
        else:
            assert counts == values.value_counts().head(data_picture.TOP).tolist()
    # No row: the first person's whole row is nowhere in the picture.
    section = re.search(r'data-testid="data-picture".*?</section>', html, re.S).group(0)
    assert ",".join(table.iloc[0].astype(str)) not in section


def test_no_picture_for_a_reader_who_may_not_download(world):
    assert 'data-testid="data-picture"' not in page(world, DATA)  # a visitor
    from pwscup.accounts.services import user_create

    outsider = user_create(username="outsider", password="pw")
    assert 'data-testid="data-picture"' not in page(world, DATA, user=outsider)


def test_per_team_each_team_sees_its_own_samples_counts_once_computed(make_world, monkeypatch):
    cache.clear()
    world = make_world(data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    for letter in "ab":
        html = page(world, DATA, user=world.users[letter])
        table = downloaded(world, world.users[letter])
        column = next(c for c in table.columns if not table[c].str.isdigit().all())
        assert drawn(html, column)[1] == table[column].value_counts().head(8).tolist()
    # Computed once per version of the data: the next look reads the cache, not the table.
    monkeypatch.setattr(data_picture, "reader_data", lambda **_: pytest.fail("read again"))
    assert 'data-testid="data-picture"' in page(world, DATA, user=world.users["a"])


def test_column_counts_of_a_tiny_table():
    frame = pd.DataFrame(
        {
            "age": [str(a) for a in range(20, 40)] + [""],
            "job": ["a"] * 5 + ["b"] * 3 + [str(k) for k in range(12)] + ["a"],
        }
    )
    age, job = data_picture.column_counts(frame)
    assert (
        age["kind"] == "numeric" and age["missing"] == 1 and sum(c for _e, c in age["bars"]) == 20
    )
    assert job["kind"] == "values" and job["bars"][:2] == [("a", 6), ("b", 3)]
    assert job["other"] == 21 - 6 - 3 - 6  # 12 singletons, 6 of them among the top 8
    chart = data_picture.column_chart(job)
    assert len(chart.bars) == 8 and "21" not in chart.note
    # The note says it counts the rows of the values not drawn ("other values: 6" read as a
    # number of values, against the column table beside the charts, which counts those).
    assert chart.note == "6 rows with other values"
