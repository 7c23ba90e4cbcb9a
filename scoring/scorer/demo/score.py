"""The demo game's scoring program (standard library only; run in the sandbox).

``score.py release INPUT OUTPUT``
    The team's one CSV file in ``INPUT/res/``, ``release.csv`` or any other name (columns
    ``id,age,zipcode,income``, exactly the ids of ``INPUT/ref/original.csv``) ->
    ``scores.json`` ``{"utility": …}`` (100 × (1 − the mean over the numeric columns of the
    mean absolute error over the column's range)) and ``public/release.csv``:
    ``row,age,zipcode,income``, no id, its rows in an order that depends only on the
    uploaded file's bytes.
``score.py attack INPUT OUTPUT``
    The team's CSV file in ``INPUT/res/``, ``guess.csv`` or any other name (columns
    ``row,id``), against the target's release at
    ``INPUT/targets/<name>/release.csv`` -> ``{"reidentified": share of rows guessed right}``.
    With ``"target"`` in ``INPUT/context.json`` one target; without it every folder of
    ``INPUT/targets`` and the submission holds ``<name>.csv`` for each.

``score.py ranking INPUT OUTPUT``
    The round's ranking program: ``INPUT/res/standings.json`` (every frozen release's
    scores and the attack matrix, written by the platform) -> per team, under ``targets``,
    ``release`` = utility × (1 − the best re-identification any attacker reached on it) and
    ``attack`` = its mean re-identification over the targets it attacked.

Every CSV file is read as UTF-8 (with or without a byte-order mark) or, failing that, as
Shift-JIS (CP932, what Japanese Excel saves). A refusal prints what is wrong (the file by the
name it has, the column, row and value) on stderr, in Japanese and in English (the platform
shows the printed lines as they are, to readers of either language), and exits with status 1.
"""

import csv
import hashlib
import io
import json
import os
import sys

COLUMNS = ["id", "age", "zipcode", "income"]
NUMERIC = COLUMNS[1:]
GUESS_COLUMNS = ["row", "id"]
CELL_LIMIT = 131_072  # characters in one cell: Python's csv module's own limit


class Refused(Exception):
    """What the team must fix, in one sentence, in English and in Japanese: a program does not
    know who reads its message (the platform shows its printed lines to every reader as they
    are), so it prints both."""

    def __init__(self, english, japanese):
        super().__init__(english)
        self.english, self.japanese = english, japanese


def read_csv(path, columns, what):
    """The rows of ``path`` as lists of texts, the header checked."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError:
        raise Refused(f"{what} is missing", f"{what} がありません") from None
    # UTF-16 (Excel's "Unicode text") decodes as CP932 too: NUL bytes, its byte-order mark
    # as private-use characters. Said for what it is, before any reading.
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        raise Refused(
            f"{what} looks like UTF-16 text, not UTF-8: save it as UTF-8 (in Excel: Save As, "
            '"CSV UTF-8 (Comma delimited)") and upload it again',
            f"{what} は UTF-16 のテキストのようです。UTF-8 ではありません。UTF-8 で保存し直して"
            "（Excel では「名前を付けて保存」で「CSV UTF-8（コンマ区切り）」）、"
            "もう一度アップロードしてください",
        )
    try:
        text = data.decode("utf-8-sig")  # UTF-8, with or without a byte-order mark
    except UnicodeDecodeError:
        try:
            text = data.decode("cp932")  # Shift-JIS, as Japanese Excel saves CSV
        except UnicodeDecodeError:
            raise Refused(
                f"{what} is neither UTF-8 nor Shift-JIS (CP932): upload a CSV file in either",
                f"{what} は UTF-8 でも Shift-JIS (CP932) でもありません。"
                "UTF-8 または Shift-JIS (CP932) の CSV ファイルをアップロードしてください",
            ) from None
    # The csv module refuses a longer cell without saying where: read it, then say so.
    csv.field_size_limit(max(len(text), CELL_LIMIT))
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as error:
        raise Refused(
            f"{what} is not a CSV file this program can read ({error})",
            f"{what} をこのプログラムは CSV として読めません（{error}）",
        ) from None
    long_cell_check(rows, columns, what)
    if not rows or rows[0] != columns:
        header = ",".join(rows[0]) if rows else ""
        expected = ",".join(columns)
        raise Refused(
            f"{what}: the header is {header!r}; expected {expected!r}",
            f"{what}: ヘッダーが {header!r} です（{expected!r} のはずです）",
        )
    body = rows[1:]
    for number, row in enumerate(body, start=1):
        if len(row) != len(columns):
            raise Refused(
                f"{what}: row {number} has {len(row)} values; expected {len(columns)}",
                f"{what}: {number} 行目の値が {len(row)} 個です（{len(columns)} 個のはずです）",
            )
    return data, body


def long_cell_check(rows, columns, what):
    """Refuses a cell over ``CELL_LIMIT`` characters, naming its column and row (row 0: the
    header); a quote never closed makes one cell of the rest of the file."""
    for line, row in enumerate(rows):
        for index, cell in enumerate(row):
            if len(cell) > CELL_LIMIT:
                column = columns[index] if index < len(columns) else f"#{index + 1}"
                raise Refused(
                    f"{what}: column {column}, row {line}: the cell holds {len(cell)}"
                    f" characters; a cell may hold at most {CELL_LIMIT} (a quote not closed?)",
                    f"{what}: 列 {column}、{line} 行目: セルは {len(cell)} 文字あります。"
                    f"セルは {CELL_LIMIT} 文字までです（閉じていない引用符はありませんか）",
                )


def number(text, what, column, row):
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")):
        raise Refused(
            f"{what}: column {column}, row {row}: {text!r} is not a number",
            f"{what}: 列 {column}、{row} 行目: {text!r} は数値ではありません",
        )
    return value


def public_order(data, ids):
    """The ids in the public file's order: sorted by sha256(the file's digest + the id)."""
    digest = hashlib.sha256(data).hexdigest()
    return sorted(ids, key=lambda i: hashlib.sha256((digest + i).encode("utf-8")).hexdigest())


def release_rows(path, what, expected_ids=None):
    """(the file's bytes, {id: [texts of the numeric columns]}) of a release, checked."""
    data, body = read_csv(path, COLUMNS, what)
    rows = {}
    for number_, row in enumerate(body, start=1):
        identifier = row[0]
        if identifier in rows:
            raise Refused(
                f"{what}: column id, row {number_}: {identifier!r} is given twice",
                f"{what}: 列 id、{number_} 行目: {identifier!r} が 2 回あります",
            )
        if expected_ids is not None and identifier not in expected_ids:
            raise Refused(
                f"{what}: column id, row {number_}: {identifier!r} is not an id of the original",
                f"{what}: 列 id、{number_} 行目: {identifier!r} は元データの id ではありません",
            )
        for column, text in zip(NUMERIC, row[1:], strict=True):
            number(text, what, column, number_)
        rows[identifier] = row[1:]
    if expected_ids is not None and len(rows) != len(expected_ids):
        missing = sorted(set(expected_ids) - set(rows))
        raise Refused(
            f"{what}: column id: the original's id {missing[0]!r} is missing"
            f" ({len(missing)} missing in total)",
            f"{what}: 列 id: 元データの id {missing[0]!r} がありません（欠けているのは計 {len(missing)} 件）",
        )
    return data, rows


def submitted(res, name):
    """``res/name``, or the one CSV file the team uploaded under another name (in an upload's
    ``res/`` or a target's frozen release, kept as its team uploaded it)."""
    path = os.path.join(res, name)
    if os.path.exists(path) or not os.path.isdir(res):
        return path
    found = [n for n in sorted(os.listdir(res)) if n.lower().endswith(".csv")]
    return os.path.join(res, found[0]) if len(found) == 1 else path


def score_release(input_dir, output_dir):
    _, original = release_rows(os.path.join(input_dir, "ref", "original.csv"), "original.csv")
    path = submitted(os.path.join(input_dir, "res"), "release.csv")
    data, release = release_rows(path, os.path.basename(path), expected_ids=set(original))
    errors = []
    for index in range(len(NUMERIC)):
        truth = [float(original[i][index]) for i in original]
        spread = (max(truth) - min(truth)) or 1.0
        error = sum(abs(float(release[i][index]) - float(original[i][index])) for i in original)
        errors.append(error / len(original) / spread)
    utility = round(100 * (1 - sum(errors) / len(errors)), 4)
    os.makedirs(os.path.join(output_dir, "public"), exist_ok=True)
    with open(os.path.join(output_dir, "public", "release.csv"), "w", newline="") as file:
        writer = csv.writer(file, lineterminator="\n")
        writer.writerow(["row", *NUMERIC])
        for row, identifier in enumerate(public_order(data, release), start=1):
            writer.writerow([row, *release[identifier]])
    return {"utility": utility}


def reidentified(guess_path, target_release, what):
    # Named by its folder under targets/, in neither language.
    folder = os.path.basename(os.path.dirname(target_release))
    name = os.path.basename(target_release)
    data, release = release_rows(target_release, f"targets/{folder}/{name}")
    order = public_order(data, release)
    _, body = read_csv(guess_path, GUESS_COLUMNS, what)
    seen = set()
    right = 0
    for line, (row_text, identifier) in enumerate(body, start=1):
        try:
            row = int(row_text)
        except ValueError:
            row = 0
        if not 1 <= row <= len(order):
            raise Refused(
                f"{what}: column row, row {line}: {row_text!r} is not 1 to {len(order)}",
                f"{what}: 列 row、{line} 行目: {row_text!r} が 1 から {len(order)} の整数ではありません",
            )
        if row in seen:
            raise Refused(
                f"{what}: column row, row {line}: {row} is given twice",
                f"{what}: 列 row、{line} 行目: {row} が 2 回あります",
            )
        seen.add(row)
        right += order[row - 1] == identifier
    return round(right / len(order), 4) if order else 0.0


def score_attack(input_dir, output_dir):
    context = {}
    context_path = os.path.join(input_dir, "context.json")
    if os.path.exists(context_path):
        with open(context_path, encoding="utf-8") as file:
            context = json.load(file)
    res, targets = os.path.join(input_dir, "res"), os.path.join(input_dir, "targets")
    if context.get("target"):
        name = str(context["target"])
        release = submitted(os.path.join(targets, name), "release.csv")
        guess = submitted(res, "guess.csv")
        return {"reidentified": reidentified(guess, release, os.path.basename(guess))}
    names = sorted(os.listdir(targets)) if os.path.isdir(targets) else []
    if not names:
        raise Refused("there is no target to attack", "攻撃する対象がありません")
    per_target = {}
    for name in names:
        release = submitted(os.path.join(targets, name), "release.csv")
        share = reidentified(os.path.join(res, f"{name}.csv"), release, f"{name}.csv")
        per_target[name] = {"reidentified": share}
    mean = sum(t["reidentified"] for t in per_target.values()) / len(per_target)
    return {"reidentified": round(mean, 4), "targets": per_target}


def score_ranking(input_dir, output_dir):
    with open(os.path.join(input_dir, "res", "standings.json"), encoding="utf-8") as file:
        standings = json.load(file)
    matrix = standings["matrix"]
    teams = {}
    for team, scores in standings["releases"].items():
        worst = max(matrix.get(team, {}).values(), default=0.0)
        teams[team] = {"release": round(scores.get("utility", 0.0) * (1 - worst), 4)}
    for attacker in sorted({a for row in matrix.values() for a in row}):
        values = [row[attacker] for row in matrix.values() if attacker in row]
        teams.setdefault(attacker, {})["attack"] = round(sum(values) / len(values), 4)
    return {"teams": len(teams), "targets": teams}


COMMANDS = {"release": score_release, "attack": score_attack, "ranking": score_ranking}


def main(argv):
    if len(argv) != 4 or argv[1] not in COMMANDS:
        print("usage: score.py release|attack|ranking INPUT OUTPUT", file=sys.stderr)
        return 2
    kind, input_dir, output_dir = argv[1:]
    try:
        scores = COMMANDS[kind](input_dir, output_dir)
    except Refused as refusal:
        print(f"受け付けられません: {refusal.japanese}", file=sys.stderr)
        print(f"refused: {refusal.english}", file=sys.stderr)
        return 1
    with open(os.path.join(output_dir, "scores.json"), "w", encoding="utf-8") as file:
        json.dump(scores, file)
    print(json.dumps(scores))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
