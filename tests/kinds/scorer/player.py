"""The round scored by the organizer's program in the conformance suite: a release of the demo
reference data (``scoring.scorer.demo``) uploaded in the release phase of a small round whose
demo program is built, scored here by the real sandbox as the worker scores it."""

import datetime as dt
import io
import zipfile

from django.utils import timezone

from pwscup.competitions.models import Phase
from pwscup.competitions.services import phase_set
from pwscup.core.stored import stored_bytes
from pwscup.kinds import kind_of
from pwscup.kinds.tabs import tab_url
from pwscup.scorer import selectors, services
from pwscup.scorer.models import Attack, DataPack, ProgramVersion, Release, Target
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
from tests.pwscup.scorer_world import (
    attack,
    attack_phase,
    guess_bytes,
    reference_csv,
    release,
    release_bytes,
    scorer_world,
)

PHASES = ("release", Phase.Kind.ATTACK)


def zip_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}


class ScorerPlayer(Player):
    key = "scorer"
    window_ends = ("freeze", "attack_now")  # each ends the first window (test_lifecycle_conform.py)
    # A team member's second reading of each tab (tests/kinds/test_page_queries_conform.py);
    # the Overview, Submit and Results tabs read which of the team's uploads an older program
    # scored (the Results tab also the current version: two queries, whatever the teams); the
    # Rules tab reads the round's committed salt of the slots (one query).
    page_queries = {"overview": 5, "data": 7, "rules": 5, "submit": 8, "results": 8}
    attack_matrix = True
    attack_targets = True
    before_publish = ("freeze",)  # nothing to publish before the freeze

    def bundle_faults(self, settings):
        first, second = settings["phases"]  # in the manifest's order
        settings["colour"] = "red"
        settings["phases"][first]["daily_limit"] = 0
        settings["phases"][second]["closes_at"] = "next monday"
        config = settings["config"]
        config["top_n"] = 0
        config["visibility"] = "blurred"
        config["limits"]["memory_mb"] = 1
        config["attack_columns"][0]["label"] = ""
        config["gates"] = [{"key": "nowhere", "min": 0}]
        return [
            "colour",
            f"phases.{first}.daily_limit",
            f"phases.{second}.closes_at",
            "config.top_n",
            "config.visibility",
            "config.limits.memory_mb",
            "config.attack_columns",
            "config.gates",
        ]

    def arena(self, *, slug, daily_limit=None, total_limit=None):
        world = scorer_world(slug=slug, letters="ab", release_limits=(daily_limit, total_limit))
        return Arena.of(world, state=world.scorer)

    def close(self, arena):
        """The release phase (the window ``submit`` uploads to) closed a minute ago, its
        limits kept; the attack phase still to come."""
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
        for day, kind in enumerate(PHASES, start=1):
            phase = arena.round.phases.get(kind=kind)
            phase_set(
                round=arena.round,
                kind=kind,
                opens_at=now + dt.timedelta(days=day),
                closes_at=now + dt.timedelta(days=day + 1),
                daily_limit=phase.daily_limit,
                total_limit=phase.total_limit,
            )
        arena.round.refresh_from_db()

    def play_results(self, arena, letters="ab"):
        """A team is on the release ranking once its final release is frozen as a target:
        one valid release each, then the console's freeze."""
        super().play_results(arena, letters)
        actions = kind_of(arena.round).console_actions(arena.round)
        actions["freeze"].perform(user=arena.organizer, round=arena.round)
        self.run_jobs()

    def matrix_arena(self, *, slug):
        """Each team's release frozen as its target; A re-identifies every person of B's
        un-noised release (the strongest attack there is on it), C attacks B with a guess
        made from A's release, B attacks A and C with their own guesses."""
        world = scorer_world(slug=slug, letters="abc")
        release(world, "a", release_bytes(noise=20, seed=1))
        release(world, "b", release_bytes(noise=0))
        release(world, "c", release_bytes(noise=20, seed=2))
        targets = attack_phase(world)
        attack(world, "a", guess_bytes(targets["teamb"]), target=targets["teamb"])
        attack(world, "c", guess_bytes(targets["teama"]), target=targets["teamb"])
        for other in ("teama", "teamc"):
            attack(world, "b", guess_bytes(targets[other]), target=targets[other])
        return Arena.of(world, state=world.scorer)

    def target_arena(self, *, slug):
        world = scorer_world(slug=slug, letters="abc")
        for n, letter in enumerate("abc", start=1):
            release(world, letter, release_bytes(noise=20, seed=n))
        attack_phase(world)
        return Arena.of(world, state=world.scorer)

    def attack(self, arena, letter, target, n):
        scorer = arena.state
        scorer.refresh_from_db()
        chosen = Target.objects.get(scorer=scorer, team=arena.teams[target])
        return services.attack_upload(
            scorer=scorer,
            team=arena.teams[letter],
            user=arena.users[letter],
            uploaded_file=uploaded(guess_bytes(chosen), f"guess{n}.csv"),
            target=chosen,
        )

    def matrix_view(self, arena):
        scorer = arena.state
        scorer.refresh_from_db()
        board = selectors.standings(scorer=scorer)
        letters = letters_of(arena)
        slugs = {team.slug: letter for letter, team in arena.teams.items()}
        ranked = [row for row in board.releases if not row.disqualified]
        attackers = [row for row in board.attackers if not row.disqualified]
        return MatrixView(
            target_ranks={letters[row.team.pk]: row.rank for row in ranked},
            safety={letters[row.team.pk]: row.protection for row in ranked},
            attack_ranks={letters[row.team.pk]: row.rank for row in attackers},
            targets={letters[row.team.pk]: row.disqualified for row in board.releases},
            strongest={
                slugs[target]: strongest_of(
                    (value, slugs[attacker]) for attacker, value in cells.items()
                )
                for target, cells in board.matrix.items()
            },
        )

    def matrix_page(self, arena):
        return organizer_page(arena, tab_url(arena.round, "results"))

    def submit(self, arena, letter, content, *, name="release.csv"):
        arena.state.refresh_from_db()
        return services.release_upload(
            scorer=arena.state,
            team=arena.teams[letter],
            user=arena.users[letter],
            uploaded_file=uploaded(content, name),
        )

    def valid(self, arena, n):
        """The reference data with noise ``n``: a release the demo program scores."""
        return release_bytes(noise=n, seed=n)

    def invalid(self, arena):
        """A release lacking the reference's columns: the demo program refuses it."""
        return b"id,age\np0001,3\n"

    def secrets(self, arena, letter):
        """Beside the other teams' releases: their attacks and, before the freeze, their
        releases' public files; the hidden packs (reference, truth) and their data; the
        whole slots pack and the other teams' slot folders."""
        scorer = arena.state
        scorer.refresh_from_db()
        found = super().secrets(arena, letter)
        others = [team for other, team in arena.teams.items() if other != letter]
        for row in Attack.objects.filter(scorer=scorer, team__in=others):
            found.append(stored_bytes(row.file))
        if scorer.frozen_at is None:
            for row in Release.objects.filter(scorer=scorer, team__in=others).exclude(public=""):
                found.append(stored_bytes(row.public))
        found.append(reference_csv())
        packs = selectors.current_packs(scorer=scorer)
        for role in (*DataPack.HIDDEN, DataPack.Role.SLOTS):
            if role in packs:
                found.append(stored_bytes(packs[role].file))
        if DataPack.Role.SLOTS in packs:
            mine = selectors.slot_of(scorer=scorer, team=arena.teams[letter])
            members = zip_members(stored_bytes(packs[DataPack.Role.SLOTS].file))
            found += [
                content
                for name, content in members.items()
                if mine is None or not name.startswith(f"{mine.folder}/")
            ]
        return found

    def run_jobs(self):
        """Every queued build, release and attack, oldest first, as the worker runs them."""
        for model, job, key in (
            (ProgramVersion, services.program_build, "program_id"),
            (Release, services.release_score, "release_id"),
            (Attack, services.attack_score, "attack_id"),
        ):
            queued = model.objects.filter(status=Status.QUEUED).order_by("pk")
            for pk in queued.values_list("pk", flat=True):
                job(**{key: pk})

    def kept(self, arena, letter):
        return list(
            Release.objects.filter(scorer=arena.state, team=arena.teams[letter]).order_by("pk")
        )


PLAYER = ScorerPlayer()
