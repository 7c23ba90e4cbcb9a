"""Helpers for the browser tests (import as ``tests.e2e.helpers``)."""

import contextlib
import os
import signal

from tests.support import World, csv_upload, wait_for

PASSWORD = "e2e-password"
SCORING_TIMEOUT = 120  # seconds; the worker scores a 200-row round in about a second


def log_in(page, username: str, password: str = PASSWORD) -> None:
    """Log in through the login form and wait until the home page is shown."""
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.click("form.card button[type=submit]")
    assert page.get_by_test_id("who").inner_text() == username


def switch_language(page, code: str) -> None:
    """Use the header's language buttons; the same page comes back in ``code``."""
    with page.expect_navigation():
        page.get_by_test_id(f"lang-{code}").click()
    page.wait_for_function("code => document.documentElement.lang === code", arg=code)


def submit_anonymization(world: World, letter: str, content: bytes):
    """Create a submission with the service (as the upload view does) and wait for its score."""
    from pwscup.pwscup2015 import services
    from pwscup.pwscup2015.models import AnonymizationSubmission
    from pwscup.submissions.models import Status

    submission = services.anonymization_submission_create(
        phase=world.anonymization,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=csv_upload(content),
    )
    wait_for(
        lambda: AnonymizationSubmission.objects.filter(
            pk=submission.pk, status__in=[Status.FINISHED, Status.FAILED]
        ).exists(),
        timeout=SCORING_TIMEOUT,
        what=f"submission #{submission.pk} to be scored",
    )
    submission.refresh_from_db()
    return submission


@contextlib.contextmanager
def worker_paused(process):
    """Stop the worker (SIGSTOP) so that a new job stays queued, as on a busy platform.

    The worker resumes (SIGCONT) when the block ends, even if the block fails.
    """
    os.kill(process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(process.pid, signal.SIGCONT)


def wait_for_builtin_attacks(world: World) -> None:
    """Wait until the worker has run the built-in attacks on every target of the round."""
    from pwscup.pwscup2015.models import Target
    from pwscup.submissions.models import Status

    wait_for(
        lambda: (
            not Target.objects.filter(round=world.round)
            .exclude(builtin_status=Status.FINISHED)
            .exists()
        ),
        timeout=SCORING_TIMEOUT,
        what="the built-in attacks on every target",
    )
