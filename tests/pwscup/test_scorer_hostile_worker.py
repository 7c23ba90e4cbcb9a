"""Hostile scoring programs through the round kind, on a real Celery worker and the real
sandbox: each upload they score ends FAILED with a clear message in the reader's language,
kept as uploaded; the worker lives on and scores the next upload with a sound program; and a
refused upload costs no quota (the phase's daily limit of one is still free after them all).

The library's own tests (tests/scoring/scorer/test_scorer_hostile.py) show what the sandbox
holds in detail; this module shows the platform around it."""

import time

import pytest
from django.utils import translation

from pwscup.core.errors import Refused
from pwscup.scorer import services
from pwscup.scorer.models import ProgramVersion, Release
from pwscup.submissions.messages import job_message_text
from scoring.scorer.demo import demo_program_zip
from tests.pwscup.scorer_world import CONFIG, release_bytes, scorer_world, upload_file, zipped

pytestmark = pytest.mark.django_db(transaction=True)

LIMITS = {"timeout_seconds": 3, "memory_mb": 256, "processes": 16}
SCORES = "import json, sys; json.dump({SCORES}, open('/app/output/scores.json', 'w'))"
# Each program's body and the message code its upload must end with.
HOSTILE = {
    "loops": ("while True:\n    pass\n", "scorer.timeout"),
    "allocates 10 GB": ("x = bytearray(10 * 1024**3)\n", "scorer.memory"),
    "forks without end": (
        "import os, time\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n"
        "        time.sleep(0.01)\n",
        "scorer.timeout",
    ),
    "opens a socket": (
        "import socket\nsocket.create_connection(('127.0.0.1', 6379), timeout=2)\n",
        "scorer.exit",
    ),
    "reads /etc/passwd": ("print(open('/etc/passwd').read())\n", "scorer.exit"),
    "prints without end": (
        "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n",
        "scorer.printed_too_much",
    ),
    "writes no JSON": (
        "open('/app/output/scores.json', 'w').write('{utility: 1')\n",
        "scorer.scores.json",
    ),
    "writes NaN": (SCORES.replace("{SCORES}", "{'utility': float('nan')}"), "scorer.scores.json"),
    "misses the primary score": (
        SCORES.replace("{SCORES}", "{'other': 1}"),
        "scorer.scores.primary",
    ),
    "exits non-zero": (
        "import sys\nprint('bad release', file=sys.stderr)\nsys.exit(3)\n",
        "scorer.exit",
    ),
}


def _program(body: str) -> bytes:
    return zipped(
        {"metadata": b"command: python3 $program/score.py\n", "score.py": body.encode("utf-8")}
    )


def _wait(model, pk: int, seconds: float = 120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        row = model.objects.get(pk=pk)
        if not row.is_pending:
            return row
        time.sleep(0.1)
    raise AssertionError(f"{model.__name__} {pk} still {row.status} after {seconds} s")


def _version(world, data: bytes) -> ProgramVersion:
    version = services.program_upload(
        scorer=world.scorer,
        uploaded_file=upload_file(data, "program.zip", "application/zip"),
        user=world.organizer,
    )
    built = _wait(ProgramVersion, version.pk)
    assert built.status == ProgramVersion.Status.FINISHED, built.message
    return built


def _release(world, content: bytes) -> Release:
    world.scorer.refresh_from_db()
    kept = services.release_upload(
        scorer=world.scorer,
        team=world.teams["a"],
        user=world.users["a"],
        uploaded_file=upload_file(content, "release.csv"),
    )
    return _wait(Release, kept.pk)


def test_hostile_programs_end_as_messages_and_the_worker_lives_on(celery_worker_process):
    """Ten programs, each scoring one upload on the worker; the loop and the fork bomb wait
    for the 3-second limit."""
    world = scorer_world(
        slug="hostile",
        letters="a",
        config={**CONFIG, "limits": LIMITS},
        release_limits=(1, None),
        build=False,
    )
    content = release_bytes(noise=3)
    for what, (body, code) in HOSTILE.items():
        _version(world, _program(body))
        refused = _release(world, content)
        assert refused.status == Release.Status.FAILED, what
        assert refused.message_code == code, (what, refused.message_code, refused.message)
        with translation.override("ja"):
            assert job_message_text(refused) != refused.message, what  # ours, in Japanese
        assert refused.file.size == len(content), what  # kept as uploaded
    # The same worker, a sound program: the next upload is scored, and it is the first that
    # counts against the daily limit of one.
    _version(world, demo_program_zip())
    scored = _release(world, content)
    assert scored.status == Release.Status.FINISHED, scored.message
    assert 0 < scored.scores["utility"] < 100
    with pytest.raises(Refused) as refusal:
        _release(world, content)
    assert refusal.value.status == 429
