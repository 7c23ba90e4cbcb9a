"""The sequential-release game in the conformance suite: release 1 of the paper's persons."""

import datetime as dt

from django.utils import timezone

from pwscup.sequential import services
from pwscup.sequential.models import Release
from pwscup.submissions.models import Status
from tests.kinds.players import Arena, Player, uploaded
from tests.pwscup.seq_web_world import fixture, seq_world


class SequentialPlayer(Player):
    key = "sequential"
    window_opens = False  # release 1 is open from the start; release j once j-1 is frozen
    # A team member's second reading of each tab (tests/kinds/test_page_queries_conform.py).
    page_queries = {"overview": 10, "data": 12, "rules": 9, "submit": 13, "results": 15}

    def arena(self, *, slug, daily_limit=None, total_limit=None):
        world = seq_world(slug=slug, letters="ab", daily_limit=daily_limit, total_limit=total_limit)
        sequential = world.sequential
        services.schedule_set(
            sequential=sequential,
            first_close=timezone.now() + dt.timedelta(days=1),
            step_length=dt.timedelta(days=1),
        )
        return Arena.of(world, state=sequential)

    def close(self, arena):
        services.schedule_set(
            sequential=arena.state,
            first_close=timezone.now() - dt.timedelta(minutes=1),
            step_length=dt.timedelta(days=1),
        )

    def postpone(self, arena):
        services.schedule_set(
            sequential=arena.state,
            first_close=timezone.now() + dt.timedelta(days=2),
            step_length=dt.timedelta(days=1),
        )

    def play_results(self, arena, letters="ab"):
        """A team is ranked on its whole sequence: release 1 then, once it is frozen,
        release 2 (the paper's tables 3 and 9)."""
        for step, table in ((1, "zhang_release_1.csv"), (2, "zhang_release_2_table9.csv")):
            for letter in letters:
                arena.state.refresh_from_db()
                services.release_upload(
                    sequential=arena.state,
                    team=arena.teams[letter],
                    user=arena.users[letter],
                    step=step,
                    uploaded_file=uploaded(fixture(table), f"release_{step}.csv"),
                )
            self.run_jobs()
            arena.state.refresh_from_db()
            services.step_freeze(sequential=arena.state, user=arena.organizer)

    def submit(self, arena, letter, content, *, name="release_1.csv"):
        arena.state.refresh_from_db()
        return services.release_upload(
            sequential=arena.state,
            team=arena.teams[letter],
            user=arena.users[letter],
            step=1,
            uploaded_file=uploaded(content, name),
        )

    def valid(self, arena, n):
        return fixture("zhang_release_1.csv") + b"\n" * n

    def invalid(self, arena):
        return b"pid,nonsense\n1,2\n"

    def run_jobs(self):
        queued = Release.objects.filter(status=Status.QUEUED).order_by("pk")
        for pk in queued.values_list("pk", flat=True):
            services.release_check(release_id=pk)

    def kept(self, arena, letter):
        return list(
            Release.objects.filter(sequential=arena.state, team=arena.teams[letter]).order_by("pk")
        )


PLAYER = SequentialPlayer()
