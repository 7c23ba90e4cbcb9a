"""The anonymize-then-attack game (PWSCup 2015) in the conformance suite: an anonymized CSV
uploaded to the anonymization phase."""

import io

import numpy as np
import pandas as pd
from django.urls import reverse

from pwscup.pwscup2015 import services
from pwscup.pwscup2015.leaderboards import selectors as leaderboards
from pwscup.pwscup2015.models import AnonymizationSubmission, Target
from pwscup.submissions.models import Status
from tests.kinds.players import (
    Arena,
    MatrixView,
    Player,
    letters_of,
    organizer_page,
    phase_close,
    phases_postpone,
    strongest_of,
    uploaded,
)
from tests.pwscup.factories import (
    answer_bytes,
    attack,
    freeze,
    run_operations,
    scored,
    scored_attack,
    truth_of,
)
from tests.support import build_world, noisy_copy, table_bytes


def shuffled_copy(original: bytes, *, seed: int) -> bytes:
    """A valid anonymization the built-in attacks cannot fully undo: the numeric columns
    each shuffled over the rows (every value still one of the original's)."""
    table = pd.read_csv(io.BytesIO(original), dtype=str, keep_default_na=False)
    rng = np.random.default_rng(seed)
    for column in ("age", "fnlwgt", "education-num", "hours-per-week"):
        table[column] = rng.permutation(table[column].to_numpy())
    return table_bytes(table)


def part_of(truth, share: float):
    """The true correspondence with all but the first ``share`` of its rows guessed wrong."""
    answer = truth.copy()
    answer[int(len(answer) * share) :] = 0
    return answer


class Pwscup2015Player(Player):
    key = "pwscup2015"
    window_ends = ("freeze",)  # each ends the first window (test_lifecycle_conform.py)
    # A team member's second reading of each tab (tests/kinds/test_page_queries_conform.py).
    # The overview reads the team's live version for its ETag (a page kept by the browser:
    # pwscup/accounts/conditional.py).
    page_queries = {"overview": 5, "data": 5, "rules": 3, "submit": 8, "results": 7}
    attack_matrix = True
    attack_targets = True

    def bundle_faults(self, settings):
        settings["colour"] = "red"
        settings["data_mode"] = "everyone"
        settings["phases"]["attack"]["closes_at"] = "next monday"
        settings["phases"]["anonymization"]["daily_limit"] = 0
        settings["config"]["qi"] = [*settings["config"]["qi"], "no_such_column"]
        return [
            "colour",
            "data_mode",
            "phases.attack.closes_at",
            "phases.anonymization.daily_limit",
            "config.qi",
        ]

    def arena(self, *, slug, daily_limit=None, total_limit=None):
        world = build_world(slug=slug, daily_limit=daily_limit, total_limit=total_limit)
        return Arena.of(world, state=world)

    def close(self, arena):
        phase_close(arena)

    def postpone(self, arena):
        phases_postpone(arena)

    def play_results(self, arena, letters="ab"):
        """The final ranking ranks the published targets: each team's upload, then the
        freeze (and its built-in attacks)."""
        super().play_results(arena, letters)
        freeze(arena.state)

    def matrix_arena(self, *, slug):
        """Teams A, B and C's shuffled copies frozen as targets; A sends B's true
        correspondence (every row right: the strongest attack there is), B half of A's and
        of C's, C a quarter of A's."""
        world = build_world(slug=slug)
        for seed, letter in enumerate("abc", start=1):
            scored(world, letter, content=shuffled_copy(world.original, seed=seed))
        targets = freeze(world)
        scored_attack(world, "a", targets["b"], truth_of(targets["b"]))
        for target in ("a", "c"):
            scored_attack(world, "b", targets[target], part_of(truth_of(targets[target]), 0.5))
        scored_attack(world, "c", targets["a"], part_of(truth_of(targets["a"]), 0.25))
        return Arena.of(world, state=world)

    def target_arena(self, *, slug):
        world = build_world(slug=slug)
        for seed, letter in enumerate("abc", start=1):
            scored(world, letter, content=shuffled_copy(world.original, seed=seed))
        freeze(world)
        return Arena.of(world, state=world)

    def attack(self, arena, letter, target, n):
        world = arena.state
        world.attack.refresh_from_db()
        chosen = Target.objects.get(round=world.round, team=arena.teams[target])
        return attack(world, letter, chosen, answer_bytes(part_of(truth_of(chosen), 1 / (n + 1))))

    def matrix_view(self, arena):
        matrix = leaderboards.attack_matrix(round=arena.round)
        anonymization, attack = leaderboards.final_ranking(round=arena.round)
        letters = letters_of(arena)
        who = {f"team:{pk}": letter for pk, letter in letters.items()}
        strongest = {
            letters[target.team_id]: strongest_of(
                (matrix.cell(key, target.pk).best, who.get(key, label))
                for key, label in matrix.attackers
            )
            for target in matrix.targets
        }
        return MatrixView(
            target_ranks={letters[row.team.pk]: row.rank for row in anonymization},
            safety={letters[row.team.pk]: row.safety for row in anonymization},
            attack_ranks={letters[row.team.pk]: row.rank for row in attack},
            targets={letters[t.team_id]: t.team_id in matrix.disqualified for t in matrix.targets},
            strongest=strongest,
        )

    def matrix_page(self, arena):
        return organizer_page(
            arena, reverse("matrix", args=[arena.competition.slug, arena.round.slug])
        )

    def submit(self, arena, letter, content, *, name="anonymized.csv"):
        arena.state.anonymization.refresh_from_db()
        return services.anonymization_submission_create(
            phase=arena.state.anonymization,
            team=arena.teams[letter],
            user=arena.users[letter],
            uploaded_file=uploaded(content, name),
        )

    def valid(self, arena, n):
        return noisy_copy(arena.state.original, seed=n)

    def invalid(self, arena):
        return arena.state.original.replace(b"State-gov", b"Moon-gov", 1)

    def run_jobs(self):
        queued = AnonymizationSubmission.objects.filter(status=Status.QUEUED).order_by("pk")
        for pk in queued.values_list("pk", flat=True):
            services.anonymization_submission_score(submission_id=pk)
        run_operations()  # freeze, rescore, publish

    def kept(self, arena, letter):
        return list(
            AnonymizationSubmission.objects.filter(
                phase__round=arena.round, team=arena.teams[letter]
            ).order_by("pk")
        )


PLAYER = Pwscup2015Player()
