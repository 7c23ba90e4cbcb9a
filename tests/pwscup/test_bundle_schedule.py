"""The bundle's one schedule rule (``pwscup.kinds.bundles.schedule_offsets``): a window that
closes when it opens gets seven days and moves the later windows; nothing else changes."""

import datetime as dt

import pytest
from django.utils.dateparse import parse_duration

from pwscup.kinds.bundles import EMPTY_PHASE_LENGTH, schedule_offsets

T = dt.datetime(2026, 4, 6, 9, tzinfo=dt.UTC)
DAY, HOUR = dt.timedelta(days=1), dt.timedelta(hours=1)


def durations(windows):
    return [
        tuple(None if at is None else parse_duration(at) for at in window)
        for window in schedule_offsets(windows, T)
    ]


@pytest.mark.parametrize(
    ("windows", "expected"),
    [
        # Elapsed, closed early: every time keeps its distance.
        ([(T, T + 2 * DAY), (T + 3 * DAY, T + 5 * DAY)], [(0 * DAY, 2 * DAY), (3 * DAY, 5 * DAY)]),
        # Published before the attack phase opened: it opens and closes at once.
        ([(T, T + HOUR), (T + HOUR, T + HOUR)], [(0 * DAY, HOUR), (HOUR, HOUR + 7 * DAY)]),
        # Closed before anything opened: each gets a week, one after the other.
        ([(T, T), (T, T)], [(0 * DAY, 7 * DAY), (7 * DAY, 14 * DAY)]),
        # The first phase collapsed: the next moves a week later, its length kept.
        ([(T, T), (T + DAY, T + 3 * DAY)], [(0 * DAY, 7 * DAY), (8 * DAY, 10 * DAY)]),
        # Releases that only close: unchanged.
        ([(None, T + DAY), (None, T + 2 * DAY)], [(None, DAY), (None, 2 * DAY)]),
    ],
)
def test_a_window_without_length_gets_a_week_and_moves_the_later_ones(windows, expected):
    assert durations(windows) == expected
    assert EMPTY_PHASE_LENGTH == 7 * DAY
