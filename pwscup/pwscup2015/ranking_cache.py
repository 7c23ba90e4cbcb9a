"""A round's rankings, computed once per change and shared by every web process.

The leaderboard, the attack matrix and the final ranking are read from the Django cache
(Redis in production: shared by the web processes and the workers that write scores).
Each entry's key holds the round's *ranking version*, a counter kept in the database
(``pwscup.competitions.models.RankingVersion``) beside the scores it vouches for. The
services that change what a ranking shows bump it: a score written (upload, attack,
built-in attack), a selection, a rescore, a freeze, a disqualification, an edit of the
round (``ranking_invalidate``). The bump is an UPDATE in the change's own transaction, so
the version moves exactly when the change commits, and a cache that missed the change
(unreachable for a while, then back with its old entries) holds nothing under the new
version: the next reader computes the ranking again. A computation that raced with a
change stores its result under the version it read, which no reader asks for once the
change has committed.

The version is read with the round's row, which every request reads anyway
(``pwscup.accounts.access.round_access``; elsewhere, one indexed read): a cached ranking
costs no query. The pages' ETags hold the tables' keys, so a browser's copy from before a
change is answered in full, not 304.

The round's own ranking settings (gates, rules, tie-break, freeze, publication) are part
of the key too: an edit of the kind's row is seen at once without anyone having to
invalidate.
"""

import hashlib
import json
from collections.abc import Callable

from django.core.cache import cache

from pwscup.competitions.selectors import round_ranking_version
from pwscup.competitions.services import ranking_version_bump

# A safety net only (nothing relies on it): an entry nobody reads lives this long.
ENTRY_SECONDS = 3600


def ranking_invalidate(*, round_ids) -> None:
    """The rankings of these rounds change with the current transaction: bump their
    version in it, before the change writes an upload or job row (the lock order of
    ``ranking_version_bump``). Without a transaction the bump commits at once."""
    ranking_version_bump(round_ids=round_ids)


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
    version = round_ranking_version(round=round)
    return f"ranking:{round.pk}:{name}:{version}:{_settings_token(round)}"


def ranking_cached(*, round, name: str, compute: Callable):
    """``compute()``'s result for this round, from the cache while nothing has changed."""
    key = ranking_cache_key(round=round, name=name)
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, ENTRY_SECONDS)
    return value
