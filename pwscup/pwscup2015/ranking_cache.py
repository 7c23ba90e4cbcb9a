"""A round's rankings, computed once per change and shared by every web process.

The leaderboard, the attack matrix and the final ranking are read from the Django cache
(Redis in production: shared by the web processes and the workers that write scores).
Each entry's key holds the round's *ranking version*, a token that the services replace
whenever a change can move a rank or a number: a score written (upload, attack, built-in
attack), a selection, a rescore, a freeze, a publication, a disqualification
(``ranking_invalidate``). A computation that raced with a change stores its result under
the old version, where no reader looks any more; the version is replaced again once the
change commits, so a reader that recomputed in between does not keep what it saw.

The round's own ranking settings (gates, rules, tie-break, freeze, publication) are part
of the key too: the round row is read on every request anyway, so an edit of the round is
seen at once without anyone having to invalidate.
"""

import hashlib
import json
import secrets
from collections.abc import Callable

from django.core.cache import cache
from django.db import transaction

# A safety net only (nothing relies on it): an entry nobody invalidated lives this long.
ENTRY_SECONDS = 3600


def ranking_version_key(round_id: int) -> str:
    """The cache key of the round's ranking version."""
    return f"ranking-version:{round_id}"


def ranking_version(*, round_id: int) -> str:
    """The round's current ranking version (created on first use)."""
    key = ranking_version_key(round_id)
    version = cache.get(key)
    if version is None:
        version = secrets.token_hex(8)
        if not cache.add(key, version, timeout=None):
            version = cache.get(key) or version
    return version


def _replace_version(round_ids) -> None:
    cache.set_many(
        {ranking_version_key(pk): secrets.token_hex(8) for pk in round_ids}, timeout=None
    )


def ranking_invalidate(*, round_ids) -> None:
    """Forget the cached rankings of these rounds: now, and again when the change commits."""
    round_ids = sorted({int(pk) for pk in round_ids if pk is not None})
    if not round_ids:
        return
    _replace_version(round_ids)
    transaction.on_commit(lambda: _replace_version(round_ids))


def _settings_token(round) -> str:
    settings = [
        round.pwscup2015.utility_gates,
        round.pwscup2015.tie_break_metric,
        round.pwscup2015.ranking_rule,
        round.pwscup2015.selection_rule,
        round.pwscup2015.frozen_at.isoformat() if round.pwscup2015.frozen_at else None,
        round.pwscup2015.results_published,
    ]
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]


def ranking_cache_key(*, round, name: str) -> str:
    """The key of ``name`` for the round as it is now: a new one after every change.

    Templates cache the HTML of a ranking table under it (``{% cache %}``), so an
    unchanged table is neither recomputed nor rendered again.
    """
    return (
        f"ranking:{round.pk}:{name}:{ranking_version(round_id=round.pk)}:{_settings_token(round)}"
    )


def ranking_cached(*, round, name: str, compute: Callable):
    """``compute()``'s result for this round, from the cache while nothing has changed."""
    key = ranking_cache_key(round=round, name=name)
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, ENTRY_SECONDS)
    return value
