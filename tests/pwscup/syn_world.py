"""A small synthetic round for the platform tests: 3,000 rows of Adult, three teams, the
spec's settings scaled down (so one release scores in well under a second)."""

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from tests.support import settled

ROOT = Path(__file__).resolve().parents[2]
ADULT = ROOT / "fixtures" / "adult.csv"
ROLES = {
    "age": "numeric",
    "workclass": "categorical",
    "fnlwgt": "numeric",
    "education": "categorical",
    "education-num": "numeric",
    "marital-status": "categorical",
    "occupation": "categorical",
    "relationship": "categorical",
    "race": "categorical",
    "sex": "categorical",
    "capital-gain": "numeric",
    "capital-loss": "numeric",
    "hours-per-week": "numeric",
    "native-country": "categorical",
    "income": "categorical",
}
SMALL = {
    "columns": ROLES,
    "label": "income",
    "n_holdout": 500,
    "n_train": 300,
    "n_challenge": 80,
    "n_aux": 300,
}


def adult_rows(rows: int = 3000) -> bytes:
    """The header and the first ``rows`` rows of Adult."""
    lines = ADULT.read_bytes().splitlines(keepends=True)
    return b"".join(lines[: rows + 1])


def upload_file(content: bytes, name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/csv")


@dataclass
class SynWorld:
    competition: object
    organizer: object
    synthetic: object = None
    teams: dict = field(default_factory=dict)
    users: dict = field(default_factory=dict)

    @property
    def round(self):
        return self.synthetic.round


def syn_world(
    *,
    slug: str = "syn",
    letters: str = "abc",
    config: dict | None = None,
    rows: int = 3000,
    password: str = "pw",
    release_limits=(None, None),
    attack_limits=(None, None),
    release_open: bool = True,
    seed: int = 7,
) -> SynWorld:
    """Organizer, teams A, B, C (one member each), and a synthetic round on Adult whose
    release phase is open now (``release_open``) or has closed, the attack phase after it."""
    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.services import competition_create
    from pwscup.kinds.round_basics import RoundBasics
    from pwscup.submissions.services.two_sided import TwoSidedWindows
    from pwscup.synthetic import services

    organizer = user_create(username=f"{slug}-organizer", password=password)
    competition = competition_create(name=f"Syn {slug}", slug=slug, organizers=[organizer])
    world = SynWorld(competition=competition, organizer=organizer)
    for letter in letters:
        world.teams[letter] = team_create(
            competition=competition, name=f"Team {letter.upper()}", slug=f"team{letter.upper()}"
        )
        world.users[letter] = user_create(username=f"{slug}-team-{letter}", password=password)
        membership_add(team=world.teams[letter], user=world.users[letter])
    now = timezone.now()
    day = dt.timedelta(days=1)
    release = (now - day, now + day) if release_open else (now - 2 * day, now - day)
    world.synthetic = services.synthetic_round_create(
        basics=RoundBasics(competition=competition, name="Synthetic", slug="y1"),
        table=adult_rows(rows),
        table_filename="adult.csv",
        config=config or SMALL,
        windows=TwoSidedWindows(
            release=release,
            attack=(release[1], release[1] + 2 * day),
            release_limits=release_limits,
            attack_limits=attack_limits,
        ),
        user=organizer,
        seed=seed,
    )
    return world


def team_train(world: SynWorld, letter: str):
    """Team ``letter``'s members ``T_X`` as a typed frame."""
    from pwscup.synthetic import engine, services

    draw = services.team_draw(synthetic=world.synthetic, team=world.teams[letter])
    return engine.rows_of(engine.draw_population(world.synthetic, draw).population, draw.members)


def baseline_release(world: SynWorld, letter: str, *, seed: int = 0) -> bytes:
    """The kit's sample release of team ``letter`` (independent marginals of its members)."""
    from scoring.synthetic.kit import independent_marginals, table_text

    members = team_train(world, letter)
    return table_text(independent_marginals(members, rows=len(members), seed=seed)).encode()


def copy_release(world: SynWorld, letter: str) -> bytes:
    """A release that copies the team's members: the worst privacy there is."""
    from scoring.synthetic.kit import table_text

    return table_text(team_train(world, letter)).encode()


def near_copy_release(world: SynWorld, letter: str) -> bytes:
    """The team's members with each ``fnlwgt`` moved by one: no row is a copy (R_copy 0, so
    it passes the copy gate and is published), yet each sits next to its member, which the
    built-in DCR attack sees."""
    from scoring.synthetic.kit import table_text

    members = team_train(world, letter).copy()
    members["fnlwgt"] = members["fnlwgt"] + 1
    return table_text(members).encode()


def release(world: SynWorld, letter: str, content: bytes, now=None):
    """Team ``letter`` uploads a release, scored here as the worker does."""
    from pwscup.synthetic import services
    from pwscup.synthetic.models import SynRelease

    world.synthetic.refresh_from_db()
    kept = services.release_upload(
        synthetic=world.synthetic,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=upload_file(content, f"team{letter.upper()}_synthetic.csv"),
        now=now,
    )
    services.release_score(release_id=kept.pk)
    return settled(SynRelease, kept.pk)


def freeze(world: SynWorld):
    """Freeze (as the console's action does) and run the targets' built-in attacks."""
    from pwscup.synthetic import services
    from pwscup.synthetic.models import SynTarget

    world.synthetic.refresh_from_db()
    targets = services.round_freeze(synthetic=world.synthetic, user=world.organizer)
    for target in targets:
        services.target_score(target_id=target.pk)
        settled(SynTarget, target.pk)
    world.synthetic.refresh_from_db()
    return {t.team.slug: t for t in SynTarget.objects.filter(synthetic=world.synthetic)}


def challenge_of(world: SynWorld, target_letter: str):
    """The challenge set of team ``target_letter``'s target as published (typed, id order)."""
    from pwscup.synthetic import engine
    from pwscup.synthetic.models import TeamDraw

    draw = TeamDraw.objects.get(synthetic=world.synthetic, team=world.teams[target_letter])
    return engine.rows_of(engine.draw_population(world.synthetic, draw).population, draw.challenge)


def dcr_answer_bytes(world: SynWorld, target) -> bytes:
    """The kit's sample attack (DCR) on ``target``'s published release."""
    from pwscup.core.stored import stored_bytes
    from pwscup.synthetic import engine
    from scoring.synthetic.kit import dcr_answer
    from scoring.synthetic.release import read_release

    letter = target.team.slug[-1].lower()
    population = engine.team_population(world.synthetic, world.teams[letter]).population
    table = read_release(stored_bytes(target.release.file), population)
    answer = dcr_answer(table, challenge_of(world, letter), population)
    return answer.to_csv(index=False, lineterminator="\n").encode()


def attack(world: SynWorld, letter: str, target, content: bytes, now=None):
    """Team ``letter`` uploads an attack on ``target``, scored here as the worker does."""
    from pwscup.synthetic import services
    from pwscup.synthetic.models import SynAttack

    kept = services.attack_upload(
        target=target,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=upload_file(content, f"team{letter.upper()}_mia.csv"),
        now=now,
    )
    services.attack_score(attack_id=kept.pk)
    return settled(SynAttack, kept.pk)


def open_attack_phase(world: SynWorld) -> None:
    """Move the attack phase to have opened a minute ago."""
    from pwscup.competitions.models import Phase

    now = timezone.now()
    Phase.objects.filter(round=world.round, kind="release").update(
        opens_at=now - dt.timedelta(days=2), closes_at=now - dt.timedelta(minutes=2)
    )
    Phase.objects.filter(round=world.round, kind=Phase.Kind.ATTACK).update(
        opens_at=now - dt.timedelta(minutes=1), closes_at=now + dt.timedelta(days=1)
    )


def labels_of(world: SynWorld, letter: str) -> np.ndarray:
    from pwscup.synthetic.models import TeamDraw

    return np.asarray(
        TeamDraw.objects.get(synthetic=world.synthetic, team=world.teams[letter]).labels
    )
