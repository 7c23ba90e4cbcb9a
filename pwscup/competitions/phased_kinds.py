"""The ``RoundKind`` hooks of a kind whose windows are the core's phases (``Phase``): the
2015 game and the two-sided kinds (synthetic data, the organizer's scoring program).

Such a kind lists ``PhasedKind`` before its ``RoundKind`` base; the core then answers its
schedule, its planned windows and the phases it still lacks from the round's phases (its
``phase_labels`` name the phases it needs). A kind that lacks more than phases extends
``missing_phases`` through ``super()``.
"""

from pwscup.competitions.selectors import (
    phases_schedule_lines,
    phases_schedule_plan,
    round_missing_phases,
)


class PhasedKind:
    """Schedule, plan and missing phases read from the round's ``Phase`` rows."""

    def missing_phases(self, round) -> list[str]:
        return round_missing_phases(round=round)

    def schedule_lines(self, round) -> list[dict]:
        return phases_schedule_lines(round=round)

    def schedule_plan(self, round) -> list[tuple]:
        return phases_schedule_plan(round=round)
