"""The platform's demo game: a scoring program of our own and the data to play it.

The program (``metadata`` and ``score.py`` here, standard library only, no requirements)
scores a release of a small table (``utility``) and an attack that re-identifies the rows of
another team's published release (``reidentified``); ``score.py``'s docstring says how. The
functions below make its ZIP, the round's reference data, a team's release and a
nearest-neighbour attack, for tests, the organizers' guide and a demo round. Every output is
deterministic: the same arguments give the same bytes.

Examples
--------
>>> reference = demo_reference_csv(rows=3, seed=1)
>>> reference.decode().splitlines()[0]
'id,age,zipcode,income'
>>> demo_release_csv(reference, noise=0, seed=0) == reference
True
>>> demo_program_zip() == demo_program_zip()
True
"""

from __future__ import annotations

import csv
import io
import random
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAM_FILES = ("metadata", "score.py")
COLUMNS = ("id", "age", "zipcode", "income")
NUMERIC = COLUMNS[1:]
# A fixed date: a ZIP member's time would otherwise make the bytes differ per build.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def demo_program_zip() -> bytes:
    """The demo program's ZIP: ``metadata`` and ``score.py`` at its top."""
    return _zip({name: (HERE / name).read_bytes() for name in PROGRAM_FILES})


def demo_reference_csv(rows: int = 200, seed: int = 0) -> bytes:
    """``original.csv``: ``rows`` distinct people ``p0001``… with an age, a zipcode, an income."""
    if not 1 <= rows <= 9999:
        raise ValueError(f"rows must be from 1 to 9999, got {rows}")
    generator = random.Random(seed)
    seen: set[tuple[int, int, int]] = set()
    records = []
    while len(records) < rows:
        record = (
            generator.randint(18, 90),
            generator.choice((100, 150, 220, 530, 810)) * 100 + generator.randint(0, 99),
            generator.randint(150, 1500) * 10,
        )
        if record not in seen:  # distinct rows: an un-noised release is fully re-identifiable
            seen.add(record)
            records.append(record)
    return _csv(COLUMNS, [(f"p{i:04d}", *r) for i, r in enumerate(records, start=1)])


def demo_reference_zip(rows: int = 200, seed: int = 0) -> bytes:
    """The round's reference data: a ZIP holding ``original.csv`` (:func:`demo_reference_csv`)."""
    return _zip({"original.csv": demo_reference_csv(rows, seed)})


def demo_release_csv(reference_rows: bytes, *, noise: int, seed: int) -> bytes:
    """A release a team might upload: ``original.csv``'s bytes (``reference_rows``) with each
    number moved by a whole amount drawn from ``-noise`` … ``noise``; same ids, same order."""
    generator = random.Random(seed)
    rows = []
    for record in _records(reference_rows):
        moved = [int(record[c]) + generator.randint(-noise, noise) for c in NUMERIC]
        rows.append((record["id"], *moved))
    return _csv(COLUMNS, rows)


def demo_attack_csv(public_release_csv: bytes, reference_csv: bytes) -> bytes:
    """A guess (``row,id``) of each published row's id: the nearest original row, each
    column's distance divided by its range in the original (ties: the first id)."""
    originals = _records(reference_csv)
    spread = {}
    for column in NUMERIC:
        values = [int(r[column]) for r in originals]
        spread[column] = (max(values) - min(values)) or 1

    def distance(row, original):
        return sum(abs(float(row[c]) - int(original[c])) / spread[c] for c in NUMERIC)

    guesses = []
    for row in _records(public_release_csv):
        nearest = min(originals, key=lambda original: (distance(row, original), original["id"]))
        guesses.append((row["row"], nearest["id"]))
    return _csv(("row", "id"), guesses)


def _records(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def _csv(header, rows) -> bytes:
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return text.getvalue().encode("utf-8")


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in sorted(members.items()):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()
