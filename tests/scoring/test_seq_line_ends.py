"""The sequential readers (master, releases, guesses) read every file through
``scoring.tables.read_table``, like the rest of scoring: UTF-8 with or without BOM, CP932,
and ``\\n``, ``\\r\\n`` or CR-only line ends give the same results and the same messages
(row and line numbers included).

The fixtures have CRLF line ends, so each variant is made from their text: replacing
``\n`` by ``\r`` in their bytes would give ``\r\r``, a blank line after every row (then
read, like in every reader, as an empty row: "row 1, column 'gid': ''" on every odd row)."""

import json

import pytest

from scoring.cli import main
from scoring.errors import ValidationError
from scoring.sequential import (
    evaluate_sequence,
    read_guesses,
    read_sequence,
    risk_per_person_csv,
    score_guesses,
)
from tests.scoring.test_seq_cli import F

BOM = b"\xef\xbb\xbf"
VARIANTS = {
    "LF": lambda text: text.encode(),
    "CRLF": lambda text: text.replace("\n", "\r\n").encode(),
    "CR": lambda text: text.replace("\n", "\r").encode(),
    "BOM LF": lambda text: BOM + text.encode(),
    "BOM CRLF": lambda text: BOM + text.replace("\n", "\r\n").encode(),
    "BOM CR": lambda text: BOM + text.replace("\n", "\r").encode(),
    "CP932 CRLF": lambda text: text.replace("\n", "\r\n").encode("cp932"),
    "CP932 CR": lambda text: text.replace("\n", "\r").encode("cp932"),
}
CONFIG = json.loads((F / "zhang_config.json").read_text())


def text(name: str, *, japanese: bool) -> str:
    """A fixture with ``\\n`` line ends; Bob and Emily renamed in Japanese if asked."""
    out = (F / name).read_bytes().decode("utf-8").replace("\r\n", "\n")
    assert "\r" not in out
    if japanese:
        out = out.replace("Bob,", "ボブ,").replace("Emily,", "エミリー,")
    return out


def files(*names: str, japanese: bool, variant: str) -> list[bytes]:
    encoded = [VARIANTS[variant](text(name, japanese=japanese)) for name in names]
    if variant != "LF":
        assert encoded != [VARIANTS["LF"](text(name, japanese=japanese)) for name in names]
    return encoded


def outcome(master: bytes, *releases: bytes) -> tuple:
    """(summary, per-person CSV) of a valid sequence, or the error in English and Japanese."""
    try:
        result = evaluate_sequence(*read_sequence(master, list(releases), CONFIG))
    except ValidationError as error:
        return ("error", str(error), error.render("ja"))
    return (result.summary, risk_per_person_csv(result))


def bad_gid_on_row_5(release: str) -> str:
    lines = release.split("\n")
    lines[5] = "x" + lines[5]
    return "\n".join(lines)


@pytest.mark.parametrize("japanese", [False, True], ids=["ascii", "japanese"])
def test_every_encoding_and_line_end_gives_the_same_results_and_messages(japanese):
    cases = {
        "valid": ("zhang_master.csv", "zhang_release_1.csv", "zhang_release_2_table9.csv"),
        "wrong value": (
            "zhang_master.csv",
            "zhang_release_1.csv",
            "zhang_release_2_table9_as_printed.csv",
        ),
    }
    for case, names in cases.items():
        expected = outcome(*files(*names, japanese=japanese, variant="LF"))
        assert (expected[0] == "error") == (case != "valid"), expected
        for variant in VARIANTS:
            got = outcome(*files(*names, japanese=japanese, variant=variant))
            assert got == expected, (case, variant)
    master = text("zhang_master.csv", japanese=japanese)
    release = bad_gid_on_row_5(text("zhang_release_1.csv", japanese=japanese))
    expected = outcome(VARIANTS["LF"](master), VARIANTS["LF"](release))
    assert "release 1, row 5, column 'gid'" in expected[1]
    for variant, encode in VARIANTS.items():
        assert outcome(encode(master), encode(release)) == expected, variant


def test_guesses_in_every_encoding_and_line_end_score_alike():
    master, releases = read_sequence(
        F / "zhang_master.csv",
        [F / "zhang_release_1.csv", F / "zhang_release_2_table9.csv"],
        CONFIG,
    )
    good = "pid,guess\nBob,dyspepsia\nAlice,flu\nEmily,flu\n"
    bad = "pid,guess\nBob,dyspepsia\nAlice,flu\nZoe,flu\n"
    scores, messages = set(), set()
    for encode in VARIANTS.values():
        scores.add(score_guesses(read_guesses(encode(good), master=master), master))
        with pytest.raises(ValidationError) as error:
            read_guesses(encode(bad), master=master)
        messages.add(str(error.value))
    assert scores == {2 / 16}  # Bob and Emily right, of the 16 persons of U(2)
    assert len(messages) == 1
    assert "line 4" in messages.pop()


def test_the_cli_prints_the_same_for_every_line_end(tmp_path, capsys):
    names = ("zhang_master.csv", "zhang_release_1.csv", "zhang_release_2_table9.csv")
    printed = {}
    for variant in VARIANTS:
        folder = tmp_path / variant.replace(" ", "_")
        folder.mkdir()
        paths = []
        for name, content in zip(names, files(*names, japanese=True, variant=variant), strict=True):
            (folder / name).write_bytes(content)
            paths.append(str(folder / name))
        status = main(["seq", "check", *paths, "--config", str(F / "zhang_config.json")])
        out, err = capsys.readouterr()
        assert status == 0, (variant, err)
        printed[variant] = out
    assert len(set(printed.values())) == 1, printed
    assert "MINV 2 (2-invariant: yes)" in printed["CR"]
