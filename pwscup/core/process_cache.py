"""A few values kept per process, by key, for what is costly to make and never changes under
its key (a table read from storage by its hash, a population parsed under its settings):
workers score many uploads on one original, and the pages read it on every request.

The web server's threads share one cache: look-ups and evictions are done under its lock,
the value is made outside it (two threads may both make one value the first time; either
is right). The oldest used entry goes first once more than ``size`` are kept.

Written here rather than taken from a library: ``functools.lru_cache`` memoizes a function by
its arguments, but these values are keyed by a hash of inputs the caller holds (the table's
bytes are not the key); ``cachetools`` does exactly this, but is not a dependency of the
platform, and these twenty lines are the whole of what is needed."""

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable


class ProcessCache:
    """At most ``size`` values, each made once by ``make()`` the first time its key is asked
    for (``get``), then kept until it is the least recently used of more than ``size``."""

    def __init__(self, size: int):
        self.size = size
        self._entries: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], object]):
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = make()
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value
