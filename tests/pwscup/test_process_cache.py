"""``pwscup.core.process_cache.ProcessCache``: a value is made once per key, the least
recently used goes first once more than ``size`` are kept."""

from pwscup.core.process_cache import ProcessCache


def test_a_value_is_made_once_and_the_least_recently_used_goes_first():
    cache = ProcessCache(2)
    made = []

    def maker(key):
        def make():
            made.append(key)
            return key * 10

        return make

    assert cache.get(1, maker(1)) == 10
    assert cache.get(2, maker(2)) == 20
    assert cache.get(1, maker(1)) == 10  # kept: 1 is now the most recently used
    assert cache.get(3, maker(3)) == 30  # 2 goes
    assert cache.get(1, maker(1)) == 10
    assert cache.get(2, maker(2)) == 20  # made again
    assert made == [1, 2, 3, 2]
