"""The DP round's downloads and read-only tables built for the pages: a team's ledger as CSV,
the leaderboard as CSV (both through the core's spreadsheet-safe ``csv_writer``), and the
published true histograms (reads only; no writes here)."""

import io

from pwscup.core.exports import csv_writer
from pwscup.core.time_zones import answer_moment
from pwscup.dp import engine
from pwscup.dp.models import DPRound
from pwscup.dp.selectors import LevelView
from scoring.dp.data import target_cells

LEDGER_HEADER = [
    "charge_no",
    "kind",
    "created_at",
    "request_id",
    "epsilon",
    "spent_after",
    "type",
    "attributes",
    "where",
    "sensitivity",
    "lambda",
    "cell",
    "answer",
]

LEADERBOARD_HEADER = [
    "level",
    "table",
    "rank",
    "team",
    "label",
    "epsilon_spent",
    "mean_l2",
    "mean_spearman",
    "passes_gate",
]


def ledger_csv_text(view: LevelView) -> str:
    """Every charge of one ledger with its answer: a query gives one line per cell, a
    release one line with its groups and k."""
    buffer = io.StringIO()
    writer = csv_writer(buffer, lineterminator="\n")
    writer.writerow(LEDGER_HEADER)
    for charge in view.charges:
        reply = charge.reply
        base = [
            charge.number,
            charge.kind,
            answer_moment(charge.created_at),
            charge.request_id,
            charge.epsilon,
            charge.spent_after,
        ]
        if charge.kind == "query":
            where = ";".join(f"{k}={v}" for k, v in (reply.get("where") or {}).items())
            for cell, value in zip(reply["cells"], reply["answer"], strict=False):
                writer.writerow(
                    [
                        *base,
                        reply["type"],
                        "|".join(reply["attributes"]),
                        where,
                        reply["sensitivity"],
                        repr(reply["lambda"]),
                        "|".join(cell),
                        repr(value),
                    ]
                )
        else:
            groups = ";".join(
                "+".join(g["attributes"]) + f":rho={g['rho']}" for g in reply.get("groups", [])
            )
            writer.writerow([*base, "release", groups, "", "", "", f"k={reply.get('k')}", ""])
    return buffer.getvalue()


def published_truths(dp_round: DPRound) -> list | None:
    """The true histograms, after the close, only if the organizer set ``publish_truth``."""
    if not dp_round.config.get("publish_truth") or dp_round.scored_at is None:
        return None
    truths = engine.round_truths(dp_round.round)
    parsed = engine.config_of(dp_round.config)
    return [
        {
            "id": target.id,
            "rows": [
                (", ".join(cell), count)
                for cell, count in zip(
                    target_cells(parsed, target.attributes), truths[target.id], strict=True
                )
            ],
        }
        for target in parsed.workload
    ]


def leaderboard_csv_text(boards, overall) -> str:
    """The per-level tables (verified, declared, baselines) and the overall rank sums."""
    buffer = io.StringIO()
    writer = csv_writer(buffer, lineterminator="\n")
    writer.writerow(LEADERBOARD_HEADER)
    for board in boards:
        for table, rows in (("verified", board.verified), ("declared", board.declared)):
            for row in rows:
                writer.writerow(
                    [
                        board.level,
                        table,
                        row.rank,
                        row.team.name,
                        row.label,
                        row.spent_text,
                        f"{row.mean_l2:.6f}",
                        f"{row.mean_spearman:.6f}",
                        row.passes_gate,
                    ]
                )
        for row in board.baselines.get("rows", []):
            writer.writerow(
                [
                    board.level,
                    "baseline",
                    "",
                    row["label"],
                    row["label"],
                    row.get("epsilon", ""),
                    f"{row['l2']:.6f}",
                    f"{row['spearman']:.6f}" if row.get("spearman") is not None else "",
                    "",
                ]
            )
    for row in overall:
        writer.writerow(["overall", "rank_sum", row.rank, row.team.name, "", "", row.total, "", ""])
    return buffer.getvalue()
