"""The test run's cache keeps what the tests put in it.

Django's file cache deletes a random third of its entries on a write once it holds
MAX_ENTRIES files (300 by default). A run writes more than that, and a test that lost the
ranking it had just cached read more queries than alone (``assert 5 < 5`` in
test_page_queries.py), so the test settings raise the bound beyond what a run writes.
"""

from django.core.cache import cache


def test_the_run_cache_keeps_every_entry_past_the_default_cull_bound():
    keys = [f"run-cache-check-{i}" for i in range(400)]
    try:
        for key in keys:
            cache.set(key, key, 600)
        kept = cache.get_many(keys)
        assert len(kept) == len(keys), f"{len(keys) - len(kept)} entries culled"
    finally:
        cache.delete_many(keys)
