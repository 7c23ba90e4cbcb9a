"""PWSCup 2020 (AMIC) played on the organizer's-program kind, for the tests and the walk of
docs/scorer.md ("PWSCup 2020 (AMIC) on this platform"): the program in ``amic_program/``
(standard library only), a pool B of 100 people, each team slot's members C_i (20 rows of B),
and the files a team uploads: a release D_i and an attack E (10 row numbers of B).

Every output is deterministic: the same arguments give the same bytes."""

import csv
import io
import random
from pathlib import Path

from tests.pwscup.scorer_world import zipped

PROGRAM = Path(__file__).resolve().parent / "amic_program"
COLUMNS = ("age", "sex", "education", "hours", "income")
EDUCATION = ("HS-grad", "Some-college", "Bachelors", "Masters")
POOL = 100
MEMBERS = 20
SLOTS = 4
ANSWER = 10  # N: row numbers of B in an attack


def program_zip() -> bytes:
    return zipped({name: (PROGRAM / name).read_bytes() for name in ("metadata", "score.py")})


def pool_rows(seed: int = 2020) -> list[dict]:
    """B: 100 people; income leans on education and hours (a tree finds it)."""
    generator = random.Random(seed)
    rows = []
    for _ in range(POOL):
        education = generator.randrange(len(EDUCATION))
        hours = generator.randint(20, 60)
        rich = education + hours / 20 + generator.random() * 2 > 4.5
        rows.append(
            {
                "age": generator.randint(17, 90),
                "sex": generator.choice(("Female", "Male")),
                "education": EDUCATION[education],
                "hours": hours,
                "income": ">50K" if rich else "<=50K",
            }
        )
    return rows


def members(slot: int, seed: int = 2020) -> list[int]:
    """C_slot: 20 row numbers of B, drawn per slot (two slots may share people, as in 2020)."""
    return sorted(random.Random(seed * 100 + slot).sample(range(POOL), MEMBERS))


def table_csv(rows: list[dict]) -> bytes:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue().encode()


def reference_zip() -> bytes:
    """The hidden reference pack: ``B.csv`` and ``C/team_0i.csv`` (row numbers)."""
    files = {"B.csv": table_csv(pool_rows())}
    for slot in range(1, SLOTS + 1):
        files[f"C/team_{slot:02d}.csv"] = "".join(f"{i}\n" for i in members(slot)).encode()
    return zipped(files)


def public_zip() -> bytes:
    """The files for every team: B."""
    return zipped({"B.csv": table_csv(pool_rows())})


def slots_zip() -> bytes:
    """A folder per slot: the team's members C_i as rows (``C.csv``) and their row numbers."""
    pool = pool_rows()
    files = {}
    for slot in range(1, SLOTS + 1):
        chosen = members(slot)
        files[f"team_{slot:02d}/C.csv"] = table_csv([pool[i] for i in chosen])
        files[f"team_{slot:02d}/C_index.csv"] = "".join(f"{i}\n" for i in chosen).encode()
    return zipped(files)


def release_csv(slot: int, *, swap: str = "", swap_seed: int = 0) -> bytes:
    """D: the members' rows; with ``swap`` that column's values permuted among the rows (the
    histograms stay, the covariances or the tree move)."""
    pool = pool_rows()
    rows = [dict(pool[i]) for i in members(slot)]
    if swap:
        values = [row[swap] for row in rows]
        random.Random(swap_seed).shuffle(values)
        for row, value in zip(rows, values, strict=True):
            row[swap] = value
    return table_csv(rows)


def flat_release_csv(slot: int) -> bytes:
    """A release failing the histogram gate: one member's row, ten times."""
    return table_csv([pool_rows()[members(slot)[0]]] * 10)


def answer_csv(target_slot: int, hits: int) -> bytes:
    """E: ``hits`` members of C_target, then non-members, ten row numbers of B in all."""
    inside = members(target_slot)
    outside = [i for i in range(POOL) if i not in inside]
    chosen = inside[:hits] + outside[: ANSWER - hits]
    return "".join(f"{i}\n" for i in chosen).encode()


# Hits (of 10) per target -> attacker, each round. Preliminary: protection A 700, B 600,
# C 500, so C's release ranks 1, B's 2, A's 3; against the top 1 (C) A has 200, B 500 and C
# its best other attacker's 500: B and C rank 1, A 3. Rank sums A 6, B 3, C 2.
# Final: protection A 300, B 800, C 700: A 1, C 2, B 3; against A: B 200, C 300, A 300:
# A and C 1, B 3. Rank sums A 2, B 6, C 3.
HITS = {
    "pre": {"a": {"b": 7, "c": 4}, "b": {"a": 3, "c": 6}, "c": {"a": 2, "b": 5}},
    "final": {"a": {"b": 2, "c": 3}, "b": {"a": 8, "c": 6}, "c": {"a": 4, "b": 7}},
}
RELEASES = {  # team -> (column permuted among its rows, seed), checked to pass the gates
    "pre": {"a": ("age", 5), "b": ("age", 2), "c": ("age", 3)},
    "final": {"a": ("sex", 1), "b": ("hours", 2), "c": ("hours", 3)},
}

CONFIG = {
    "release_columns": [
        {"key": "hist", "label": "Histogram", "label_ja": "ヒストグラム"},
        {"key": "cov", "label": "Variance-covariance", "label_ja": "分散共分散"},
        {"key": "tree", "label": "Decision tree", "label_ja": "決定木"},
        {"key": "rows", "label": "Rows", "label_ja": "行数"},
    ],
    "attack_columns": [
        {"key": "accuracy", "label": "Accuracy (x1,000)", "label_ja": "正解率（×1,000）"}
    ],
    "attack_mode": "per_target",
    "protection_rule": "worst",
    "release_rank": "protection",
    "gates": [{"key": "hist", "min": 990}, {"key": "cov", "min": 400}, {"key": "tree", "min": 850}],
    "release_files": {"required": ["D.csv"], "only_required": True},
    "attack_files": {"required": ["E.csv"], "only_required": True},
    "limits": {"timeout_seconds": 60, "memory_mb": 1024, "processes": 64},
}


def amic_packs(world) -> None:
    """The organizer uploads the round's packs (the newest of each role counts) and the
    program; its build runs here as the worker does."""
    from pwscup.scorer import services
    from pwscup.scorer.models import DataPack
    from tests.pwscup.scorer_world import program_version, upload_file

    for role, data in (
        (DataPack.Role.REFERENCE, reference_zip()),
        (DataPack.Role.PUBLIC, public_zip()),
        (DataPack.Role.SLOTS, slots_zip()),
    ):
        services.pack_upload(
            scorer=world.scorer,
            role=role,
            uploaded_file=upload_file(data, f"{role}.zip", "application/zip"),
            user=world.organizer,
        )
    world.program = program_version(world, program_zip())
