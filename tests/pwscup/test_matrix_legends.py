"""Every kind's attack matrix explains each sign its cells show (a team's own release, no
attack) in the legend under it, in English and in Japanese: a synthetic round's legend said
「·」は攻撃なし while a team's own cell showed —. The templates are rendered on a small matrix
with a team's own cell, a cell with no attack and a scored one."""

import re
from types import SimpleNamespace as Row

import pytest
from django.template.loader import render_to_string
from django.utils import translation

QUOTES = {"en": "“{}”", "ja": "「{}」"}


def _team(slug):
    return Row(slug=slug, name=f"Team {slug.upper()}")


TEAMS = [_team("a"), _team("b")]


def _synthetic():
    cell = Row(headline=0.25, auc=0.5)
    none = Row(headline=None, auc=None)
    rows = [
        Row(builtin=True, name="null", disqualified=False, cells=[Row(own=False, cell=cell)] * 2),
        Row(
            builtin=False,
            name="Team A",
            disqualified=False,
            cells=[Row(own=True, cell=none), Row(own=False, cell=none)],
        ),
    ]
    targets = [Row(team=team, team_id=n) for n, team in enumerate(TEAMS)]
    matrix = Row(targets=targets, rows=rows, disqualified=frozenset())
    return "synthetic/_matrix.html", {"matrix": matrix, "state": Row(headline_level="0.1")}


def _scorer():
    rows = [
        Row(
            team=team,
            disqualified=False,
            cells=[Row(own=n == m, text="0.5000" if m else "") for m in range(2)],
        )
        for n, team in enumerate(TEAMS)
    ]
    matrix = Row(rows=rows, attackers=[Row(team=team, disqualified=False) for team in TEAMS])
    return "scorer/_matrix.html", {"matrix": matrix, "state": Row(config=Row(unattacked=None))}


def _sequential():
    targets = [Row(team=team, team_id=n) for n, team in enumerate(TEAMS)]
    rows = [
        Row(builtin=True, name="MAP_N", disqualified=False, cells=[0.5, 0.25]),
        Row(builtin=False, name="Team A", disqualified=False, cells=[None, 0.75]),
        Row(builtin=False, name="Team B", disqualified=False, cells=[None, None]),
    ]
    matrix = Row(targets=targets, rows=rows, disqualified=frozenset())
    return "sequential/_matrix.html", {"matrix": matrix}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("matrix", [_synthetic, _scorer, _sequential])
def test_the_legend_explains_every_sign_the_matrix_shows(matrix, lang):
    template, context = matrix()
    with translation.override(lang):
        html = render_to_string(template, context)
    table, legend = html.split("</table>", 1)
    cells = {_text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", table, re.S)}
    signs = {cell for cell in cells if cell and not any(ch.isdigit() for ch in cell)}
    assert len(signs) >= 1, cells  # the own cell at least
    for sign in signs:
        assert QUOTES[lang].format(sign) in _text(legend), (template, sign, _text(legend))


@pytest.mark.parametrize(("lang", "own"), [("en", "own target"), ("ja", "自チームの攻撃対象")])
def test_the_2015_legend_says_a_dash_is_also_a_teams_own_target(lang, own):
    """The 2015 matrix shows “–” on a team's own target as on one not attacked yet."""
    with translation.override(lang):
        html = render_to_string("pwscup2015/_heatmap.html", {"heat_legend": []})
    dash = next(item for item in re.findall(r"<li[^>]*>(.*?)</li>", html) if item.startswith("–"))
    assert own in dash
