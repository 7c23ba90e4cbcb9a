"""The demo game's program, run in the real sandbox: releases scored and published, attacks
scored per target and over every target, a bad release refused with what is wrong."""

import csv
import io
import json
import uuid
import zipfile

import pytest

from scoring.scorer import program_unpack, scorer_run
from scoring.scorer.demo import (
    demo_attack_csv,
    demo_program_zip,
    demo_reference_csv,
    demo_reference_zip,
    demo_release_csv,
)

ROWS = 60


@pytest.fixture(scope="module")
def game(sandbox_base, bare_environment):
    """The program unpacked and the reference data, once for the module."""
    top = sandbox_base / f"demo-{uuid.uuid4().hex[:8]}"
    top.mkdir(mode=0o755)
    (top / "program.zip").write_bytes(demo_program_zip())
    program = program_unpack(top / "program.zip", top / "program")
    assert program.requirements == "" and program.primary_key is None
    reference = top / "ref"
    with zipfile.ZipFile(io.BytesIO(demo_reference_zip(ROWS, seed=3))) as archive:
        archive.extractall(reference)
    for path in (reference, *reference.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
    original = (reference / "original.csv").read_bytes()

    def run(kind, name, data, **options):
        """One run of ``kind`` on the upload ``data`` saved as ``name``."""
        folder = top / uuid.uuid4().hex[:8]
        folder.mkdir(mode=0o755)
        upload = folder / name
        upload.write_bytes(data)
        upload.chmod(0o644)
        return scorer_run(
            program,
            environment=bare_environment,
            work=folder / "work",
            kind=kind,
            submission=upload,
            reference=reference,
            **options,
        )

    return {"top": top, "original": original, "run": run}


def _frozen(game, name, release, file_name="release.csv"):
    """A target's folder as the freeze leaves it: the release as uploaded, under the name its
    team gave it."""
    folder = game["top"] / "frozen" / name
    folder.mkdir(parents=True, mode=0o755)
    (game["top"] / "frozen").chmod(0o755)
    (folder / file_name).write_bytes(release)
    (folder / file_name).chmod(0o644)
    return folder


def _ids_in_public_order(public: bytes, release: bytes) -> list[str]:
    """Which id each public row is, found by its values (the test's own reading)."""
    by_values = {}
    for record in csv.DictReader(io.StringIO(release.decode())):
        by_values[(record["age"], record["zipcode"], record["income"])] = record["id"]
    rows = list(csv.DictReader(io.StringIO(public.decode())))
    assert [int(r["row"]) for r in rows] == list(range(1, len(rows) + 1))
    return [by_values[(r["age"], r["zipcode"], r["income"])] for r in rows]


def test_the_helpers_are_deterministic():
    assert demo_program_zip() == demo_program_zip()
    assert demo_reference_zip(50, seed=2) == demo_reference_zip(50, seed=2)
    assert demo_reference_zip(50, seed=2) != demo_reference_zip(50, seed=3)
    reference = demo_reference_csv(50, seed=2)
    lines = reference.decode().splitlines()
    assert lines[0] == "id,age,zipcode,income" and lines[1].startswith("p0001,")
    assert len(set(line.split(",", 1)[1] for line in lines[1:])) == 50  # distinct rows
    noisy = demo_release_csv(reference, noise=5, seed=1)
    assert noisy == demo_release_csv(reference, noise=5, seed=1) != reference
    assert [line.split(",")[0] for line in noisy.decode().splitlines()] == [
        line.split(",")[0] for line in lines
    ]


def test_utility_falls_with_noise_and_the_public_file_hides_the_ids(game):
    utilities = []
    for noise in (0, 3, 30):
        release = demo_release_csv(game["original"], noise=noise, seed=7)
        result = game["run"]("release", "release.csv", release)
        assert (result.status, result.public) == ("ok", ("public/release.csv",)), result.tail
        utilities.append(result.scores["utility"])
        public = (result.output / "public" / "release.csv").read_bytes()
        assert public.decode().splitlines()[0] == "row,age,zipcode,income"
        assert b"p00" not in public
        assert sorted(_ids_in_public_order(public, release)) == sorted(
            r.split(",")[0] for r in release.decode().splitlines()[1:]
        )
    assert utilities[0] == 100.0
    assert 100.0 > utilities[1] > utilities[2]
    assert utilities[1] == round(utilities[1], 4)


def test_the_public_order_depends_only_on_the_content(game):
    release = demo_release_csv(game["original"], noise=2, seed=1)
    first = game["run"]("release", "release.csv", release)
    again = game["run"]("release", "mine.csv", release)  # another name, the same bytes
    publics = [(r.output / "public" / "release.csv").read_bytes() for r in (first, again)]
    assert publics[0] == publics[1]
    order = _ids_in_public_order(publics[0], release)
    assert order != sorted(order)  # shuffled, not in the ids' order
    other = demo_release_csv(game["original"], noise=2, seed=2)
    moved = game["run"]("release", "release.csv", other)
    public = (moved.output / "public" / "release.csv").read_bytes()
    assert _ids_in_public_order(public, other) != order


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("id,age,zipcode,income", "id,age,zip,income"), "the header is"),
        (lambda t: t.replace("p0002,", "q0002,"), "column id, row 2: 'q0002' is not an id"),
        (lambda t: t.replace("p0003,", "p0001,"), "column id, row 3: 'p0001' is given twice"),
        (
            lambda t: "\n".join(t.splitlines()[:-1]) + "\n",
            "the original's id 'p0060' is missing (1 missing in total)",
        ),
        (
            lambda t: t.replace("p0004,", "p0004,9,", 1),
            "row 4 has 5 values",
        ),
        (  # a quote never closed: its cell is the rest of the file, named where it starts
            lambda t: t.replace("p0002,", '"p0002' + "x" * 140_000 + ",", 1),
            "column id, row 2: the cell holds",
        ),
        (  # a cell over the csv module's limit, quoted as it should be
            lambda t: t.replace("p0003,", 'p0003,"' + "9" * 140_000 + '",', 1),
            "column age, row 3: the cell holds 140000 characters; a cell may hold at most 131072",
        ),
    ],
)
def test_a_bad_release_is_refused_with_what_is_wrong(game, edit, message):
    text = demo_release_csv(game["original"], noise=0, seed=0).decode()
    result = game["run"]("release", "release.csv", edit(text).encode())
    assert (result.status, result.code) == ("refused", "scorer.exit"), result.tail
    assert message in result.tail and "refused: release.csv" in result.tail


def test_a_number_that_is_not_one_is_named_by_column_and_row(game):
    result = game["run"]("release", "release.csv", _with_income(game, 5, "lots").encode())
    assert result.status == "refused"
    assert "column income, row 5: 'lots' is not a number" in result.render("en")
    # The program cannot know who reads it: it says it in both languages, column and row in each.
    assert "release.csv: 列 income、5 行目: 'lots' は数値ではありません" in result.render("ja")


def _with_income(game, row: int, value: str) -> str:
    """The unnoised release, ``value`` in the income column of data row ``row``."""
    lines = demo_release_csv(game["original"], noise=0, seed=0).decode().splitlines()
    fields = lines[row].split(",")
    fields[3] = value
    lines[row] = ",".join(fields)
    return "\n".join(lines) + "\n"


def test_a_release_saved_in_shift_jis_is_read_as_such(game):
    # Japanese Excel saves CSV in CP932: the program reads it (and names the cell it refuses).
    result = game["run"]("release", "release.csv", _with_income(game, 5, "不明").encode("cp932"))
    assert result.status == "refused", result.tail
    assert "release.csv: 列 income、5 行目: '不明' は数値ではありません" in result.tail
    plain = demo_release_csv(game["original"], noise=0, seed=0).decode()
    for data in (plain.encode("cp932"), b"\xef\xbb\xbf" + plain.encode()):  # CP932, UTF-8 + BOM
        scored = game["run"]("release", "release.csv", data)
        assert (scored.status, scored.scores) == ("ok", {"utility": 100.0}), scored.tail
    neither = _with_income(game, 5, "X").encode().replace(b"X", b"\x81 ")  # not CP932 either
    refused = game["run"]("release", "release.csv", neither)
    assert "refused: release.csv is neither UTF-8 nor Shift-JIS (CP932)" in refused.tail


def test_a_refusal_names_the_upload_by_its_own_name(game):
    result = game["run"]("release", "my_release.csv", _with_income(game, 5, "lots").encode())
    assert "refused: my_release.csv: column income, row 5" in result.tail
    assert "my_release.csv: 列 income、5 行目" in result.tail
    assert "release.csv:" not in result.tail.replace("my_release.csv:", "")
    release = demo_release_csv(game["original"], noise=0, seed=0)
    target = _frozen(game, "team-n", release)
    guess = game["run"](
        "attack",
        "my_guess.csv",
        b"row,id\n0,p0001\n",
        context={"target": "team-n"},
        targets={"team-n": target},
    )
    assert "refused: my_guess.csv: column row, row 1: '0' is not 1 to" in guess.tail


def test_the_header_is_named_as_the_platform_names_it(game):
    text = demo_release_csv(game["original"], noise=0, seed=0).decode()
    result = game["run"]("release", "release.csv", text.replace("zipcode", "zip", 1).encode())
    assert "release.csv: ヘッダーが 'id,age,zip,income' です" in result.tail, result.tail


def _published(game, release):
    result = game["run"]("release", "release.csv", release)
    assert result.status == "ok", result.tail
    return (result.output / "public" / "release.csv").read_bytes()


def test_a_per_target_attack_on_an_unnoised_release_finds_everyone(game):
    release = demo_release_csv(game["original"], noise=0, seed=0)
    guess = demo_attack_csv(_published(game, release), game["original"])
    target = _frozen(game, "team-a", release)
    result = game["run"](
        "attack", "guess.csv", guess, context={"target": "team-a"}, targets={"team-a": target}
    )
    assert (result.status, result.scores, result.targets) == ("ok", {"reidentified": 1.0}, {})
    # A guess shifted by one row is wrong everywhere.
    rows = guess.decode().splitlines()
    ids = [row.split(",")[1] for row in rows[1:]]
    shifted = ["row,id"] + [f"{i},{ids[i % len(ids)]}" for i in range(1, len(ids) + 1)]
    wrong = game["run"](
        "attack",
        "guess.csv",
        ("\n".join(shifted) + "\n").encode(),
        context={"target": "team-a"},
        targets={"team-a": target},
    )
    assert wrong.scores == {"reidentified": 0.0}


def test_a_release_uploaded_under_another_name_can_be_attacked(game):
    # A team uploads its slot's sample_release.csv as it is: the release command takes the one
    # CSV, and the attacks on it read the same file, kept under that name at the freeze.
    release = demo_release_csv(game["original"], noise=0, seed=0)
    scored = game["run"]("release", "sample_release.csv", release)
    assert scored.status == "ok", scored.tail
    public = (scored.output / "public" / "release.csv").read_bytes()
    guess = demo_attack_csv(public, game["original"])
    target = _frozen(game, "team-s", release, file_name="sample_release.csv")
    result = game["run"](
        "attack", "guess.csv", guess, context={"target": "team-s"}, targets={"team-s": target}
    )
    assert (result.status, result.scores) == ("ok", {"reidentified": 1.0}), result.tail
    covering = io.BytesIO()
    with zipfile.ZipFile(covering, "w") as archive:
        archive.writestr("team-s.csv", guess)
    every = game["run"]("attack", "attack.zip", covering.getvalue(), targets={"team-s": target})
    assert every.targets == {"team-s": {"reidentified": 1.0}}, every.tail


def test_an_all_targets_attack_scores_each_target(game):
    plain = demo_release_csv(game["original"], noise=0, seed=0)
    noisy = demo_release_csv(game["original"], noise=2000, seed=5)
    members = {
        "plain.csv": demo_attack_csv(_published(game, plain), game["original"]),
        "noisy.csv": demo_attack_csv(_published(game, noisy), game["original"]),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    targets = {"plain": _frozen(game, "p2", plain), "noisy": _frozen(game, "n2", noisy)}
    result = game["run"]("attack", "attack.zip", buffer.getvalue(), targets=targets)
    assert result.status == "ok", result.tail
    found = result.targets["noisy"]["reidentified"]
    assert result.targets["plain"] == {"reidentified": 1.0}
    assert 0.0 <= found < 1.0
    assert result.scores == {"reidentified": round((1.0 + found) / 2, 4)}
    assert json.loads((result.output / "scores.json").read_text())["targets"] == result.targets


def test_an_all_targets_attack_missing_a_target_is_refused(game):
    release = demo_release_csv(game["original"], noise=0, seed=0)
    guess = demo_attack_csv(_published(game, release), game["original"])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("one.csv", guess)
    targets = {"one": _frozen(game, "o3", release), "two": _frozen(game, "t3", release)}
    result = game["run"]("attack", "attack.zip", buffer.getvalue(), targets=targets)
    assert result.status == "refused" and "two.csv is missing" in result.tail
    assert "two.csv がありません" in result.tail


def test_a_release_saved_as_utf16_is_told_to_be_saved_as_utf8(game):
    """Excel's "Unicode text" is UTF-16: its bytes happen to decode as CP932 (the byte-order
    mark as private-use characters, every other byte NUL), and the refusal read "the header
    is '\\uf8f3\\uf8f2i\\x00d\\x00…'". The program says what the file is and what to do."""
    plain = demo_release_csv(game["original"], noise=0, seed=0).decode()
    for data in (plain.encode("utf-16"), plain.encode("utf-16-le")):
        refused = game["run"]("release", "release.csv", data)
        assert refused.status == "refused", refused.tail
        assert "refused: release.csv looks like UTF-16 text, not UTF-8" in refused.tail
        assert "save it as UTF-8" in refused.tail and "\\x00" not in refused.tail
        assert "release.csv は UTF-16 のテキストのようです" in refused.tail
