"""A PWSCup 2020 (AMIC)-like scoring program for the platform's tests (standard library only).

The pool B (``ref/B.csv``, public too) holds the people; team slot i's members C_i are the
row numbers in ``ref/C/team_0i.csv`` (hidden; the team gets its rows in its slot folder).

* ``release``: reads ``res/D.csv``, the anonymized C_i: the columns of B in B's order, from
  MIN_ROWS to MAX_ROWS rows, each value in its column's domain; refuses anything else naming
  the column, the row and the value. Scores (×1,000, truncated, as 2020 gave them): ``hist``
  (1 − the mean total-variation distance of the columns' histograms, C_i against D),
  ``cov`` (1 − Σ|cov_C − cov_D| / Σ|cov_C| over the numeric columns, at least 0), ``tree``
  (the share of C_i's rows on which a depth-2 tree trained on D predicts ``income`` as one
  trained on C_i does) and ``rows``. Publishes D.csv.
* ``attack``: reads ``res/E.csv``, N row numbers of B (0-based, one a line, all different);
  ``accuracy`` = 1,000 × |E ∩ C_target| / N, truncated.
"""

import csv
import json
import os
import shutil
import sys

COLUMNS = ("age", "sex", "education", "hours", "income")
NUMERIC = {"age": (17, 90), "hours": (1, 99)}
DOMAINS = {
    "sex": ("Female", "Male"),
    "education": ("HS-grad", "Some-college", "Bachelors", "Masters"),
    "income": ("<=50K", ">50K"),
}
BINS = {"age": 10, "hours": 10}
LABEL = "income"
MIN_ROWS, MAX_ROWS = 10, 200
N = 10


def refuse(ja: str, en: str) -> None:
    print(f"受け付けられません: {ja}")
    print(f"refused: {en}")
    sys.exit(1)


def read_table(path: str, name: str) -> list[dict]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle))
    if not rows or tuple(rows[0]) != COLUMNS:
        got = ",".join(rows[0]) if rows else ""
        want = ",".join(COLUMNS)
        refuse(
            f"{name}: 見出しは {want} です（{got!r}）",
            f"{name}: the header must be {want}, got {got!r}",
        )
    table = []
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(COLUMNS):
            refuse(
                f"{name}: {number} 行目の列数は {len(row)} です",
                f"{name}: row {number} has {len(row)} columns",
            )
        table.append(
            dict(
                zip(
                    COLUMNS,
                    [_value(name, number, c, v) for c, v in zip(COLUMNS, row, strict=True)],
                    strict=True,
                )
            )
        )
    return table


def _value(name: str, number: int, column: str, value: str):
    if column in NUMERIC:
        low, high = NUMERIC[column]
        if not value.strip().lstrip("-").isdigit() or not low <= int(value) <= high:
            refuse(
                f"{name}: 列 {column}、{number} 行目: {value!r} は {low}〜{high} の整数ではありません",
                f"{name}: column {column}, row {number}: {value!r} is not a whole number from {low} to {high}",
            )
        return int(value)
    if value not in DOMAINS[column]:
        allowed = ", ".join(DOMAINS[column])
        refuse(
            f"{name}: 列 {column}、{number} 行目: {value!r} は {allowed} のどれでもありません",
            f"{name}: column {column}, row {number}: {value!r} is none of {allowed}",
        )
    return value


def histogram(table: list[dict], column: str) -> dict:
    counts: dict = {}
    for row in table:
        key = row[column] // BINS[column] if column in BINS else row[column]
        counts[key] = counts.get(key, 0) + 1
    return {key: count / len(table) for key, count in counts.items()}


def hist_score(original: list[dict], release: list[dict]) -> float:
    distances = []
    for column in COLUMNS:
        p, q = histogram(original, column), histogram(release, column)
        distances.append(sum(abs(p.get(k, 0) - q.get(k, 0)) for k in set(p) | set(q)) / 2)
    return 1 - sum(distances) / len(distances)


def covariances(table: list[dict]) -> list[float]:
    names = sorted(NUMERIC)
    means = {c: sum(r[c] for r in table) / len(table) for c in names}
    out = []
    for a in names:
        for b in names:
            out.append(sum((r[a] - means[a]) * (r[b] - means[b]) for r in table) / len(table))
    return out


def cov_score(original: list[dict], release: list[dict]) -> float:
    c, d = covariances(original), covariances(release)
    return max(0.0, 1 - sum(abs(x - y) for x, y in zip(c, d, strict=True)) / sum(abs(x) for x in c))


def majority(rows: list[dict]) -> str:
    ones = sum(1 for r in rows if r[LABEL] == DOMAINS[LABEL][1])
    return DOMAINS[LABEL][1] if 2 * ones > len(rows) else DOMAINS[LABEL][0]


def tests_of(table: list[dict]):
    """Every split ``row -> bool`` a node may take, in a fixed order."""
    for column in COLUMNS:
        if column == LABEL:
            continue
        values = sorted({r[column] for r in table})
        for value in values:
            if column in NUMERIC:
                yield (column, "<=", value)
            else:
                yield (column, "==", value)


def passes(test, row) -> bool:
    column, op, value = test
    return row[column] <= value if op == "<=" else row[column] == value


def gini(rows: list[dict]) -> float:
    if not rows:
        return 0.0
    p = sum(1 for r in rows if r[LABEL] == DOMAINS[LABEL][1]) / len(rows)
    return 2 * p * (1 - p)


def grow(rows: list[dict], depth: int):
    """A CART tree (Gini; the first best split in ``tests_of``'s order wins a tie)."""
    best, best_cost = None, gini(rows) * len(rows)
    for test in tests_of(rows) if depth else ():
        left = [r for r in rows if passes(test, r)]
        right = [r for r in rows if not passes(test, r)]
        cost = gini(left) * len(left) + gini(right) * len(right)
        if left and right and cost < best_cost - 1e-12:
            best, best_cost = (test, left, right), cost
    if best is None:
        return majority(rows)
    test, left, right = best
    return (test, grow(left, depth - 1), grow(right, depth - 1))


def predict(tree, row) -> str:
    while isinstance(tree, tuple):
        tree = tree[1] if passes(tree[0], row) else tree[2]
    return tree


def tree_score(original: list[dict], release: list[dict]) -> float:
    mine, theirs = grow(original, 2), grow(release, 2)
    return sum(1 for r in original if predict(mine, r) == predict(theirs, r)) / len(original)


def members(folder: str, slot_folder: str) -> set[int]:
    with open(os.path.join(folder, "C", f"{slot_folder}.csv"), encoding="utf-8") as handle:
        return {int(line) for line in handle if line.strip()}


def inputs(inp: str, name: str) -> tuple[dict, str, list[dict]]:
    """The run's context, the path of the upload's file ``name`` (refused when absent) and B."""
    context = json.load(open(os.path.join(inp, "context.json"), encoding="utf-8"))
    path = os.path.join(inp, "res", name)
    if not os.path.exists(path):
        refuse(f"{name} がありません", f"no {name} in the upload")
    return context, path, read_table(os.path.join(inp, "ref", "B.csv"), "B.csv")


def release(inp: str, out: str) -> None:
    context, path, pool = inputs(inp, "D.csv")
    original = [pool[i] for i in sorted(members(os.path.join(inp, "ref"), context["slot_folder"]))]
    table = read_table(path, "D.csv")
    if not MIN_ROWS <= len(table) <= MAX_ROWS:
        refuse(
            f"D.csv: 行数は {MIN_ROWS}〜{MAX_ROWS} です（{len(table)} 行）",
            f"D.csv: from {MIN_ROWS} to {MAX_ROWS} rows, got {len(table)}",
        )
    scores = {
        "hist": int(1000 * hist_score(original, table)),
        "cov": int(1000 * cov_score(original, table)),
        "tree": int(1000 * tree_score(original, table)),
        "rows": len(table),
    }
    os.makedirs(os.path.join(out, "public"), exist_ok=True)
    shutil.copy(path, os.path.join(out, "public", "D.csv"))
    json.dump(scores, open(os.path.join(out, "scores.json"), "w"))


def attack(inp: str, out: str) -> None:
    context, path, pool = inputs(inp, "E.csv")
    lines = [line.strip() for line in open(path, encoding="utf-8-sig") if line.strip()]
    if len(lines) != N:
        refuse(
            f"E.csv: 行番号は {N} 行です（{len(lines)} 行）",
            f"E.csv: {N} row numbers, got {len(lines)}",
        )
    seen = set()
    for number, line in enumerate(lines, start=1):
        if not line.isdigit() or int(line) >= len(pool) or int(line) in seen:
            refuse(
                f"E.csv: {number} 行目: {line!r} は B の行番号 0〜{len(pool) - 1} でないか重複しています",
                f"E.csv: row {number}: {line!r} is not a row number of B (0 to {len(pool) - 1}) or repeats one",
            )
        seen.add(int(line))
    slot = context["target_slots"][context["target"]]
    hits = len(seen & members(os.path.join(inp, "ref"), f"team_{slot:02d}"))
    json.dump({"accuracy": 1000 * hits // N}, open(os.path.join(out, "scores.json"), "w"))


if __name__ == "__main__":
    {"release": release, "attack": attack}[sys.argv[1]](sys.argv[2], sys.argv[3])
