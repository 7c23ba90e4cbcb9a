"""The suite waits for the live server's requests before a transactional test's flush
(``tests/conftest.py``, ``_LiveRequests``): a request in a server thread keeps it busy until
it finishes or its thread ends (a client that hung up); the test's own thread is not
counted (the test client's requests)."""

import threading

import pytest

from tests.conftest import _LiveRequests


def request_in_a_thread(tracker: _LiveRequests, *, finishes: bool):
    """A server thread answering a request until ``release`` is set; it then sends
    ``request_finished`` (``finishes``) or ends without it, as after a broken pipe."""
    started, release = threading.Event(), threading.Event()

    def serve():
        tracker.started()
        started.set()
        release.wait(10)
        if finishes:
            tracker.finished()

    thread = threading.Thread(target=serve)
    thread.start()
    started.wait(10)
    return thread, release


@pytest.mark.parametrize("finishes", [True, False], ids=["finished", "hung-up"])
def test_a_request_in_a_server_thread_is_waited_for_until_it_ends(finishes):
    """Until it finishes, or until its thread ends without ``request_finished``."""
    tracker = _LiveRequests()
    thread, release = request_in_a_thread(tracker, finishes=finishes)
    assert not tracker.idle()
    release.set()
    thread.join(10)
    assert tracker.idle()


def test_the_tests_own_thread_is_not_counted():
    tracker = _LiveRequests()
    tracker.started()  # a test client's streamed response may never be closed
    assert tracker.idle()


def test_the_wait_ends_when_the_request_does_and_gives_up_after_its_timeout():
    tracker = _LiveRequests()
    thread, release = request_in_a_thread(tracker, finishes=True)
    assert tracker.wait(timeout=0.1) is False  # still answering: the flush goes on anyway
    threading.Timer(0.2, release.set).start()
    assert tracker.wait(timeout=10) is True
    thread.join(10)
