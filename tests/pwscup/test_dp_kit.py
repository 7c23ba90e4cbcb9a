"""The DP starter kit's README commands in a fresh virtual environment holding only the toolkit
wheel (``tests/pwscup/test_toolkit_wheel.py``'s helpers and its ``kit`` environment, which
installs the same distributions as ``dp``):
``dp check`` gives the server's verdict and message for the same file, ``dp estimate`` builds
from a downloaded release exactly the estimate the level page builds, the practice commands
run, and ``dp score`` gives the server's scores when it is handed the table the server scored
against (the truth is secret: a team cannot run this one on the real round).

Slow (over 20 s on its own, so its module is scheduled first): unless the toolkit's test made
it first in this run, it installs the toolkit's wheel with its ``dp`` extra into a fresh
virtual environment, as a team does.
"""

import io
import json
import re
import shlex
import zipfile

import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.loader import render_to_string
from django.urls import reverse

from pwscup.dp import kit
from pwscup.dp.models import Estimate
from pwscup.dp.services import (
    dp_estimate_check,
    dp_estimate_from_release,
    dp_release_request,
    dp_round_score,
)
from scoring.cli import build_parser
from scoring.dp import load_dp_config, read_estimate, write_estimate
from tests.pwscup.dp_world import build_dp_world, close_now, toy_csv
from tests.pwscup.test_toolkit_wheel import (  # noqa: F401 (module-scoped fixtures)
    in_env,
    toolkit_dp_env,
    wheel,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def readme_commands(readme: str, section: str) -> list[list[str]]:
    """The ``python -m scoring …`` lines of one language's section of the README."""
    start = readme.index(section)
    end = readme.find("\n## ", start + 1)
    text = readme[start : end if end > 0 else None]
    return [
        shlex.split(line.strip())
        for line in text.splitlines()
        if line.startswith("    python -m scoring ")
    ]


def pick(commands, word: str, *, containing: str = "") -> list[str]:
    found = [c for c in commands if c[c.index("dp") + 1] == word]
    found = [c for c in found if containing in " ".join(c)]
    assert found, f"no `dp {word}` command in the README"
    return found[0][1:]  # without "python"


def _upload(client, world, content: bytes) -> Estimate:
    """Upload through the level page's form, then run what the worker runs."""
    address = reverse(
        "dp:estimate_upload", args=[world.competition.slug, world.round.slug, "eps-1"]
    )
    response = client.post(address, {"file": SimpleUploadedFile("estimate.csv", content)})
    assert response.status_code == 302
    estimate = Estimate.objects.filter(dp_round=world.dp_round).order_by("-id").first()
    dp_estimate_check(estimate_id=estimate.pk)
    estimate.refresh_from_db()
    return estimate


def test_the_kit_s_commands_run_with_only_the_wheel_and_agree_with_the_server(
    client,
    tmp_path,
    wheel,  # noqa: F811 (the imported fixture)
    toolkit_dp_env,  # noqa: F811
):
    world = build_dp_world(slug="dpkit")
    client.force_login(world.users["a"])
    kit = client.get(reverse("dp:kit_download", args=[world.competition.slug, world.round.slug]))
    folder = tmp_path / "kit"
    with zipfile.ZipFile(io.BytesIO(b"".join(kit.streaming_content))) as zf:
        zf.extractall(folder)
    assert (folder / wheel.name).read_bytes() == wheel.read_bytes()
    readme = (folder / "README.md").read_text(encoding="utf-8")
    english = readme_commands(readme, "## English")
    japanese = readme_commands(readme, "## 日本語")
    without_lang = [[w for w in c if w not in ("--lang", "ja")] for c in japanese]
    assert english == without_lang and len(english) >= 6  # the same commands in both languages

    # dp check: the server's verdict and message, for the sample and for a broken copy.
    check = pick(english, "check")
    local = in_env(toolkit_dp_env, check, cwd=folder)
    assert local.returncode == 0, local.stderr
    assert "sample_estimate.csv: valid" in local.stdout
    sample = (folder / "sample_estimate.csv").read_bytes()
    assert _upload(client, world, sample).status == Estimate.Status.FINISHED
    (folder / "broken.csv").write_bytes(b"".join(sample.splitlines(keepends=True)[:-1]))
    server = _upload(client, world, (folder / "broken.csv").read_bytes())
    assert server.status == Estimate.Status.FAILED
    for lang in ("en", "ja"):
        args = ["-m", "scoring", "--lang", lang, *check[2:]]
        args[args.index("sample_estimate.csv")] = "broken.csv"
        local = in_env(toolkit_dp_env, args, cwd=folder)
        assert local.returncode == 2
        heading = {"en": "error", "ja": "エラー"}[lang]
        assert local.stderr.strip() == f"{heading}: {server.message_in(lang)}"

    # dp estimate: the level page's BR estimate from the same downloaded release.
    dp_release_request(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
        payload={"groups": [{"attributes": ["gender", "age"], "epsilon": "1"}]},
    )  # fmt: skip
    release = client.get(
        reverse("dp:release_csv", args=[world.competition.slug, world.round.slug, "eps-1", 1])
    )
    (folder / "release.csv").write_bytes(b"".join(release.streaming_content))
    command = pick(english, "estimate", containing="estimate release.csv")
    assert "--groups" in command and "gender+age:epsilon=1" in command
    local = in_env(toolkit_dp_env, command, cwd=folder)
    assert local.returncode == 0, local.stderr
    built = dp_estimate_from_release(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
        charge_no=1, estimator="BR",
    )  # fmt: skip
    config = load_dp_config(folder / "dp_config.json")
    mine = read_estimate(folder / "estimate.csv", config)
    # The same estimator on the same release, to rounding: the toolkit's process and the
    # server's may not add in the same order (OpenBLAS picks its kernels and threads at run
    # time), so the last of 17 digits can differ; any real disagreement is far larger.
    assert mine.keys() == built.counts.keys()
    for key, counts in built.counts.items():
        assert list(mine[key]) == pytest.approx(counts, rel=1e-12, abs=1e-12), key

    # The other documented commands run too (ε of a plan; the practice pipeline).
    for word, containing in (
        ("epsilon", ""),
        ("release", "practice"),
        ("estimate", "practice_release.csv"),
        ("score", "practice"),
    ):
        ran = in_env(toolkit_dp_env, pick(english, word, containing=containing), cwd=folder)
        assert ran.returncode == 0, (word, ran.stderr)
    assert ran.stdout.splitlines()[-1].startswith("mean")

    # dp score: the server's scores of the BR estimate, given the table they were computed on
    # and the server's own estimate (Spearman ranks near-tied cells, so the local estimate's
    # last digits could reorder them: the scorer is compared on the same input). Even on the
    # same input, a dot product may add in another order in another process (OpenBLAS picks
    # its kernel by the arrays' alignment), so the scores agree to rounding.
    close_now(world)
    assert dp_round_score(dp_round=world.dp_round)
    built.refresh_from_db()
    (folder / "hidden.csv").write_bytes(toy_csv())
    server_counts = {key: np.asarray(value) for key, value in built.counts.items()}
    (folder / "server_estimate.csv").write_bytes(write_estimate(server_counts, config))
    local = in_env(
        toolkit_dp_env,
        ["-m", "scoring", "dp", "score", "server_estimate.csv", "--truth", "hidden.csv",
         "--config", "dp_config.json", "--format", "json"],
        cwd=folder,
    )  # fmt: skip
    assert local.returncode == 0, local.stderr
    scores = json.loads(local.stdout)
    close = {"rel": 1e-12, "abs": 1e-12}
    assert scores["l2"] == pytest.approx(built.scores["mean_l2"], **close)
    assert scores["spearman"] == pytest.approx(built.scores["mean_spearman"], **close)
    assert scores["targets"].keys() == built.scores["targets"].keys()
    for target, measures in built.scores["targets"].items():
        assert scores["targets"][target] == pytest.approx(measures, **close), target


# A command line of the README: an indented line, or one in backticks within the text.
README_COMMAND = re.compile(r"^    (python -m scoring .*)$|`(python -m scoring [^`]*)`", re.M)


def test_every_command_of_the_kit_readme_is_one_the_toolkit_accepts(capsys):
    """Every ``python -m scoring …`` of the README, in both languages and with every track's
    section shown, is accepted by the toolkit's own parser; each language shows the command
    for Japanese messages in full (``--lang`` goes before the subcommand: after it, the
    parser refuses it)."""
    world = build_dp_world(slug="dpreadme")
    context = kit._readme_context(world.dp_round, world.teams["a"])
    context.update(uploads=True, batch_platform=True, interactive=True)
    readme = render_to_string("dp/kit/README.md", context)
    for section in ("## English", "## 日本語"):
        start = readme.index(section)
        end = readme.find("\n## ", start + 1)
        text = readme[start : end if end > 0 else None]
        # (``python -m scoring dp`` alone names the commands in the text: not a command line)
        commands = [a or b for a, b in README_COMMAND.findall(text)]
        commands = [c for c in commands if c != "python -m scoring dp"]
        assert len(commands) >= 7, section
        japanese = []
        for command in commands:
            words = shlex.split(command)
            try:
                args = build_parser().parse_args(words[3:])
            except SystemExit as leave:  # --help leaves with 0, a refused command with 2
                assert leave.code == 0, (section, command, capsys.readouterr().err)
                continue
            if args.lang == "ja":
                japanese.append(command)
        assert japanese, f"{section}: no command for Japanese messages"
