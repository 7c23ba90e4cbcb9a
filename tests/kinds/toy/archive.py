"""The toy round in the results archive: its leaderboard (no secret of its own)."""

from pwscup.core.exports import csv_bytes
from pwscup.kinds.archives import ArchiveMember
from tests.kinds.toy.selectors import toy_leaderboard


def archive_members(round, *, secrets) -> list[ArchiveMember]:
    return [ArchiveMember("leaderboard.csv", csv_bytes(["team", "score"], toy_leaderboard(round)))]
