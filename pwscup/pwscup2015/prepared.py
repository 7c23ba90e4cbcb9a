"""The original a submission is scored against, prepared once per worker process.

Preparing an original (reading it, validating it, factorising its QI columns, parsing
its ``sa`` matrix: :func:`scoring.prepare_original`) costs as much as scoring a
submission; every job of a worker on the same round reuses it. The key is the round,
the version of its data (the original's SHA-256, or the team's sample file) and the
configuration, so a new original, a redrawn sample or an edited configuration is
prepared afresh. Entries are dropped oldest first beyond 8 or a million rows in all
(the newest is always kept).
"""

import json
import threading
from collections import OrderedDict

import scoring
from pwscup.competitions.models import Round
from pwscup.competitions.selectors import table_config
from pwscup.core.files import opened
from pwscup.pwscup2015.selectors import team_dataset
from pwscup.submissions.messages import JobFailure

_PREPARED: "OrderedDict[tuple, tuple[scoring.PreparedOriginal, scoring.RoundConfig]]" = (
    OrderedDict()
)
_MAX_ENTRIES = 8
# Threads of one process (a threaded web server scoring eagerly) share the entries: looked
# up and evicted under the lock, prepared outside it.
_PREPARED_LOCK = threading.Lock()
_MAX_ROWS = 1_000_000  # a million-row original takes about 1 GiB prepared


def prepared_team_original(
    *, round: Round, team
) -> tuple[scoring.PreparedOriginal, scoring.RoundConfig]:
    """The prepared original X a team's submissions are scored against, and its config.

    Raises ``JobFailure("job.no_sample")`` when a per-team round has no sample for the
    team, and ``scoring.ValidationError`` when the original itself is invalid.
    """
    if round.pwscup2015.is_per_team:
        dataset = team_dataset(round=round, team=team)
        if dataset is None:
            raise JobFailure("job.no_sample")
        field, version = dataset.file, f"dataset-{dataset.pk}-{dataset.file.name}"
    else:
        field, version = round.original_file, f"original-{round.original_sha256}"
    key = (round.pk, version, json.dumps(round.config, sort_keys=True))
    with _PREPARED_LOCK:
        if key in _PREPARED:
            _PREPARED.move_to_end(key)
            return _PREPARED[key]
    with opened(field) as handle:
        table = scoring.load_table(handle, name=field.name)
    config = table_config(round=round, table=table)
    entry = (scoring.prepare_original(table, config), config)
    with _PREPARED_LOCK:
        _PREPARED[key] = entry
        while len(_PREPARED) > 1 and (
            len(_PREPARED) > _MAX_ENTRIES
            or sum(prepared.rows for prepared, _ in _PREPARED.values()) > _MAX_ROWS
        ):
            _PREPARED.popitem(last=False)
    return entry


def prepared_cache_clear() -> None:
    """Forget every prepared original of this process (tests)."""
    _PREPARED.clear()
