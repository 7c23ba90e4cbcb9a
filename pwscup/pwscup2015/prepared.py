"""The original a submission is scored against, prepared once per worker host.

Preparing an original (reading it from storage, validating it, factorising its QI
columns, parsing its ``sa`` matrix: :func:`scoring.prepare_original`) costs as much as
scoring a submission. Two caches keep that to once:

* **per host**, on the worker machine's own disk (``PWSCUP_PREPARED_CACHE_DIR``), by
  ``joblib.Memory``: the first process of a host to need an original downloads it from
  storage (the bucket, with several hosts) and stores the prepared result; every other
  process of that host, and the same process after a restart, loads it from there. Hosts
  share nothing but PostgreSQL, Redis and the bucket, so each host builds its own copy.
  The folder holds secret originals: it is the platform's own (like ``PWSCUP_VAR_DIR``),
  and what it holds is trusted like the code (it is unpickled). It is bounded by
  ``PWSCUP_PREPARED_CACHE_BYTES``, least recently used entries first.
* **per process**, in memory: the last few prepared originals, so a process's next job
  on the same round does not even read the disk. Entries are dropped oldest first beyond
  8 or a million rows in all (the newest is always kept).

Both are keyed by the data's identity and the configuration: the original's SHA-256 (a
team's sample in per-team mode: the round's original SHA-256 and the sample's storage
name, which is taken once and never overwritten), the configuration as stored, and a
fingerprint of the scoring package's source, so a new original, a redrawn sample, an
edited configuration or a new scorer is prepared afresh.
"""

import hashlib
import json
import threading
from collections import OrderedDict
from functools import cache
from pathlib import Path

import joblib
from django.conf import settings

import scoring
from pwscup.competitions.models import Round
from pwscup.competitions.selectors import table_config
from pwscup.core.files import opened
from pwscup.pwscup2015.selectors import team_dataset
from pwscup.submissions.messages import JobFailure

Prepared = tuple[scoring.PreparedOriginal, scoring.RoundConfig]

_PREPARED: "OrderedDict[tuple, Prepared]" = OrderedDict()
_MAX_ENTRIES = 8
# Threads of one process (a threaded web server scoring eagerly) share the entries: looked
# up and evicted under the lock, prepared outside it.
_PREPARED_LOCK = threading.Lock()
_MAX_ROWS = 1_000_000  # a million-row original takes about 1 GiB prepared


def prepared_team_original(*, round: Round, team) -> Prepared:
    """The prepared original X a team's submissions are scored against, and its config.

    Raises ``JobFailure("job.no_sample")`` when a per-team round has no sample for the
    team, and ``scoring.ValidationError`` when the original itself is invalid.
    """
    if round.pwscup2015.is_per_team:
        dataset = team_dataset(round=round, team=team)
        if dataset is None:
            raise JobFailure("job.no_sample")
        field, data = dataset.file, f"sample:{round.original_sha256}:{dataset.file.name}"
    else:
        field, data = round.original_file, f"original:{round.original_sha256}"
    key = (data, json.dumps(round.config, sort_keys=True), scorer_fingerprint())
    with _PREPARED_LOCK:
        if key in _PREPARED:
            _PREPARED.move_to_end(key)
            return _PREPARED[key]
    entry = _host_cache().cache(_prepare, ignore=["field", "round"])(*key, field=field, round=round)
    with _PREPARED_LOCK:
        _PREPARED[key] = entry
        while len(_PREPARED) > 1 and (
            len(_PREPARED) > _MAX_ENTRIES
            or sum(prepared.rows for prepared, _ in _PREPARED.values()) > _MAX_ROWS
        ):
            _PREPARED.popitem(last=False)
    return entry


def _prepare(data: str, config: str, scorer: str, *, field, round: Round) -> Prepared:
    """Read the data from storage and prepare it (the host cache's function: its key is
    ``data``, ``config`` and ``scorer``; ``field`` and ``round`` are how to get it)."""
    with opened(field) as handle:
        table = scoring.load_table(handle, name=field.name)
    round_config = table_config(round=round, table=table)
    prepared = (scoring.prepare_original(table, round_config), round_config)
    _host_cache().reduce_size(bytes_limit=settings.PWSCUP_PREPARED_CACHE_BYTES)
    return prepared


def _host_cache() -> joblib.Memory:
    return joblib.Memory(location=settings.PWSCUP_PREPARED_CACHE_DIR, verbose=0)


@cache
def scorer_fingerprint() -> str:
    """SHA-256 of the scoring package's source: a prepared original stored by another
    version of the code is never loaded (its classes may differ)."""
    digest = hashlib.sha256()
    package = Path(scoring.__file__).parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def prepared_cache_clear(*, host: bool = True) -> None:
    """Forget every prepared original of this process and, unless ``host`` is false, of
    this host (tests)."""
    with _PREPARED_LOCK:
        _PREPARED.clear()
    if host:
        _host_cache().clear(warn=False)
