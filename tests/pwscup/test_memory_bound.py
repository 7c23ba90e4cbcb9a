"""A job's memory is bounded: past the bound it fails with a message, the host lives on.

Field test 4: one 1 MB synthetic release took a worker to 17.6 GB before the kernel killed
it. Every pool process of a worker bounds its address space
(``pwscup/submissions/limits.py``); an allocation past it is a ``MemoryError`` in the job,
which fails with "job.memory_limit" in the reader's language. Past Celery's soft time limit
(``celery.exceptions.SoftTimeLimitExceeded``, told by its class) it fails with "job.time_limit".
"""

import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import translation

from pwscup.submissions.messages import JobMessage, message_render
from pwscup.submissions.models import Status
from pwscup.submissions.services.jobs import job_run
from tests.support import ROOT

BOUNDED_CHILD = """
import numpy as np
from pwscup.submissions.limits import memory_bound_apply
bound = memory_bound_apply(megabytes=200)
small = np.ones(100 << 20, dtype=np.uint8)  # 100 MiB, touched: within the bound
try:
    np.ones(400 << 20, dtype=np.uint8)
except MemoryError:
    print("refused", bound, int(small.sum()))
else:
    print("granted", bound)
"""


def test_a_bounded_process_is_refused_an_allocation_past_its_bound_and_keeps_running():
    done = subprocess.run(
        [sys.executable, "-c", BOUNDED_CHILD], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    verdict, bound, *rest = done.stdout.split()
    assert verdict == "refused" and int(bound) > 200 << 20 and rest == [str(100 << 20)]


def test_no_bound_when_the_setting_is_zero():
    child = "from pwscup.submissions.limits import memory_bound_apply as m; print(m(megabytes=0))"
    done = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True)
    assert done.stdout.strip() == "None", done.stderr[-2000:]


def test_a_job_out_of_memory_fails_with_the_limit_in_each_language(settings):
    settings.PWSCUP_SCORING_MEMORY_MB = 512

    def compute():
        raise MemoryError

    status, message, values = job_run(compute, what="a test job")
    assert (status, values) == (Status.FAILED, {})
    assert isinstance(message, JobMessage) and message.code == "job.memory_limit"
    assert "limit of 512 MiB" in message.text  # stored in English
    with translation.override("ja"):
        shown = message_render(code=message.code, params=message.params, text=message.text)
    assert "上限（512 MiB）" in shown


def test_a_job_past_its_soft_time_limit_fails_with_the_limit(settings):
    settings.PWSCUP_SCORING_SOFT_TIME_LIMIT = 90

    def compute():
        raise SoftTimeLimitExceeded()

    status, message, values = job_run(compute, what="a test job")
    assert (status, values) == (Status.FAILED, {})
    assert (message.code, message.params) == ("job.time_limit", {"seconds": 90})
    assert message.text == "Scoring exceeded the time limit of 90 seconds."


def test_an_exception_is_told_by_its_class_not_its_name():
    """A scorer's own exception that happens to share Celery's name is an internal error."""

    class SoftTimeLimitExceeded(Exception):
        pass

    def compute():
        raise SoftTimeLimitExceeded()

    status, message, values = job_run(compute, what="a test job")
    assert (status, message.code) == (Status.FAILED, "job.internal_error")
    assert message.params == {"kind": "SoftTimeLimitExceeded"}


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _address_space_limit(pid: int) -> tuple[int, int]:
    """(soft limit of the address space, address space now) of ``pid``, in bytes."""
    limits = Path(f"/proc/{pid}/limits").read_text().splitlines()
    soft = next(line for line in limits if line.startswith("Max address space")).split()[3]
    size = next(
        line
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if line.startswith("VmSize:")
    )
    return (-1 if soft == "unlimited" else int(soft)), int(size.split()[1]) * 1024


# Marked django_db although it writes no row: the worker runs against this run's test
# database, which pytest-django creates only when a test of the run asks for a database.
# Run alone, the module asked for none: the worker was started on the development database's
# name and the session's teardown failed connecting to it ("database … does not exist").
@pytest.mark.worker
@pytest.mark.django_db
def test_every_pool_process_of_a_real_worker_is_bounded(celery_worker_process, settings):
    deadline = time.monotonic() + 30
    while not (pool := _children(celery_worker_process.pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert pool, "the worker has no pool process"
    main_soft, _ = _address_space_limit(celery_worker_process.pid)
    assert main_soft == -1  # the main process schedules, it runs no job: unbounded
    for pid in pool:
        soft, size = _address_space_limit(pid)
        assert soft != -1, f"pool process {pid} has no memory bound"
        assert size < soft <= size + settings.PWSCUP_SCORING_MEMORY_MB * (1 << 20) + (64 << 20)
