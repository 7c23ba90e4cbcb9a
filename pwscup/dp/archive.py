"""The dp round in the competition's results archive (``RoundKind.archive_members`` /
``data_card``; ``pwscup.kinds.archives``).

Published anyway: the leaderboard of every level (verified and declared tables, the
baselines, the overall rank sums; ``pwscup.dp.ranking``, written by
``pwscup.dp.exports``) and, when the organizer set ``publish_truth``, the true histograms
the leaderboard page already shows. The hidden table only with ``ORIGINAL``. No ledger,
answer or release of a team: those were the team's own."""

from pwscup.core.exports import csv_bytes
from pwscup.dp import engine
from pwscup.dp.exports import leaderboard_csv_text, published_truths
from pwscup.dp.models import DPRound
from pwscup.dp.ranking import level_boards, overall_ranking
from pwscup.kinds.archives import ORIGINAL, ArchiveMember, round_data_card


def results_final(dp_round: DPRound) -> bool:
    """The scores are final once the release phase has closed and the round is scored
    (the leaderboard shows nothing before)."""
    return dp_round.has_closed() and dp_round.scored_at is not None


def archive_members(round, *, secrets):
    dp_round = DPRound.objects.get(round=round)
    members = []
    if results_final(dp_round):
        boards = level_boards(dp_round=dp_round)
        text = leaderboard_csv_text(boards, overall_ranking(boards))
        members.append(ArchiveMember("leaderboard.csv", text.encode()))
        truths = published_truths(dp_round)
        if truths is not None:
            rows = [
                [target["id"], cell, count] for target in truths for cell, count in target["rows"]
            ]
            members.append(
                ArchiveMember("true_histograms.csv", csv_bytes(["target", "cell", "count"], rows))
            )
    if ORIGINAL in secrets:
        members.append(
            ArchiveMember("hidden_table.csv", engine.stored_bytes(round.original_file), ORIGINAL)
        )
    return members


def data_card(round) -> dict:
    config = DPRound.objects.get(round=round).config
    levels = ", ".join(f"{level['id']} (ε = {level['epsilon']})" for level in config["levels"])
    workload = ", ".join(
        f"{target['id']} ({' × '.join(target['attributes'])})" for target in config["workload"]
    )
    gate = config.get("spearman_gate")
    rules = [
        "Each team spends an ε budget per level on Laplace-noised queries or Pk-anonymized "
        "releases of the hidden table, then estimates the workload's histograms.",
        f"Levels: {levels}. Workload: {workload}.",
        f"Ranked per level by mean {config.get('rank_metric', 'l2')} "
        "(L2 lower is better, Spearman higher is better); the overall ranking sums the "
        "per-level ranks.",
    ]
    if gate is not None:
        rules.append(f"An estimate needs a mean Spearman of at least {gate} to be ranked.")
    return round_data_card(
        rows=round.original_rows,
        sha256=round.original_sha256,
        description=config.get("description", ""),
        columns=[
            {"name": name, "role": "histogram attribute", "domain": " | ".join(values)}
            for name, values in config["attributes"].items()
        ],
        rules=rules,
    )
