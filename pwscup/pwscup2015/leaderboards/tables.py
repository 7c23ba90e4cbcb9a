"""The result tables as CSV rows (header, rows): one owner for the leaderboard, the attack
matrix and the final ranking's columns, which the pages' CSV downloads and the results
archive (``pwscup/pwscup2015/archive.py``) both write through ``csv_writer``."""

from django.utils.translation import gettext as _

from pwscup.competitions.models import Round
from pwscup.competitions.selectors import round_metrics
from pwscup.pwscup2015.ranking import safety_measure


def cell(value):
    """An empty cell for a missing value."""
    return "" if value is None else value


def leaderboard_table(*, round: Round, standings) -> tuple[list, list]:
    """The leaderboard page's table (``leaderboard_standings``: its rows and ranking number)."""
    metrics = round_metrics(round=round)
    header = ["rank", "team", "submission", "passes_gates", standings.column, *metrics]
    rows = standings.rows()
    return header, [
        [cell(r.rank), r.team.name, r.submission.pk, r.passes_gates, cell(r.safety)]
        + [cell(r.scores.get(m)) for m in metrics]
        for r in rows
    ]


def matrix_table(matrix) -> tuple[list, list]:
    """Attacker × target: each attacker's best rate on each target."""
    header = ["attacker", *[t.team.name for t in matrix.targets]]
    rows = [
        [label] + [cell(matrix.cell(key, t.pk).best) for t in matrix.targets]
        for key, label in matrix.attackers
    ]
    # Outside the cells (in no worst case): its own line, as on the page.
    rows.append([_("reference attack"), *[cell(r) for r in matrix.reference_rates()]])
    return header, rows


def final_anonymization_table(*, round: Round, rows) -> tuple[list, list]:
    metrics = round_metrics(round=round)
    header = ["rank", "team", "passes_gates", safety_measure(round).csv_column, *metrics]
    return header, [
        [cell(r.rank), r.team.name, r.passes_gates, cell(r.safety)]
        + [cell(r.scores.get(m)) for m in metrics]
        for r in rows
    ]


def final_attack_table(rows) -> tuple[list, list]:
    header = ["rank", "team", "mean_rate", "targets_attacked"]
    return header, [[cell(r.rank), r.team.name, r.mean_rate, r.targets_attacked] for r in rows]
