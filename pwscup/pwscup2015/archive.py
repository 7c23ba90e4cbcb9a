"""The pwscup2015 round in the competition's results archive (``RoundKind.archive_members`` /
``data_card``; ``pwscup.kinds.archives``).

Published anyway: the targets as they were published to the attackers, the attack matrix
and the final ranking (every score of every target, both rankings), read from the
leaderboards' own selectors. Secrets, each only when ticked: the original (``ORIGINAL``),
the per-team samples and the per-team mode's candidate tables, which hold each sample's
rows among the decoys (``SAMPLES``), the targets' truth files, i.e. the permutation from
each published row to its reference row and so the attacks' answer (``PERMUTATIONS``), and
in per-team mode which rows of the original each team's sample is (``GROUND_TRUTH``).
"""

from pwscup.competitions.models import Round
from pwscup.core.exports import csv_bytes
from pwscup.core.files import opened
from pwscup.kinds.archives import (
    GROUND_TRUTH,
    ORIGINAL,
    PERMUTATIONS,
    SAMPLES,
    ArchiveMember,
    round_data_card,
)
from pwscup.pwscup2015 import ranking
from pwscup.pwscup2015.leaderboards import selectors as leaderboards
from pwscup.pwscup2015.leaderboards import tables
from pwscup.pwscup2015.models import TeamDataset


def _stored(field) -> bytes:
    with opened(field) as handle:
        return handle.read()


def archive_members(round: Round, *, secrets):
    matrix = leaderboards.attack_matrix(round=round)
    anonymization, attack = leaderboards.final_ranking(round=round)
    members = [
        ArchiveMember(
            "final_anonymization.csv",
            csv_bytes(*tables.final_anonymization_table(round=round, rows=anonymization)),
        ),
        ArchiveMember("final_attack.csv", csv_bytes(*tables.final_attack_table(attack))),
        ArchiveMember("attack_matrix.csv", csv_bytes(*tables.matrix_table(matrix))),
    ]
    for target in matrix.targets:
        folder = f"targets/{target.team.slug}"
        members.append(ArchiveMember(f"{folder}/anonymized.csv", _stored(target.published_file)))
        if target.candidate_file and SAMPLES in secrets:
            members.append(
                ArchiveMember(f"{folder}/candidate.csv", _stored(target.candidate_file), SAMPLES)
            )
        if PERMUTATIONS in secrets:
            members.append(
                ArchiveMember(f"{folder}/truth.csv", _stored(target.truth_file), PERMUTATIONS)
            )
    if ORIGINAL in secrets:
        members.append(ArchiveMember("original.csv", _stored(round.original_file), ORIGINAL))
    if SAMPLES in secrets or GROUND_TRUTH in secrets:
        datasets = TeamDataset.objects.filter(round=round).select_related("team")
        for dataset in datasets.order_by("team__slug"):
            slug = dataset.team.slug
            if SAMPLES in secrets:
                members.append(ArchiveMember(f"samples/{slug}.csv", _stored(dataset.file), SAMPLES))
            if GROUND_TRUTH in secrets:
                rows = enumerate(dataset.sample_index, start=1)
                members.append(
                    ArchiveMember(
                        f"ground_truth/{slug}_sample_rows.csv",
                        csv_bytes(["sample_row", "original_row"], ([i, r + 1] for i, r in rows)),
                        GROUND_TRUTH,
                    )
                )
    return members


def _role(column: str, config: dict) -> str:
    roles = []
    if column in (config.get("qi") or []):
        roles.append("quasi-identifier")
    if column in (config.get("sa") or []):
        roles.append("sensitive")
    return ", ".join(roles) or "other"


def data_card(round: Round) -> dict:
    settings = round.pwscup2015
    config = round.config or {}
    columns = list((config.get("domains") or {}).keys())
    for column in [*(config.get("qi") or []), *(config.get("sa") or [])]:
        if column not in columns:
            columns.append(column)
    mode = settings.get_data_mode_display()
    if settings.is_per_team:
        mode = f"{mode}: {settings.sample_size} rows per team, {settings.decoy_count} decoys"
    rules = [
        f"Data: {mode}.",
        "Each team anonymizes its table; its representative anonymization is frozen, "
        "shuffled and published as its target; the other teams try to re-identify its rows.",
        str(ranking.rule_text(round)),
    ]
    return round_data_card(
        rows=round.original_rows,
        sha256=round.original_sha256,
        description=config.get("description", ""),
        columns=[
            {
                "name": column,
                "role": _role(column, config),
                "domain": (config.get("domains") or {}).get(column, ""),
            }
            for column in columns
        ],
        rules=rules,
    )
