"""The participants' toolkit (``pwscup/core/toolkit.py``): one wheel with the scorers, the
starter kit's methods and the team client, needing none of the server's dependencies.
Installed alone in a fresh virtual environment, the starter kit's own scripts run and the
scores computed there are exactly the server's.

Slow (over 20 s on its own, so its module is scheduled first): it builds the toolkit's wheel
and installs it into two fresh virtual environments (alone, and with ``kit``, which
``test_dp_kit.py``'s ``dp`` shares: the same distributions), as a team does, from the
package index.
"""

import ast
import email
import fcntl
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from pwscup.core import toolkit
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission
from pwscup.submissions.models import Status
from tests.pwscup import seq_web_world as seq
from tests.pwscup.factories import freeze, score, score_attack, scored
from tests.support import build_world, csv_upload

pytestmark = pytest.mark.slow

JSON = {"HTTP_ACCEPT": "application/json"}
METRICS = {"U1", "U2", "U3", "U4", "U5", "U6", "S1", "S2", "E1", "E2", "E3", "E4", "EUC1", "EUC2"}
SERVER_ONLY = {"django", "celery", "gunicorn", "psycopg", "redis", "djangorestframework"}


@pytest.fixture(scope="module")
def wheel() -> Path:
    """The wheel the site serves and the kits hold (built once for these sources)."""
    return toolkit.toolkit_wheel(settings.PWSCUP_TOOLKIT_DIR)


def fresh_toolkit_env(
    wheel: Path, where: Path, extra: str | None = None, *, compiled: bool = True
) -> dict:
    """A fresh virtual environment at ``where`` with only the wheel installed (and what it
    requires), with its ``extra`` if given, as a round's pages tell a team to install it.
    ``compiled=False`` leaves the packages' bytecode to be written when a module is first
    imported (pip's ``--no-compile``): the same code runs, and the install costs a third of
    the CPU (byte-compiling numpy, pandas and scipy whole is most of it); it also leaves
    pip out of the environment, installing with the test run's pip into it (pip's
    ``--python``: the same resolver and index, without ensurepip's 3.5 s of CPU), as the
    kit's commands never call pip. The environment whose size is measured is compiled and
    holds its own pip, as a team's does."""
    venv.EnvBuilder(with_pip=compiled).create(where)
    python = where / "bin" / "python"
    argument = str(wheel) if extra is None else f"{wheel}[{extra}]"
    pip = (
        [str(python), "-m", "pip"]
        if compiled
        else [sys.executable, "-m", "pip", "--python", str(python)]
    )
    installed = subprocess.run(
        pip + ["install", "--quiet"] + ([] if compiled else ["--no-compile"]) + [argument],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    return {"python": python, "bin": where / "bin", "root": where}


@pytest.fixture(scope="module")
def toolkit_env(wheel, tmp_path_factory) -> dict:
    """The wheel alone, none of its extras."""
    return fresh_toolkit_env(wheel, tmp_path_factory.mktemp("toolkit") / "env")


def shared_toolkit_env(wheel: Path, tmp_path_factory, extra: str) -> dict:
    """The wheel with ``extra``, built once per run for every test process: under a lock in
    the run's shared temporary folder (xdist's processes share its parent), keyed by the
    wheel's contents and the distributions the extra installs, so two extras that install
    the same ones (``kit`` and ``dp``: scipy) are one environment, and the second module
    that needs it does not install scipy, numpy and pandas again (about a minute of CPU).
    The tests only run commands in it, each from a folder of its own."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    digest = hashlib.sha256(wheel.read_bytes())
    digest.update(repr(sorted(toolkit.EXTRAS[extra])).encode())
    where = root / f"toolkit-env-{digest.hexdigest()[:16]}"
    with open(f"{where}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (where / ".built").exists():
            shutil.rmtree(where, ignore_errors=True)
            fresh_toolkit_env(wheel, where, extra, compiled=False)
            (where / ".built").touch()
    return {"python": where / "bin" / "python", "bin": where / "bin", "root": where}


@pytest.fixture(scope="module")
def toolkit_kit_env(wheel, tmp_path_factory) -> dict:
    """The wheel with its ``kit`` extra: the anonymize-and-attack kit's README installs it."""
    return shared_toolkit_env(wheel, tmp_path_factory, "kit")


@pytest.fixture(scope="module")
def toolkit_dp_env(wheel, tmp_path_factory) -> dict:
    """The wheel with its ``dp`` extra: the DP round's kit README installs it (the same
    distributions as ``kit``'s, so the same environment: ``shared_toolkit_env``)."""
    return shared_toolkit_env(wheel, tmp_path_factory, "dp")


def clean_env(toolkit_env, home) -> dict:
    """The toolkit's environment only: no PYTHONPATH, nothing of the repository."""
    return {
        "PATH": f"{toolkit_env['bin']}{os.pathsep}/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
    }


def in_env(toolkit_env, args, *, cwd) -> subprocess.CompletedProcess:
    """Run ``python args`` in the toolkit's environment, from ``cwd`` (outside the repository)."""
    return subprocess.run(
        [str(toolkit_env["python"]), *args],
        cwd=cwd,
        env=clean_env(toolkit_env, cwd),
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_wheel_requires_only_what_scoring_imports_at_the_platform_s_pins(wheel):
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        metadata_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(zf.read(metadata_name))
    assert metadata["Name"] == toolkit.DISTRIBUTION
    assert metadata["Version"] == toolkit.platform_metadata()["version"]
    requires = metadata.get_all("Requires-Dist")
    assert [r for r in requires if "extra ==" not in r] == toolkit.toolkit_dependencies()
    # The accelerators are extras (pip install 'pwscup_toolkit-….whl[fast]'), at the pins.
    assert metadata.get_all("Provides-Extra") == list(toolkit.EXTRAS)
    for extra, pins in toolkit.toolkit_extras().items():
        marked = [r.split(";")[0].strip() for r in requires if f'extra == "{extra}"' in r]
        assert marked == pins, extra
    required = {toolkit._name(r) for r in requires}
    assert not required & SERVER_ONLY
    assert "scoring/__init__.py" in names and "pwscup/client/cli.py" in names
    # Nothing of the server: only the package marker and the client of pwscup/.
    assert {n for n in names if n.startswith("pwscup/")} == {
        "pwscup/__init__.py",
        *(n for n in names if n.startswith("pwscup/client/")),
    }


def test_scoring_imports_nothing_the_toolkit_does_not_require():
    """The lists ``REQUIRED`` and ``EXTRAS`` are scoring's third-party imports: a new import
    without a new entry would give a wheel that fails on a participant's machine. An extra's
    module is imported through ``scoring.extras.optional(module, extra=...)``, whose extra
    must install that module's distribution."""
    modules = {
        "charset_normalizer": "charset-normalizer",
        "sklearn": "scikit-learn",
        "yaml": "pyyaml",
    }
    imported, optional = set(), []
    for path in Path(toolkit.ROOT, "scoring").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
            elif (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "optional"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                extra = next(k.value.value for k in node.keywords if k.arg == "extra")
                optional.append((path.name, node.args[0].value.split(".")[0], extra))
    assert {module for _, module, _ in optional} == {
        "scipy",
        "sklearn",
        "opendp",
        "yaml",
        "simpleeval",
    }
    for where, module, extra in optional:
        assert modules.get(module, module) in toolkit.EXTRAS[extra], (where, module, extra)
    third_party = (
        (imported | {module for _, module, _ in optional})
        - set(sys.stdlib_module_names)
        - {"scoring", "__future__"}
    )
    assert {modules.get(name, name) for name in third_party} == set(toolkit.NEEDS)
    # Required: only what the anonymize-and-attack and sequential scores need.
    assert set(toolkit.REQUIRED) == {"numpy", "pandas", "charset-normalizer"}


def test_the_site_serves_the_wheel_under_the_platform_s_version(client, wheel):
    url = reverse("toolkit_download", args=[toolkit.wheel_filename()])
    response = client.get(url)  # public: no login
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == wheel.read_bytes()
    stale = reverse("toolkit_download", args=["pwscup_toolkit-0.0.1-py3-none-any.whl"])
    assert client.get(stale).status_code == 404


@pytest.mark.django_db
def test_a_fresh_venv_with_only_the_wheel_reproduces_the_server_s_14_scores(
    client, tmp_path, wheel, toolkit_env, toolkit_kit_env
):
    # Neither the server nor the extras: the scores below come from the slow paths (numpy
    # blocks for the nearest rows, the checking reader), the server's from numba and Arrow.
    modules = ("django", "celery", "psycopg", "numba", "pyarrow", "opendp", "scipy", "sklearn")
    for module in modules:
        missing = in_env(toolkit_env, ["-c", f"import {module}"], cwd=tmp_path)
        assert missing.returncode != 0, f"{module} is installed in the toolkit's environment"
    assert in_env(toolkit_env, ["-m", "pwscup.client", "--help"], cwd=tmp_path).returncode == 0

    world = build_world()
    client.force_login(world.users["a"])
    kit = reverse("kit_download", args=[world.competition.slug, world.round.slug])
    folder = tmp_path / "kit"
    with zipfile.ZipFile(io.BytesIO(b"".join(client.get(kit).streaming_content))) as zf:
        zf.extractall(folder)
    assert (folder / wheel.name).read_bytes() == wheel.read_bytes()
    readme = (folder / "README.md").read_text(encoding="utf-8")
    # The kit's attack example needs the kit extra (scipy), so its README installs it.
    assert f'pip install "{wheel.name}[kit]"' in readme and "pip install -e" not in readme

    made = in_env(toolkit_env, ["anonymize_example.py"], cwd=folder)
    assert made.returncode == 0, made.stderr
    local = in_env(
        toolkit_env,
        [
            "-m",
            "scoring",
            "evaluate",
            "r1_original.csv",
            "anonymized.csv",
            "--config",
            "r1_config.json",
            "--format",
            "json",
        ],
        cwd=folder,
    )
    assert local.returncode == 0, local.stderr
    local_scores = json.loads(local.stdout)

    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    upload = csv_upload((folder / "anonymized.csv").read_bytes(), "anonymized.csv")
    response = client.post(url, {"file": upload}, **JSON)
    assert response.status_code == 202, response.content
    submission = score(AnonymizationSubmission.objects.get(pk=response.json()["id"]))
    assert submission.status == Status.FINISHED, submission.message
    assert METRICS <= set(submission.scores)
    assert {m: local_scores[m] for m in METRICS} == {m: submission.scores[m] for m in METRICS}
    # The reference attack beside them (no numba, no scipy here): the server's number too.
    assert local_scores["REF"] == submission.scores["REF"]

    # The attack side: the kit's attack script runs in the same environment and its answer
    # scores on the server (its rate needs the target's secret truth: never computed locally).
    scored(world, "b", seed=2)
    targets = freeze(world)
    folder = tmp_path / "attack"
    with zipfile.ZipFile(io.BytesIO(b"".join(client.get(kit).streaming_content))) as zf:
        zf.extractall(folder)
    # Without the extra, the attack says which extra to install (not a bare import error).
    refused = in_env(toolkit_env, ["attack_example.py"], cwd=folder)
    assert refused.returncode != 0
    assert "MissingExtra" in refused.stderr and "ModuleNotFoundError" not in refused.stderr
    assert f'pip install "pwscup_toolkit-{toolkit.platform_metadata()["version"]}' in refused.stderr
    assert '-py3-none-any.whl[kit]"' in refused.stderr
    attacked = in_env(toolkit_kit_env, ["attack_example.py"], cwd=folder)
    assert attacked.returncode == 0, attacked.stderr
    answer = (folder / "answers" / "teamB_answer.csv").read_bytes()
    url = reverse("attack_upload", args=[world.competition.slug, world.round.slug])
    response = client.post(
        url, {"target": str(targets["b"].pk), "file": csv_upload(answer, "answer.csv")}, **JSON
    )
    assert response.status_code == 202, response.content
    attack = score_attack(AttackSubmission.objects.get(pk=response.json()["id"]))
    assert attack.status == Status.FINISHED, attack.message
    assert attack.correct > 0


@pytest.mark.django_db
def test_the_sequential_page_s_command_and_kit_give_the_stored_numbers_with_only_the_wheel(
    client, tmp_path, toolkit_env
):
    world = seq.seq_world()
    client.force_login(world.users["a"])
    release = seq.publish(world, "a", 1, seq.fixture("zhang_release_1.csv"))
    assert release.status == release.Status.FINISHED, release.message
    command = seq.page_command(client, world)
    files = seq.downloads(client, world, {1: release})
    local, per_person = seq.run(
        command,
        files,
        tmp_path / "release1",
        python=toolkit_env["python"],
        env=clean_env(toolkit_env, tmp_path),
    )
    seq.assert_same(local, release.results)
    risk = client.get(seq.url(world, "sequential:release_risk", release.pk)).content.decode()
    assert per_person == risk

    # The starter kit in the same environment: its README's baseline command writes exactly
    # the Data tab's sample (release 2, on the frozen release 1), the server accepts it, and
    # the README's check command prints the numbers the server stored.
    seq.freeze(world)
    second = seq.kit_round_trip(
        client,
        world,
        "a",
        tmp_path / "kit",
        python=toolkit_env["python"],
        env=clean_env(toolkit_env, tmp_path),
    )
    assert second.step == 2


def site_packages_megabytes(env: dict) -> float:
    """What the environment's installed packages take on disk (the venv's lib folder)."""
    files = (p for p in Path(env["root"], "lib").rglob("*") if p.is_file() and not p.is_symlink())
    return sum(p.stat().st_size for p in files) / 2**20


def test_the_wheel_alone_is_light_and_names_the_extra_a_game_needs(tmp_path, toolkit_env):
    # issue 38: a fresh environment with the wheel alone holds at most 250 MB.
    assert site_packages_megabytes(toolkit_env) <= 250
    # Each game's code that needs an extra says which one, in the reader's language (the
    # kit's: test_a_fresh_venv_with_only_the_wheel_reproduces_the_server_s_14_scores).
    calls = {
        "dp": "from scoring.dp.utility import spearman; spearman([1, 2, 3], [3, 1, 2])",
        "synthetic": "from scoring.synthetic.attack import attack_scores; "
        "attack_scores([0, 1], [0.2, 0.7], fpr_levels=[0.1])",
    }
    for extra, call in calls.items():
        program = (
            "from scoring.extras import MissingExtra\n"
            f"try:\n    {call}\n"
            "except MissingExtra as error:\n"
            "    print(error.render('en')); print(error.render('ja'))\n"
        )
        ran = in_env(toolkit_env, ["-c", program], cwd=tmp_path)
        assert ran.returncode == 0, ran.stderr
        english, japanese = ran.stdout.splitlines()
        hint = f"pip install {toolkit.install_argument(extra)}"  # the pages' own command
        assert english.startswith("This command needs ") and english.endswith(hint), english
        assert japanese.startswith("このコマンドには ") and japanese.endswith(hint), japanese
    # The command line imports every game's commands without the extras.
    assert in_env(toolkit_env, ["-m", "scoring", "synth", "--help"], cwd=tmp_path).returncode == 0
    assert in_env(toolkit_env, ["-m", "scoring", "dp", "--help"], cwd=tmp_path).returncode == 0
