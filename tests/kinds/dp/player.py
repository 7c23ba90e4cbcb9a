"""The differential-privacy game in the conformance suite: an estimate.csv uploaded to the
first privacy level."""

import datetime as dt

from django.utils import timezone

from pwscup.dp.kit import sample_estimate
from pwscup.dp.models import Estimate
from pwscup.dp.services import dp_round_score, dp_round_window_set
from pwscup.dp.services.estimates import dp_estimate_check, dp_estimate_upload
from pwscup.kinds import kind_of
from pwscup.submissions.models import Status
from tests.kinds.players import Arena, Player, confirmed, uploaded
from tests.pwscup.dp_world import build_dp_world


class DPPlayer(Player):
    key = "dp"
    window_ends = ("close",)  # each ends the first window (test_lifecycle_conform.py)
    # A team member's second reading of each tab (tests/kinds/test_page_queries_conform.py).
    page_queries = {"overview": 6, "data": 4, "rules": 3, "submit": 6, "results": 6}

    def bundle_faults(self, settings):
        levels = settings["config"]["levels"]
        levels[0]["epsilom"] = "1"
        # every level's ε is checked, not only the first one at fault (docs/bundles.md)
        levels[0]["epsilon"] = "0.1234567890123"
        levels[-1]["epsilon"] = "-1"
        settings["schedule"]["closes_at"] = "next monday"
        settings["limits"]["daily_limit"] = 0
        return [
            "config.levels[0].epsilom",
            "config.levels[0].epsilon",
            f"config.levels[{len(levels) - 1}].epsilon",
            "schedule.closes_at",
            "limits.daily_limit",
        ]

    def arena(self, *, slug, daily_limit=None, total_limit=None):
        world = build_dp_world(slug=slug, daily_limit=daily_limit, total_limit=total_limit)
        return Arena.of(world, state=world.dp_round)

    def close(self, arena):
        now = timezone.now()
        dp_round_window_set(
            dp_round=arena.state,
            opens_at=now - dt.timedelta(hours=2),
            closes_at=now - dt.timedelta(minutes=1),
        )

    def postpone(self, arena):
        now = timezone.now()
        dp_round_window_set(
            dp_round=arena.state,
            opens_at=now + dt.timedelta(days=1),
            closes_at=now + dt.timedelta(days=2),
        )

    def publish(self, arena):
        """A DP round's results are out once its phase has closed and it is scored: the
        console's *Close now and score* (or *Score again* once closed), then the scoring job."""
        actions = kind_of(arena.round).console_actions(arena.round)
        confirmed(actions["close"] if "close" in actions else actions["score"], arena)
        arena.state.refresh_from_db()
        dp_round_score(dp_round=arena.state)

    def submit(self, arena, letter, content, *, name="estimate.csv"):
        arena.state.refresh_from_db()
        return dp_estimate_upload(
            dp_round=arena.state,
            team=arena.teams[letter],
            user=arena.users[letter],
            level=arena.state.level_ids[0],
            uploaded_file=uploaded(content, name),
        )

    def valid(self, arena, n):
        lines = sample_estimate(dp_round=arena.state).decode().splitlines(keepends=True)
        return "".join(lines).encode() + b"\n" * n  # blank lines at the end vary the bytes

    def invalid(self, arena):
        return b"this is not an estimate\n"

    def secrets(self, arena, letter):
        with arena.round.original_file.open("rb") as handle:
            return [*super().secrets(arena, letter), handle.read()]  # the hidden table

    def run_jobs(self):
        queued = Estimate.objects.filter(status=Status.QUEUED).order_by("pk")
        for pk in queued.values_list("pk", flat=True):
            dp_estimate_check(estimate_id=pk)

    def kept(self, arena, letter):
        return list(
            Estimate.objects.filter(
                dp_round=arena.state, team=arena.teams[letter], file__gt=""
            ).order_by("pk")
        )


PLAYER = DPPlayer()
