"""Charts: the leaderboard's utility-vs-safety scatter, a team's score history and the attack
matrix heatmap, drawn on the server as SVG from the same selectors as the tables."""

import doctest
import re
import unicodedata
from types import SimpleNamespace
from xml.etree import ElementTree

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from pwscup.pwscup2015.leaderboards import charts
from pwscup.pwscup2015.leaderboards.selectors import anonymization_leaderboard, attack_matrix
from pwscup.pwscup2015.models import AttackSubmission, Pwscup2015Round
from scoring.display import format_number
from tests.pwscup.factories import freeze, scored, scored_attack, truth_of

pytestmark = pytest.mark.django_db


def points(html: str, kind: str = "point") -> list[str]:
    return re.findall(rf'<circle class="{kind}[^"]*"[^>]*>', html)


def titles(html: str, kind: str = "point") -> list[str]:
    return re.findall(rf'<circle class="{kind}[^"]*"[^>]*><title>([^<]*)</title>', html)


@pytest.fixture
def board(make_world):
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    scored(world, "a", seed=3, delete=4)
    scored(world, "b", seed=2)
    return world


def _leaderboard(client, world, query=""):
    url = reverse("leaderboard", args=[world.competition.slug, world.round.slug]) + query
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_scatter_has_one_point_per_ranked_team_and_highlights_the_own_team(board, client):
    client.force_login(board.users["a"])
    html = _leaderboard(client, board)
    rows = anonymization_leaderboard(phase=board.anonymization)
    assert len(points(html)) == len(rows) == 2
    own = [p for p in points(html) if "own" in p]
    assert len(own) == 1 and 'data-team="teamA"' in own[0]
    assert 'data-testid="scatter-x-label">U4 corMAE (↓)<' in html
    assert 'data-testid="scatter-y-label">E3 identify.sort (↓)<' in html
    # hover text: the team and the same numbers as the table (the same selector)
    by_team = {r.team.name: r for r in rows}
    for title in titles(html):
        name = title.split("\n")[0].split(" (#")[0]
        row = by_team[name]
        assert f"U4 = {row.scores['U4']:.4g}" in title
        assert f"E3 = {row.scores['E3']:.4g}" in title


def test_scatter_axes_are_chosen_among_the_metrics(board, client):
    client.force_login(board.users["b"])
    html = _leaderboard(client, board, "?x=U1&y=S1")
    assert 'data-testid="scatter-x-label">U1 meanMAE (↓)<' in html
    assert 'data-testid="scatter-y-label">S1 k-anony (↑)<' in html
    assert '<option value="U1" selected>' in html
    fallback = _leaderboard(client, board, "?x=nope&y=<script>")
    assert 'data-testid="scatter-x-label">U4 corMAE (↓)<' in fallback
    assert "<script>" not in fallback.split("<main", 1)[-1].split("</main>")[0]


def test_faint_points_are_the_viewers_own_submissions_or_all_for_organizers(board, client):
    client.force_login(board.users["b"])
    assert points(_leaderboard(client, board), "faint-point") == []
    mine = titles(_leaderboard(client, board, "?all=1"), "faint-point")
    assert len(mine) == 1 and all(t.startswith("Team B") for t in mine)
    client.force_login(board.organizer)
    everyone = titles(_leaderboard(client, board, "?all=1"), "faint-point")
    assert len(everyone) == 3  # two of team A, one of team B


def test_no_leaderboard_no_chart(make_world, client):
    world = make_world()  # private leaderboard
    scored(world, "a", seed=1)
    client.force_login(world.users["b"])
    url = reverse("leaderboard", args=[world.competition.slug, world.round.slug])
    assert client.get(url).status_code == 403


def test_history_draws_the_teams_scored_submissions_per_metric(board, client):
    client.force_login(board.users["a"])
    html = client.get(board.round_url()).content.decode()
    for metric in ("U4", "E3"):
        chart = html.split(f'data-testid="history-{metric}"')[1].split("</figure>")[0]
        assert len(points(chart)) == 2
    assert 'data-testid="history-U1"' not in html
    chosen = client.get(board.round_url() + "?history=U1&history=T").content.decode()
    assert 'data-testid="history-U1"' in chosen
    assert 'data-testid="history-U4"' not in chosen
    assert 'data-testid="history-T"' not in chosen  # not a metric of this round


def test_heatmap_has_a_cell_per_attacker_and_target_plus_the_worst_case(make_world, client):
    world = make_world()
    for k, letter in enumerate("abc"):
        scored(world, letter, seed=k + 1)
    targets = freeze(world)
    scored_attack(world, "a", targets["b"], truth_of(targets["b"]))
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    client.force_login(world.users["c"])
    html = client.get(
        reverse("matrix", args=[world.competition.slug, world.round.slug])
    ).content.decode()
    matrix = attack_matrix(round=world.round)
    cells = re.findall(r'<g class="heat-cell[^"]*">', html)
    assert len(cells) == (len(matrix.attackers) + 1) * len(matrix.targets)
    assert 'data-testid="heat-legend"' in html and "<linearGradient" in html
    best = matrix.cell(f"team:{world.teams['a'].pk}", targets["b"].pk).best
    assert f"Team A → Team B: {format_number(best)}" in html
    worst = matrix.worst_cases()
    for target, value in zip(matrix.targets, worst, strict=True):
        assert f"Worst case → {target.team.name}: {format_number(value)}" in html


def test_a_tiny_re_identification_rate_never_reads_as_zero_in_the_matrix(make_world, client):
    """One row re-identified out of 32,561 is a rate of 3.1e-05: the matrix table and the
    heatmap's hover text show it by the display rule, not as 0.0000."""
    world = make_world()
    for k, letter in enumerate("ab"):
        scored(world, letter, seed=k + 1)
    targets = freeze(world)
    attack = scored_attack(world, "a", targets["b"], truth_of(targets["b"]))
    AttackSubmission.objects.filter(pk=attack.pk).update(rate=1 / 32561)
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    client.force_login(world.users["b"])
    html = client.get(
        reverse("matrix", args=[world.competition.slug, world.round.slug])
    ).content.decode()
    table = html.split('data-attacker="Team A"')[1].split("</tr>")[0]
    assert format_number(1 / 32561) == "0.000031"
    assert ">0.000031<" in table and "0.0000<" not in table
    assert "Team A → Team B: 0.000031" in html


def test_heat_colour_and_scales():
    assert doctest.testmod(charts).failed == 0
    assert charts.heat_colour(0.25) == "#8cbc6e"
    assert charts.heat_colour(2) == charts.heat_colour(1)
    scale = charts._scale([1.0, 1.0], 0, 100)  # one value: a range around it, no division by 0
    assert scale.low < 1.0 < scale.high
    assert [t.label for t in charts.Scale(0, 1, 0, 100).ticks()] == [
        "0",
        "0.2",
        "0.4",
        "0.6",
        "0.8",
        "1",
    ]


KIT_JA = "組み込み攻撃 キット（上位 3 件・1 対 1）"


def drawn_width(element, font_size: float) -> float:
    """A width model independent of the chart's own: 1 em for a wide (CJK) character, 0.55 em
    for any other (the average Latin glyph of a sans-serif font), bold 5 % wider."""
    text = element.text or ""
    ems = sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.55 for ch in text)
    return ems * font_size * (1.05 if element.get("font-weight") == "bold" else 1)


def clipped_texts(svg_markup: str) -> list[str]:
    """Every <text> of the SVG that runs past the left or right edge of its viewBox."""
    svg = ElementTree.fromstring(svg_markup)
    _x, _y, width, _height = (float(v) for v in svg.get("viewBox").split())
    font_size = float(svg.get("font-size"))
    out = []
    for element in svg.iter("{http://www.w3.org/2000/svg}text"):
        x, w = float(element.get("x")), drawn_width(element, font_size)
        left = {"start": x, "middle": x - w / 2, "end": x - w}[element.get("text-anchor")]
        if left < 0 or left + w > width:
            out.append(f"{element.text!r}: {left:.0f}..{left + w:.0f} outside 0..{width:.0f}")
    for rect in svg.iter("{http://www.w3.org/2000/svg}rect"):
        if float(rect.get("x")) + float(rect.get("width")) > width:
            out.append(f"rect at x={rect.get('x')} wider than {width:.0f}")
    return out


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("n_targets", [1, 2, 5])
def test_heatmap_labels_and_legend_fit_inside_the_svg(language, n_targets):
    targets = [SimpleNamespace(team=SimpleNamespace(name=f"Team {k}")) for k in range(n_targets)]
    cells = [SimpleNamespace(best=k / max(n_targets, 2)) for k in range(n_targets)]
    with translation.override(language):
        kit = KIT_JA if language == "ja" else "built-in kit attacker (top-3, 1:1)"
        grid = [("Team 0", cells), ("組み込み攻撃 EUC2", cells), (kit, cells)]
        heatmap = charts.heatmap(targets=targets, grid=grid, worst=[c.best for c in cells])
        html = render_to_string("pwscup2015/_heatmap.html", {"heatmap": heatmap})
    svg = html[html.index("<svg") : html.index("</svg>") + len("</svg>")]
    assert clipped_texts(svg) == []
    assert f">{kit}<title>" in svg  # shown in full, not cut
    legend_high = "1 （再識別）" if language == "ja" else "1 (re-identified)"
    assert f">{legend_high}</text>" in svg


def test_heatmap_cuts_a_very_long_team_name_and_keeps_it_in_the_hover_title():
    name = "チーム" * 40
    targets = [SimpleNamespace(team=SimpleNamespace(name=name))]
    heatmap = charts.heatmap(
        targets=targets, grid=[(name, [SimpleNamespace(best=0.5)])], worst=[0.5]
    )
    html = render_to_string("pwscup2015/_heatmap.html", {"heatmap": heatmap})
    svg = html[html.index("<svg") : html.index("</svg>") + len("</svg>")]
    assert clipped_texts(svg) == []
    assert svg.count(f"<title>{name}</title>") == 2  # the row label and the column head
    assert heatmap.rows[0].text != name and heatmap.width < 640  # no wider than the other charts
