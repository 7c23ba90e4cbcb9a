"""The synthetic-data game in the conformance suite: a release (the kit's independent
marginals of team A's members) uploaded in the release phase of a small round on Adult."""

import datetime as dt

from django.utils import timezone

from pwscup.competitions.models import Phase
from pwscup.competitions.services import phase_set
from pwscup.kinds import kind_of
from pwscup.kinds.tabs import tab_url
from pwscup.submissions.models import Status
from pwscup.synthetic import engine, selectors, services
from pwscup.synthetic.api import files
from pwscup.synthetic.models import SynAttack, SynRelease, SynTarget, TeamDraw
from scoring.synthetic.kit import independent_marginals, table_text
from tests.kinds.players import (
    Arena,
    MatrixView,
    Player,
    letters_of,
    organizer_page,
    strongest_of,
    uploaded,
)
from tests.pwscup.syn_world import (
    attack,
    baseline_release,
    dcr_answer_bytes,
    freeze,
    labels_of,
    open_attack_phase,
    release,
    syn_world,
)


def answer(labels, *, right: bool) -> bytes:
    """An attack's ``id,score`` answer: the true membership (``right``) or its opposite."""
    lines = ["id,score"]
    lines += [f"{i},{int(label) if right else 1 - int(label)}" for i, label in enumerate(labels, 1)]
    return ("\n".join(lines) + "\n").encode()


class SyntheticPlayer(Player):
    key = "synthetic"
    window_ends = ("freeze", "attack_now")  # each ends the first window (test_lifecycle_conform.py)
    # A team member's second reading of each tab (tests/kinds/test_page_queries_conform.py).
    page_queries = {"overview": 3, "data": 7, "rules": 3, "submit": 12, "results": 10}
    attack_matrix = True
    attack_targets = True
    before_publish = ("freeze",)  # nothing to publish before the freeze

    def bundle_faults(self, settings):
        first, second = settings["phases"]  # in the manifest's order
        settings["colour"] = "red"
        settings["phases"][first]["daily_limit"] = 0
        settings["phases"][second]["closes_at"] = "next monday"
        settings["config"]["n_challenge"] = 3
        return [
            "colour",
            f"phases.{first}.daily_limit",
            f"phases.{second}.closes_at",
            "config.n_challenge",
        ]

    def arena(self, *, slug, daily_limit=None, total_limit=None):
        world = syn_world(slug=slug, letters="ab", release_limits=(daily_limit, total_limit))
        return Arena.of(world, state=world.synthetic)

    def close(self, arena):
        now = timezone.now()
        phase = arena.round.phases.get(kind="release")
        phase_set(
            round=arena.round,
            kind="release",
            opens_at=now - dt.timedelta(hours=2),
            closes_at=now - dt.timedelta(minutes=1),
            daily_limit=phase.daily_limit,
            total_limit=phase.total_limit,
        )
        arena.round.refresh_from_db()

    def postpone(self, arena):
        now = timezone.now()
        for day, kind in enumerate(("release", Phase.Kind.ATTACK), start=1):
            phase_set(
                round=arena.round,
                kind=kind,
                opens_at=now + dt.timedelta(days=day),
                closes_at=now + dt.timedelta(days=day + 1),
            )
        arena.round.refresh_from_db()

    def play_results(self, arena, letters="ab"):
        """A team is on the release ranking once its final release is frozen as a target:
        one valid release each, then the console's freeze and the built-in attacks."""
        super().play_results(arena, letters)
        actions = kind_of(arena.round).console_actions(arena.round)
        actions["freeze"].perform(user=arena.organizer, round=arena.round)
        self.run_jobs()

    def matrix_arena(self, *, slug):
        """Each team's kit release frozen as its target; A answers B's challenge set right
        (the strongest attack there is), B attacks A and C with the kit's DCR answer, C
        answers A's wrong."""
        world = syn_world(slug=slug, letters="abc")
        for n, letter in enumerate("abc"):
            release(world, letter, baseline_release(world, letter, seed=n))
        targets = freeze(world)
        open_attack_phase(world)
        world.synthetic.refresh_from_db()
        attack(world, "a", targets["teamB"], answer(labels_of(world, "b"), right=True))
        for slug_ in ("teamA", "teamC"):
            attack(world, "b", targets[slug_], dcr_answer_bytes(world, targets[slug_]))
        attack(world, "c", targets["teamA"], answer(labels_of(world, "a"), right=False))
        return Arena.of(world, state=world.synthetic)

    def target_arena(self, *, slug):
        world = syn_world(slug=slug, letters="abc")
        for n, letter in enumerate("abc"):
            release(world, letter, baseline_release(world, letter, seed=n))
        freeze(world)
        open_attack_phase(world)
        world.synthetic.refresh_from_db()
        return Arena.of(world, state=world.synthetic)

    def attack(self, arena, letter, target, n):
        synthetic = arena.state
        synthetic.refresh_from_db()
        chosen = SynTarget.objects.get(synthetic=synthetic, team=arena.teams[target])
        draw = TeamDraw.objects.get(synthetic=synthetic, team=arena.teams[target])
        content = answer(draw.labels, right=n % 2 == 1)
        return services.attack_upload(
            target=chosen,
            team=arena.teams[letter],
            user=arena.users[letter],
            uploaded_file=uploaded(content, f"team{letter.upper()}_mia.csv"),
        )

    def matrix_view(self, arena):
        synthetic = arena.state
        half = selectors.visible_half(synthetic=synthetic)
        results = selectors.round_results(synthetic=synthetic, half=half)
        matrix, releases, attacks = results.matrix, results.releases, results.attacks
        letters = letters_of(arena)
        strongest = {}
        for column, target in enumerate(matrix.targets):
            strongest[letters[target.team_id]] = strongest_of(
                (row.cells[column].headline, letters[row.team.pk] if row.team else row.name)
                for row in matrix.rows
            )
        return MatrixView(
            target_ranks={letters[r["team"].pk]: r["rank"] for r in releases},
            safety={letters[r["team"].pk]: r["worst"] for r in releases},
            attack_ranks={letters[r["team"].pk]: r["rank"] for r in attacks},
            targets={letters[t.team_id]: t.team_id in matrix.disqualified for t in matrix.targets},
            strongest=strongest,
        )

    def matrix_page(self, arena):
        return organizer_page(arena, tab_url(arena.round, "results"))

    def submit(self, arena, letter, content, *, name="team_synthetic.csv"):
        arena.state.refresh_from_db()
        return services.release_upload(
            synthetic=arena.state,
            team=arena.teams[letter],
            user=arena.users[letter],
            uploaded_file=uploaded(content, name),
        )

    def valid(self, arena, n):
        """Team A's kit release (independent marginals of its members), seed ``n``: valid for
        every team (the same columns and domains)."""
        draw = services.team_draw(synthetic=arena.state, team=arena.teams["a"])
        members = engine.rows_of(engine.round_population(arena.round), draw.members)
        return table_text(independent_marginals(members, rows=100, seed=n)).encode()

    def invalid(self, arena):
        return b"this,is,not,a,release\n1,2,3,4,5\n"

    def secrets(self, arena, letter):
        """Beside the other teams' releases: the original, the holdout, the other teams'
        members tables."""
        synthetic = arena.state
        found = super().secrets(arena, letter)
        with arena.round.original_file.open("rb") as handle:
            found.append(handle.read())
        population = engine.round_population(arena.round)
        found.append(table_text(engine.rows_of(population, synthetic.holdout)).encode())
        for draw in TeamDraw.objects.filter(synthetic=synthetic).exclude(team=arena.teams[letter]):
            found.append(files.members_csv(synthetic=synthetic, draw=draw).encode())
        return found

    def run_jobs(self):
        for pk in (
            SynRelease.objects.filter(status=Status.QUEUED)
            .order_by("pk")
            .values_list("pk", flat=True)
        ):
            services.release_score(release_id=pk)
        for pk in (
            SynTarget.objects.filter(status=Status.QUEUED)
            .order_by("pk")
            .values_list("pk", flat=True)
        ):
            services.target_score(target_id=pk)
        for pk in (
            SynAttack.objects.filter(status=Status.QUEUED)
            .order_by("pk")
            .values_list("pk", flat=True)
        ):
            services.attack_score(attack_id=pk)

    def kept(self, arena, letter):
        return list(
            SynRelease.objects.filter(synthetic=arena.state, team=arena.teams[letter]).order_by(
                "pk"
            )
        )


PLAYER = SyntheticPlayer()
