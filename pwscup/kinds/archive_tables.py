"""The tables every two-sided kind puts in the results archive the same way
(``RoundKind.archive_members``; ``pwscup.kinds.archives``), so that a reader finds them under
one name and one header whatever the game: the attack ranking."""

from pwscup.core.exports import csv_bytes
from pwscup.kinds.archives import ArchiveMember


def attack_ranking_member(score: str, rows) -> ArchiveMember:
    """``attack_ranking.csv``: ``rank``, ``team``, the kind's ``score`` column and
    ``targets_attacked``; each of ``rows`` is ``[rank, team's name, score, targets attacked]``
    (an empty cell for none)."""
    return ArchiveMember(
        "attack_ranking.csv", csv_bytes(["rank", "team", score, "targets_attacked"], rows)
    )
