"""Warm a Celery worker before its pool starts, so its first upload is scored as fast as the next.

A worker process's first job used to pay for what happens once per process: Django's URL
resolver (the links of the notifications), the first use of Arrow's CSV reader, the
compiled nearest-row search of the attacks (:func:`scoring.nearest.warm_up`), and the
round's prepared original (read, validated, factorised: :mod:`pwscup.pwscup2015.prepared`).
On ``worker_init`` — in the worker's main process, before the prefork pool forks its
processes — :func:`warm_worker` does all of that once, the prepared originals for the rounds
whose anonymization phase is open (shared data, at most :data:`WARM_MAX_ROWS` rows each,
within the cache's own bounds), then closes the database connections it opened. The pool's
processes inherit the result. ``benchmarks/bench_upload.py`` times a round's first upload
against the next ones (figures in ``benchmarks/README.md``).

Nothing here is required: any error is logged and the worker starts cold, which is slower,
never wrong. It costs nothing while the platform is idle (it runs once, at worker start).
"""

import logging
from io import BytesIO

from django.conf import settings
from django.db import connections
from django.urls import get_resolver
from django.utils import timezone, translation

import scoring
import scoring.nearest
from pwscup.competitions.models import Phase, Round
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.prepared import prepared_team_original

logger = logging.getLogger(__name__)

WARM_MAX_ROWS = 200_000  # larger originals are prepared by their first job, as before


def warm_rounds() -> list[Round]:
    """Rounds whose original the worker prepares at start: open, shared data, not huge."""
    now = timezone.now()
    open_ids = Phase.objects.filter(
        kind=Phase.Kind.ANONYMIZATION, opens_at__lte=now, closes_at__gt=now
    ).values("round_id")
    rounds = Round.objects.filter(
        pk__in=open_ids, original_rows__gt=0, original_rows__lte=WARM_MAX_ROWS
    ).exclude(pwscup2015__data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    return list(rounds.order_by("-pk")[:8])


def warm_worker() -> int:
    """Do the once-per-process work of a first job now; returns the originals prepared."""
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            get_resolver().reverse_dict  # noqa: B018 - builds the resolver's tables
    scoring.load_table(BytesIO(b"a,b\n1,2\n"), name="warm-up.csv")
    scoring.nearest.warm_up()
    prepared = 0
    try:
        for round_ in warm_rounds():
            if not round_.original_file:
                continue
            try:
                prepared_team_original(round=round_, team=None)
                prepared += 1
            except Exception:  # noqa: BLE001 - the round's first job will report it
                logger.info("worker warm-up: round %s not prepared", round_.pk, exc_info=True)
    finally:
        connections.close_all()  # the pool's processes must not share these
    return prepared


def on_worker_init(**kwargs) -> None:
    """``celery.signals.worker_init`` receiver: warm up, never fail the worker's start."""
    try:
        prepared = warm_worker()
        logger.info("worker warm-up: %d prepared original(s)", prepared)
    except Exception:  # noqa: BLE001 - a cold worker still works
        logger.warning("worker warm-up failed; the first jobs will be slower", exc_info=True)
