"""The tables every two-sided kind puts in the results archive the same way
(``RoundKind.archive_members``; ``pwscup.kinds.archives``), so that a reader finds them under
one name and one header whatever the game: the attack ranking and the attack matrix."""

from pwscup.core.exports import csv_bytes
from pwscup.kinds.archives import ArchiveMember


def attack_ranking_member(score: str, rows) -> ArchiveMember:
    """``attack_ranking.csv``: ``rank``, ``team``, the kind's ``score`` column and
    ``targets_attacked``; each of ``rows`` is ``[rank, team's name, score, targets attacked]``
    (an empty cell for none)."""
    return ArchiveMember(
        "attack_ranking.csv", csv_bytes(["rank", "team", score, "targets_attacked"], rows)
    )


def mean_attack_member(score: str, ranking: list[dict]) -> ArchiveMember:
    """``attack_ranking_member`` of a ranking of mean attack scores (the rows of
    ``pwscup.submissions.kind_rankings.mean_attack_ranking``: ``rank``, ``team``, ``mean``,
    ``attacked``), the mean under the kind's ``score`` column."""
    return attack_ranking_member(
        score, ([row["rank"], row["team"].name, row["mean"], row["attacked"]] for row in ranking)
    )


def attack_matrix_member(matrix, *, builtin_column: bool = False) -> ArchiveMember:
    """``attack_matrix.csv`` of a kind's matrix (``pwscup.submissions.attack_matrix``): a
    row per attacker (``attacker``, with ``builtin_column`` whether it is a built-in attack),
    a column per target (its team's name), each cell the number the rankings count. A
    disqualified team's row and column are kept, as every kind's matrix keeps them."""
    head = ["attacker", "builtin"] if builtin_column else ["attacker"]

    def line(row) -> list:
        first = [row.name, row.builtin] if builtin_column else [row.name]
        return [*first, *[matrix.number(cell) for cell in row.cells]]

    return ArchiveMember(
        "attack_matrix.csv",
        csv_bytes(
            [*head, *[target.team.name for target in matrix.targets]], map(line, matrix.rows)
        ),
    )
