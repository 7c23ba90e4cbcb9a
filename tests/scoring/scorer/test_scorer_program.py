"""The program's ZIP and metadata, checked when the organizer uploads it."""

import stat
import zipfile

import pytest

from scoring.scorer import ScorerError, UnzipLimits, program_read, program_unpack
from scoring.scorer.program import requirements_check


def _zip(path, members, *, links=()):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        for name in links:
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, "/etc/passwd")
    return path


METADATA = "command: python3 $program/score.py $input $output\n"


@pytest.mark.parametrize(
    ("members", "links", "code"),
    [
        ({"metadata": METADATA, "../evil.py": "x"}, (), "scorer.zip.bad_member"),
        ({"metadata": METADATA, "/abs.py": "x"}, (), "scorer.zip.bad_member"),
        ({"metadata": METADATA, "a\\b.py": "x"}, (), "scorer.zip.bad_member"),
        ({"metadata": METADATA}, ("link",), "scorer.zip.bad_member"),
        ({"metadata": METADATA, "a" * 300 + ".txt": "x"}, (), "scorer.zip.bad_member"),
        ({"metadata": METADATA, "é" * 128 + ".py": "x"}, (), "scorer.zip.bad_member"),
        ({"metadata": METADATA, "/".join(["d" * 200] * 6): "x"}, (), "scorer.zip.bad_member"),
        ({"metadata": METADATA, "bomb.bin": b"\0" * 3_000_000}, (), "scorer.zip.too_large"),
        ({f"f{n}": "x" for n in range(30)}, (), "scorer.zip.too_many"),
        ({"score.py": "x"}, (), "scorer.metadata.missing"),
        ({"metadata": "- a list\n"}, (), "scorer.metadata.invalid"),
        ({"metadata": "command: [1\n"}, (), "scorer.metadata.invalid"),
        ({"metadata": "description: no command\n"}, (), "scorer.metadata.no_commands"),
        ({"metadata": METADATA + "truth_mount: /app/output/t\n"}, (), "scorer.metadata.key"),
        ({"metadata": METADATA + "environment: {LD_PRELOAD: x}\n"}, (), "scorer.metadata.key"),
        ({"metadata": METADATA + "environment: {PATH: /x}\n"}, (), "scorer.metadata.key"),
        ({"metadata": METADATA, "requirements.txt": "numpy\n"}, (), "scorer.requirements.line"),
    ],
    ids=[
        "zip-slip",
        "absolute",
        "backslash",
        "symlink",
        "part-over-255-bytes",
        "part-over-255-bytes-in-utf8",
        "name-over-1024-bytes",
        "bomb",
        "too-many",
        "no-metadata",
        "not-mapping",
        "not-yaml",
        "no-command",
        "truth-in-output",
        "ld-preload",
        "path",
        "unpinned",
    ],
)
def test_a_bad_program_is_refused_with_its_reason(tmp_path, members, links, code):
    archive = _zip(tmp_path / "program.zip", members, links=links)
    limits = UnzipLimits(members=20, total_bytes=1_000_000)
    with pytest.raises(ScorerError) as caught:
        program_unpack(archive, tmp_path / "out", limits=limits)
    assert caught.value.code == code
    assert caught.value.render("ja") != str(caught.value)
    assert not (tmp_path / "evil.py").exists()


def test_a_missing_command_is_named_in_the_readers_words(tmp_path):
    # A metadata with no command at all says which keys to write; a run without its own
    # command names its kind in the reader's language (no English word in a Japanese one).
    with pytest.raises(ScorerError) as caught:
        program_unpack(
            _zip(tmp_path / "none.zip", {"metadata": "comand: python3 x.py\n"}),
            tmp_path / "none",
        )
    japanese = caught.value.render("ja")
    assert "release_command" in japanese and "command または command" not in japanese
    assert "score" not in japanese.replace("scor", "")
    attacks_only = program_unpack(
        _zip(tmp_path / "attack.zip", {"metadata": "attack_command: python3 a.py\n"}),
        tmp_path / "attack",
    )
    for kind, key, english, words in (
        ("release", "release_command", "for releases", "公開データのコマンド"),
        ("ranking", "ranking_command", "no ranking command", "順位付けのコマンド"),
    ):
        with pytest.raises(ScorerError) as caught:
            attacks_only.command(kind)
        assert key in caught.value.render("ja") and words in caught.value.render("ja")
        assert english in caught.value.render("en")
        assert kind not in caught.value.render("ja").replace(key, "")


def test_a_name_too_long_for_the_file_system_is_refused_in_both_languages(tmp_path):
    archive = _zip(tmp_path / "program.zip", {"metadata": METADATA, "a" * 300: "x"})
    with pytest.raises(ScorerError) as caught:
        program_unpack(archive, tmp_path / "out", limits=UnzipLimits())
    assert "a name too long" in str(caught.value)
    assert "名前が長すぎます" in caught.value.render("ja")


def test_the_longest_names_a_file_system_takes_are_unpacked(tmp_path):
    longest = "/".join(["d" * 255] * 3) + "/" + "a" * 252 + ".py"  # 255-byte parts, 1,023 in all
    assert len(longest.encode()) == 1023
    archive = _zip(tmp_path / "program.zip", {"metadata": METADATA, longest: "x"})
    program_unpack(archive, tmp_path / "out", limits=UnzipLimits())
    assert (tmp_path / "out").joinpath(*longest.split("/")).read_text() == "x"


def test_a_zip_of_one_folder_is_read_inside_it_and_keys_are_parsed(tmp_path):
    metadata = (
        METADATA + "attack_command: python3 $program/attack.py\nrequirements: deps.txt\n"
        "primary_key: utility\npublic: release.csv\ndescription: ignored\n"
    )
    members = {"scorer/metadata": metadata, "scorer/deps.txt": "# pinned\nnumpy==2.4.6\n"}
    program = program_unpack(_zip(tmp_path / "p.zip", members), tmp_path / "out")
    assert program.root == tmp_path / "out" / "scorer"
    assert program.command("attack") == "python3 $program/attack.py"
    assert program.requirements == "numpy==2.4.6"
    assert (program.primary_key, program.public, program.truth_mount) == (
        "utility",
        ("release.csv",),
        "/app/truth",
    )


def test_metadata_yaml_is_read_too(tmp_path):
    (tmp_path / "metadata.yaml").write_text(METADATA)
    assert program_read(tmp_path).command("score").startswith("python3")


@pytest.mark.parametrize(
    "line",
    [
        "numpy",
        "numpy>=2",
        "-e .",
        "-r other.txt",
        "--index-url https://evil.example/simple",
        "pkg @ https://evil.example/pkg.whl",
        "./local.whl",
    ],
)
def test_only_pinned_requirements_are_accepted(line):
    with pytest.raises(ScorerError) as caught:
        requirements_check(f"pandas==3.1.1\n{line}\n")
    assert caught.value.code == "scorer.requirements.line" and caught.value.params["line"] == 2


def test_pinned_requirements_with_extras_markers_and_hashes_pass():
    text = "requests[socks]==2.34.2 ; python_version >= '3.9'\nsix==1.17.0 --hash=sha256:ab12\n"
    assert requirements_check(text).count("\n") == 1
