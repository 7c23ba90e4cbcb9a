"""PWSCup 2025's membership game on eight rows, for the tests of the 2025 ranking program
(``membership_2025_program.py``; docs/scorer.md, "PWSCup 2025 on this platform"): three teams,
each target's members (its ZZ), each team's utility and five attack uploads (Team B's three),
each covering every target. ``membership_play`` plays a round of ``scorer_world`` up to the
attacks, scored in the real sandbox; ``membership_round`` adds another such round to its
competition (a final after a preliminary)."""

import datetime as dt
from pathlib import Path

from django.utils import timezone

from pwscup.scorer import selectors, services
from pwscup.scorer.models import DataPack
from tests.pwscup.scorer_world import (
    ScorerWorld,
    attack,
    attack_phase,
    program_version,
    release,
    upload_file,
    zipped,
)

CONFIG = {
    "release_columns": [{"key": "U", "higher_is_better": True}],
    "attack_columns": [{"key": "tp", "higher_is_better": True}],
    "attack_mode": "all_targets",
    "ranking": "program",
    "limits": {"timeout_seconds": 60, "memory_mb": 1024, "processes": 64},
}
METADATA = b"""release_command: python3 $program/score.py release $input $output
attack_command: python3 $program/score.py attack $input $output
ranking_command: python3 $program/score.py ranking $input $output
"""
# Each target's members among the population's eight rows (its ZZ), by team: five each.
MEMBERS = {
    "a": [1, 1, 1, 1, 1, 0, 0, 0],
    "b": [0, 0, 1, 1, 1, 1, 1, 0],
    "c": [1, 0, 1, 0, 1, 0, 1, 1],
}
UTILITY = {"a": 10, "b": 20, "c": 30}
# The rows each upload marks 1 in each target's column: Team B uploads three times.
ANSWERS = [
    ("a", {"b": [2, 3], "c": [0, 1]}),  # true positives: on B 2, on C 1
    ("b", {"a": [0, 1, 2], "c": [0, 2]}),  # B #1: on A 3, on C 2
    ("c", {"a": [0, 5], "b": [6]}),  # on A 1 (row 5 is no member), on B 1
    ("b", {"a": [0], "c": [0]}),  # B #2: on A 1, on C 1
    ("b", {"a": [0, 1], "c": []}),  # B #3: on A 2, on C 0
]


def answer_csv(marked: dict, slots: dict) -> bytes:
    """``FF.csv``: one 0/1 column per team number, the marked rows of each target's."""
    columns = sorted(slots.values())
    lines = [",".join(f"col{n}" for n in columns)]
    for row in range(8):
        by_slot = {slots[t]: int(row in rows) for t, rows in marked.items()}
        lines.append(",".join(str(by_slot.get(n, 0)) for n in columns))
    return ("\n".join(lines) + "\n").encode()


def membership_play(made: ScorerWorld, utility: dict | None = None) -> ScorerWorld:
    """The 2025 program and each target's members uploaded, each team's release of
    ``utility`` (``UTILITY``), the attack phase opened and ``ANSWERS`` uploaded and scored
    (``made.attacks``, in their order); ``made.config`` the round's settings as built."""
    program = Path(__file__).with_name("membership_2025_program.py").read_bytes()
    program_version(made, zipped({"metadata": METADATA, "score.py": program}))
    slots = {
        letter: selectors.slot_of(scorer=made.scorer, team=team).slot
        for letter, team in made.teams.items()
    }
    truth = {
        f"team_{slots[letter]:02d}/ZZ.csv": "\n".join(map(str, bits)).encode()
        for letter, bits in MEMBERS.items()
    }
    services.pack_upload(
        scorer=made.scorer,
        role=DataPack.Role.REFERENCE,
        uploaded_file=upload_file(zipped(truth), "reference.zip", "application/zip"),
        user=made.organizer,
    )
    for letter, value in (utility or UTILITY).items():
        assert release(made, letter, str(value).encode(), name="U.txt").status == "finished"
    attack_phase(made)
    made.attacks = []
    by_slug = {f"team{t}": n for t, n in slots.items()}
    for letter, marked in ANSWERS:
        named = {f"team{t}": rows for t, rows in marked.items()}
        kept = attack(made, letter, answer_csv(named, by_slug), name="FF.csv")
        assert kept.status == "finished", kept.message
        made.attacks.append(kept)
    made.config = dict(made.round.config)
    return made


def membership_round(first: ScorerWorld, *, slug: str, utility: dict) -> ScorerWorld:
    """Another round of ``first``'s competition and teams, played as ``membership_play``
    plays it with ``utility``."""
    from pwscup.kinds.round_basics import RoundBasics
    from pwscup.submissions.services.two_sided import TwoSidedWindows

    now, day = timezone.now(), dt.timedelta(days=1)
    made = ScorerWorld(
        competition=first.competition,
        organizer=first.organizer,
        teams=first.teams,
        users=first.users,
    )
    made.scorer = services.scorer_round_create(
        basics=RoundBasics(competition=first.competition, name=f"Round {slug}", slug=slug),
        config=CONFIG,
        windows=TwoSidedWindows(release=(now - day, now + day), attack=(now + day, now + 3 * day)),
        user=first.organizer,
    )
    return membership_play(made, utility)


def ranking_run(made: ScorerWorld) -> dict:
    """The organizer runs the ranking program (the job run here, as the worker runs it): the
    numbers it gave each team."""
    from pwscup.scorer.models import RankingRun

    run = services.ranking_request(scorer=made.scorer, user=made.organizer)
    services.ranking_score(run_id=run.pk)
    run = RankingRun.objects.get(pk=run.pk)
    assert run.status == RankingRun.Status.FINISHED, (run.message, run.tail)
    return run.teams
