"""Programs that work: a Codabench program runs unchanged, with our optional additions
(context.json, targets, public/, several commands, variables, the hidden truth)."""

import inspect
import json
import zipfile

import pytest

from scoring.scorer import ScorerError, program_unpack, substitute
from scoring.scorer.upload_layout import upload_lay_out

CODABENCH_SCORE = """
import json, os, sys
input_dir, output_dir = sys.argv[1], sys.argv[2]
submitted = open(os.path.join(input_dir, "res", "answer.csv")).read().split()
truth = open(os.path.join(input_dir, "ref", "truth.csv")).read().split()
right = sum(a == b for a, b in zip(submitted, truth))
scores = {"accuracy": right / len(truth), "tricky": 0.1 + 0.2, "third": 1 / 3,
          "tiny": 1e-300, "big": 2**53 + 1}
with open(os.path.join(output_dir, "scores.json"), "w") as f:
    json.dump(scores, f)
with open(os.path.join(output_dir, "detailed_results.html"), "w") as f:
    f.write("<h1>%d of %d</h1>" % (right, len(truth)))
"""


def _zip(path, members):
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return path


@pytest.fixture
def reference(place):
    folder = place / "ref"
    folder.mkdir(mode=0o755)
    (folder / "truth.csv").write_text("a\nb\nc\n")
    return folder


def test_a_codabench_program_zip_scores_a_submission_to_the_last_digit(
    place, reference, run_program
):
    archive = _zip(
        place / "program.zip",
        {
            "metadata": "command: python3 $program/score.py $input $output\n",
            "score.py": CODABENCH_SCORE,
        },
    )
    program = program_unpack(archive, place / "unpacked")
    submission = place / "answer.csv"
    submission.write_text("a\nx\nc\n")
    result = run_program(
        program, submission=submission, reference=reference, primary_key="accuracy"
    )
    assert (result.status, result.code) == ("ok", "scorer.ok")
    assert result.scores == {
        "accuracy": 2 / 3,
        "tricky": 0.1 + 0.2,
        "third": 1 / 3,
        "tiny": 1e-300,
        "big": 2**53 + 1,
    }
    assert result.detailed_html == b"<h1>2 of 3</h1>"
    assert result.program_seconds > 0 and result.platform_seconds >= 0


def test_a_zip_submission_is_unzipped_into_res(make_program, run_program, place):
    program = make_program(
        """
        import json, os, sys
        names = sorted(os.listdir(sys.argv[1] + "/res"))
        print(names)
        json.dump({"files": len(names)}, open(sys.argv[2] + "/scores.json", "w"))
        """
    )
    submission = _zip(place / "sub.zip", {"answer.csv": "a\n", "extra/notes.txt": "x"})
    result = run_program(program, submission=submission)
    assert result.scores == {"files": 2} and "['answer.csv', 'extra']" in result.tail


def test_a_zip_slip_submission_is_refused_before_anything_runs(make_program, run_program, place):
    submission = _zip(place / "sub.zip", {"../../escape.txt": "x"})
    result = run_program(make_program("raise SystemExit(9)\n"), submission=submission)
    assert (result.status, result.code) == ("refused", "scorer.zip.bad_member")
    assert "親フォルダー" in result.render("ja")


def test_context_targets_and_public_files(make_program, run_program):
    program = make_program(
        """
        import json, os, sys
        context = json.load(open(sys.argv[1] + "/context.json"))
        os.makedirs(sys.argv[2] + "/public/tables")
        open(sys.argv[2] + "/public/tables/release.csv", "w").write("a,b\\n")
        open(sys.argv[2] + "/private.csv", "w").write("secret\\n")
        targets = {team: {"rate": 0.25 * n} for n, team in enumerate(context["targets"])}
        json.dump({"mean": 0.125, "targets": targets}, open(sys.argv[2] + "/scores.json", "w"))
        """
    )
    context = {"team": "red", "slot": 1, "phase": "attack", "targets": ["blue", "green"]}
    result = run_program(program, context=context, primary_key="mean")
    assert result.status == "ok"
    assert result.scores == {"mean": 0.125}
    assert result.targets == {"blue": {"rate": 0.0}, "green": {"rate": 0.25}}
    assert result.public == ("public/tables/release.csv",)


def test_without_a_public_folder_the_files_the_metadata_names_are_public(make_program, run_program):
    metadata = "command: python3 $program/score.py $input $output\npublic: [release.csv]\n"
    script = """
        import json, sys
        open(sys.argv[2] + "/release.csv", "w").write("x\\n")
        json.dump({"score": 1}, open(sys.argv[2] + "/scores.json", "w"))
        """
    result = run_program(make_program(script, metadata=metadata))
    assert (result.status, result.public) == ("ok", ("release.csv",))


def test_a_named_public_file_that_is_missing_is_refused(make_program, run_program):
    metadata = "command: python3 $program/score.py $input $output\npublic: [release.csv]\n"
    script = 'import json, sys\njson.dump({"score": 1}, open(sys.argv[2] + "/scores.json", "w"))\n'
    result = run_program(make_program(script, metadata=metadata))
    assert (result.status, result.code) == ("refused", "scorer.public.missing")


def test_each_kind_runs_its_command_and_variables_and_truth_are_given(
    make_program, run_program, place
):
    metadata = """
command: python3 $program/score.py score
release_command: python3 $program/score.py release
environment: {ROUND_NAME: final, SEED: 7}
truth_mount: /app/input/truth
"""
    script = """
        import json, os, sys
        truth = open("/app/input/truth/secret.csv").read().strip()
        scores = {"is_" + sys.argv[1]: 1, "seed": int(os.environ["SEED"]), "truth": int(truth)}
        print(os.environ["ROUND_NAME"], os.getcwd())
        json.dump(scores, open("/app/output/scores.json", "w"))
        """
    truth = place / "truth"
    truth.mkdir(mode=0o755)
    (truth / "secret.csv").write_text("42\n")
    program = make_program(script, metadata=metadata)
    release = run_program(program, kind="release", truth=truth)
    assert release.scores == {"is_release": 1, "seed": 7, "truth": 42}
    assert "final /app/program" in release.tail
    with pytest.raises(ScorerError, match="ranking"):
        program.command("ranking")
    assert program.command("attack") == program.command("score")  # falls back to command


def test_codabench_placeholders_are_substituted():
    assert substitute("python $program/s.py $input/res ${output} $shared $programs") == (
        "python /app/program/s.py /app/input/res /app/output /app/shared $programs"
    )


def test_the_result_renders_its_message_in_both_languages(make_program, run_program):
    result = run_program(make_program("import sys\nprint('bad row 3')\nsys.exit(1)\n"))
    assert result.render("en").startswith(
        "The scoring program refused the submission (exit status 1)"
    )
    assert result.render("ja").endswith("bad row 3")
    assert json.dumps(result.params)  # stored as JSON by the platform


def test_a_refusal_on_one_long_line_keeps_its_reason(make_program, run_program):
    """A reason followed by 10,000 column names on its line (a pandas error on a wide
    file): the message keeps the line's start, the reason, and its end."""
    program = make_program(
        "import sys\n"
        "print('refused: unknown columns ' + ','.join(f'col{i}' for i in range(10_000)))\n"
        "sys.exit(1)\n"
    )
    result = run_program(program)
    assert result.code == "scorer.exit"
    shown = result.params["tail"]
    assert shown.startswith("refused: unknown columns col0,col1,") and shown.endswith("col9999")
    assert " … " in shown and len(shown) < 600
    assert "refused: unknown columns" in result.render("ja")


def test_a_submission_that_cannot_be_read_is_refused_by_name(make_program, run_program, place):
    result = run_program(make_program("raise SystemExit(0)\n"), submission=place / "absent.csv")
    assert (result.status, result.code) == ("refused", "scorer.submission.unreadable")


def _listing(root):
    """Every path under ``root`` with its mode and, for a file, its text: the layout."""
    import os

    found = []
    for folder, _folders, files in os.walk(root):
        for path in [folder, *(os.path.join(folder, name) for name in files)]:
            text = open(path).read() if os.path.isfile(path) else None
            found.append([os.path.relpath(path, root), oct(os.stat(path).st_mode & 0o777), text])
    return sorted(found)


LISTING_SCORE = f"""
import json, sys
{inspect.getsource(_listing)}
with open(sys.argv[2] + "/detailed_results.html", "w") as out:
    json.dump(_listing(sys.argv[1] + "/res"), out)
json.dump({{"files": 1}}, open(sys.argv[2] + "/scores.json", "w"))
"""


def _with_a_program(path):
    """A ZIP whose members are a CSV, a nested note and a script its team made executable."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("answer.csv", "a\n")
        archive.writestr("extra/notes.txt", "x")
        script = zipfile.ZipInfo("bin/run.sh")
        script.external_attr = 0o100755 << 16
        archive.writestr(script, "#!/bin/sh\necho ok\n")
    return path


@pytest.mark.parametrize("upload", ["sub.zip", "answer.csv"])
def test_the_run_s_own_upload_is_laid_out_as_every_other_upload(
    make_program, run_program, place, upload
):
    # ``res/`` and an attack's or a target's folder are one layout (``upload_lay_out``): a
    # program reading both finds the same files with the same modes.
    submission = place / upload
    if upload.endswith(".zip"):
        _with_a_program(submission)
    else:
        submission.write_text("a\nb\n")
    result = run_program(make_program(LISTING_SCORE), submission=submission)
    assert (result.status, result.code) == ("ok", "scorer.ok"), result.tail
    laid_out = upload_lay_out(submission, name=submission.name, into=place / "laid_out")
    assert json.loads(result.detailed_html) == _listing(laid_out)
    assert len(_listing(laid_out)) == (6 if upload.endswith(".zip") else 2)
