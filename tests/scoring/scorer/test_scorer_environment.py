"""The program's environment: built once per requirements, reused unchanged, built offline
here from a wheel the test makes (no index is reached)."""

import base64
import hashlib
import zipfile

import pytest

from scoring.scorer import EnvironmentBuildError, environment_ensure, scorer_run
from scoring.scorer.environment import READY


def _wheel(folder, name="tinyscore", version="1.0"):
    """A minimal pure-Python wheel: one module, its METADATA, WHEEL and RECORD."""
    info = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": "def double(x):\n    return 2 * x\n",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{path},sha256={digest.decode()},{len(text.encode())}")
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    path = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in files.items():
            archive.writestr(member, text)
    return path


def test_the_environment_of_no_requirements_is_built_once_and_reused(sandbox_base):
    cache = sandbox_base / "envs-reuse"
    first = environment_ensure("", cache=cache)
    ready = (first.path / READY).stat().st_mtime_ns
    second = environment_ensure("", cache=cache)
    assert (first.built, second.built) == (True, False)
    assert second.path == first.path and (second.path / READY).stat().st_mtime_ns == ready
    assert (first.path / "bin" / "python").exists()


def test_pinned_requirements_are_installed_offline_and_importable_in_the_sandbox(
    sandbox_base, make_program, place, fast_limits
):
    wheels = place / "wheels"
    wheels.mkdir()
    _wheel(wheels)
    options = ["--no-index", "--find-links", str(wheels)]
    cache = sandbox_base / "envs-wheel"
    environment = environment_ensure("tinyscore==1.0", cache=cache, pip_options=options)
    assert environment.built and "tinyscore" in environment.log
    again = environment_ensure("tinyscore==1.0", cache=cache, pip_options=options)
    assert not again.built and again.key == environment.key
    program = make_program(
        "import json, sys, tinyscore\n"
        'json.dump({"score": tinyscore.double(21)}, open(sys.argv[2] + "/scores.json", "w"))\n'
    )
    result = scorer_run(program, environment=environment, work=place / "work", limits=fast_limits)
    assert (result.status, result.scores) == ("ok", {"score": 42})


def test_a_failed_build_keeps_its_log_and_leaves_nothing(sandbox_base, place):
    cache = sandbox_base / "envs-fail"
    options = ["--no-index", "--find-links", str(place)]
    with pytest.raises(EnvironmentBuildError) as caught:
        environment_ensure("not-a-package==9.9", cache=cache, pip_options=options)
    error = caught.value
    assert error.code == "scorer.build.failed" and error.params["status"] != 0
    assert "not-a-package" in error.log and "$ " in error.log
    assert "環境を構築できませんでした" in error.render("ja")
    assert [p for p in cache.iterdir() if p.is_dir()] == []
