"""The memory bound of a worker process: one allocation can never take down the host.

Each pool process of a Celery worker (``celery.signals.worker_process_init``) bounds its
own address space (``RLIMIT_AS``) at what it holds once started — the warmed parent's
libraries, Arrow and numba included — plus ``PWSCUP_SCORING_MEMORY_MB``. An allocation past
the bound raises ``MemoryError`` in the job that asked for it, which then fails with
"job.memory_limit" (:func:`pwscup.submissions.services.jobs.scorer_crash_message`), and the
process goes on with the next job. The kernel's own bound (the OOM killer) would instead
kill a process at random, possibly the database's. A cgroup per job would bound resident
memory rather than address space, but needs the host's cgroup delegation, which a laptop
and most containers do not give; ``RLIMIT_AS`` needs nothing.
"""

import resource

from django.conf import settings

MIB = 1 << 20


def _address_space_bytes() -> int | None:
    """This process's address space now (``VmSize``), or None where ``/proc`` is missing."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def memory_bound_apply(*, megabytes: int) -> int | None:
    """Bound this process's address space at its size now plus ``megabytes`` MiB; the bound
    in bytes, or None when there is none (``megabytes`` 0, or no ``/proc``). Only the soft
    limit is set, never above the hard one."""
    now = _address_space_bytes()
    if megabytes <= 0 or now is None:
        return None
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    bound = now + megabytes * MIB
    if hard != resource.RLIM_INFINITY:
        bound = min(bound, hard)
    resource.setrlimit(resource.RLIMIT_AS, (bound, hard))
    return bound


def on_worker_process_init(**kwargs) -> None:
    """``celery.signals.worker_process_init`` receiver: bound the new pool process."""
    memory_bound_apply(megabytes=settings.PWSCUP_SCORING_MEMORY_MB)
