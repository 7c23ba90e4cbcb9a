"""``PWSCUP_SCORER_SANDBOX``: bubblewrap by default; ``command`` starts every run through the
operator's template (here bubblewrap itself as the "container runtime", with the same
guarantees, tests/scoring/scorer/sandbox_templates.py), and a broken template fails the job
as the platform's fault with a clear message."""

import pytest
from django.test import override_settings

from pwscup.scorer.services.runs import sandbox_launcher
from pwscup.submissions.models import Status
from scoring.scorer import BwrapLauncher, CommandLauncher
from tests.pwscup.scorer_world import release, release_bytes, scorer_world
from tests.scoring.scorer.sandbox_templates import (
    BWRAP_ENV,
    BWRAP_MOUNT_RO,
    BWRAP_MOUNT_RW,
    bwrap_template,
)

pytestmark = pytest.mark.django_db


def command_settings(template: str):
    return override_settings(
        PWSCUP_SCORER_SANDBOX="command",
        PWSCUP_SCORER_SANDBOX_COMMAND=template,
        PWSCUP_SCORER_SANDBOX_MOUNT_RO=BWRAP_MOUNT_RO,
        PWSCUP_SCORER_SANDBOX_MOUNT_RW=BWRAP_MOUNT_RW,
        PWSCUP_SCORER_SANDBOX_ENV=BWRAP_ENV,
    )


def test_bubblewrap_is_the_default():
    assert isinstance(sandbox_launcher(), BwrapLauncher)


def test_a_release_is_scored_through_the_operators_template():
    world = scorer_world(slug="sbx1", letters="a")
    with command_settings(bwrap_template()):
        launcher = sandbox_launcher()
        assert isinstance(launcher, CommandLauncher)
        assert launcher.mount_writable == BWRAP_MOUNT_RW
        scored = release(world, "a", release_bytes(noise=0))
    assert scored.status == Status.FINISHED, scored.message
    assert scored.scores["utility"] == 100.0


def test_a_broken_template_fails_the_job_as_the_platforms_fault():
    world = scorer_world(slug="sbx2", letters="a")
    with command_settings("bwrap {mounts} {unknown} {command}"):
        failed = release(world, "a", release_bytes(noise=0))
    assert failed.status == Status.FAILED
    assert failed.message_code == "scorer.sandbox.template"
    assert "{unknown}" in failed.message
