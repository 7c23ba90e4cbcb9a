"""The sequential-release game in the conformance suite: release 1 of the paper's persons."""

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from pwscup.sequential import selectors, services
from pwscup.sequential.models import Release, SeqTarget, SequentialRound
from pwscup.submissions.models import Status
from tests.kinds.players import (
    Arena,
    MatrixView,
    Player,
    letters_of,
    organizer_page,
    strongest_of,
    uploaded,
)
from tests.pwscup.seq_web_world import attack, attack_phase_world, fixture, seq_world

# Guesses on the small example's persons (fixtures/sequential/small_master.csv): every
# disease right, three of five right (the paper's W6), one of five right.
ALL_RIGHT = b"pid,guess\nBob,dyspepsia\nAlice,bronchitis\nAndy,dyspepsia\nDavid,gastritis\nEmily,dyspepsia\n"
THREE_RIGHT = (
    b"pid,guess\nBob,dyspepsia\nAlice,dyspepsia\nAndy,dyspepsia\nDavid,\nEmily,dyspepsia\n"
)
ONE_RIGHT = b"pid,guess\nBob,dyspepsia\nAlice,gastritis\nAndy,flu\nDavid,\nEmily,flu\n"


class SequentialPlayer(Player):
    key = "sequential"
    # Its freeze of a release not open yet has its own page and box (test_seq_console_dates.py).
    window_ends = ()
    # A team member's second reading of each tab (tests/kinds/test_page_queries_conform.py).
    page_queries = {"overview": 5, "data": 7, "rules": 4, "submit": 8, "results": 10}
    attack_matrix = True
    attack_targets = True  # under the round's own limit per target (no core phase)

    def bundle_faults(self, settings):
        settings["colour"] = "red"
        settings["schedule"]["step_closes"] = ["P1D", "next monday"]
        settings["limits"]["daily_limit"] = 0
        settings["config"]["m"] = 1
        return ["colour", "schedule.step_closes[1]", "limits.daily_limit", "config.m"]

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
        """Release 1 opens tomorrow (the console's *Dates and limits*)."""
        now = timezone.now()
        services.schedule_edit(
            sequential=SequentialRound.objects.get(pk=arena.state.pk),
            user=arena.organizer,
            opens_at=now + dt.timedelta(days=1),
            first_close=now + dt.timedelta(days=2),
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

    def matrix_arena(self, *, slug):
        """The small example's attack phase with teams A, B and C (each its own W3 master,
        both releases frozen, its sequence a target): A guesses every disease of B's
        persons right (above MAP_N's 7/10), B three of five of A's and C's, C one of A's."""
        world = attack_phase_world(slug=slug, letters="abc", pool=None)
        targets = {
            letter: SeqTarget.objects.get(sequential=world.sequential, team=team)
            for letter, team in world.teams.items()
        }
        attack(world, "a", targets["b"], ALL_RIGHT)
        for target in ("a", "c"):
            attack(world, "b", targets[target], THREE_RIGHT)
        attack(world, "c", targets["a"], ONE_RIGHT)
        return Arena.of(world, state=world.sequential)

    def target_arena(self, *, slug):
        world = attack_phase_world(slug=slug, letters="abc", pool=None)
        return Arena.of(world, state=world.sequential)

    def attack_target_limit_set(self, arena, limit):
        SequentialRound.objects.filter(pk=arena.state.pk).update(attack_target_limit=limit)

    def attack(self, arena, letter, target, n):
        sequential = SequentialRound.objects.get(pk=arena.state.pk)
        return services.attack_upload(
            target=SeqTarget.objects.get(sequential=sequential, team=arena.teams[target]),
            team=arena.teams[letter],
            user=arena.users[letter],
            uploaded_file=uploaded(THREE_RIGHT + b"\n" * n, f"team{letter.upper()}_attack.csv"),
        )

    def matrix_view(self, arena):
        sequential = arena.state
        matrix = selectors.attack_matrix(sequential=sequential)
        letters = letters_of(arena)
        strongest = {
            letters[target.team_id]: strongest_of(
                (row.cells[column], letters[row.team.pk] if row.team else row.name)
                for row in matrix.rows
            )
            for column, target in enumerate(matrix.targets)
        }
        board = selectors.leaderboard_rows(sequential=sequential)
        return MatrixView(
            target_ranks={letters[row.team.pk]: row.rank for row in board},
            safety={letters[row.team.pk]: row.safety for row in board},
            attack_ranks={
                letters[row["team"].pk]: row["rank"]
                for row in selectors.attack_ranking(sequential=sequential)
            },
            targets={letters[t.team_id]: t.team_id in matrix.disqualified for t in matrix.targets},
            strongest=strongest,
        )

    def matrix_page(self, arena):
        return organizer_page(
            arena,
            reverse("sequential:leaderboard", args=[arena.competition.slug, arena.round.slug]),
        )

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
