"""A small sequential round for the platform tests: the paper's persons (spec §13), three teams."""

import json
from dataclasses import dataclass, field
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "sequential"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def fixture_config(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def upload_file(content: bytes, name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/csv")


@dataclass
class SeqWorld:
    competition: object
    organizer: object
    sequential: object = None
    teams: dict = field(default_factory=dict)
    users: dict = field(default_factory=dict)

    @property
    def round(self):
        return self.sequential.round


def seq_world(
    *,
    slug: str = "seq",
    config: dict | None = None,
    master: bytes | None | str = "paper",
    pool: bytes | None = None,
    letters: str = "abc",
    password: str = "pw",
) -> SeqWorld:
    """Organizer, teams A, B, C (one member each), and a sequential round on ``master``
    (default: the paper's U(2), ``zhang_master.csv``; None: none) or a pool."""
    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.services import competition_create
    from pwscup.sequential import services

    organizer = user_create(username=f"{slug}-organizer", password=password)
    competition = competition_create(name=f"Seq {slug}", slug=slug, organizers=[organizer])
    world = SeqWorld(competition=competition, organizer=organizer)
    for letter in letters:
        world.teams[letter] = team_create(
            competition=competition, name=f"Team {letter.upper()}", slug=f"team{letter.upper()}"
        )
        world.users[letter] = user_create(username=f"{slug}-team-{letter}", password=password)
        membership_add(team=world.teams[letter], user=world.users[letter])
    if config is None:
        config = fixture_config("zhang_config.json")
    if master == "paper":
        master = fixture("zhang_master.csv")
    world.sequential = services.sequential_round_create(
        competition=competition,
        name="Sequential",
        slug="s1",
        config=config,
        master_file=upload_file(master, "master.csv") if master is not None else None,
        pool_file=upload_file(pool, "pool.csv") if pool is not None else None,
        user=organizer,
    )
    return world


def publish(world: SeqWorld, letter: str, step: int, content: bytes, now=None):
    """Team ``letter`` uploads ``release_<step>.csv`` (checked at once) at ``now``."""
    from pwscup.sequential import services

    world.sequential.refresh_from_db()
    release = services.release_upload(
        sequential=world.sequential,
        team=world.teams[letter],
        user=world.users[letter],
        step=step,
        uploaded_file=upload_file(content, f"release_{step}.csv"),
        now=now,
    )
    return check(release)


def check(release):
    """Run the release's check here, as the worker does (``release_check``)."""
    from pwscup.sequential import services
    from pwscup.sequential.models import Release

    services.release_check(release_id=release.pk)
    return Release.objects.get(pk=release.pk)


def attack(world: SeqWorld, letter: str, target, content: bytes, now=None):
    """Team ``letter`` uploads guesses on ``target``, scored here as the worker does."""
    from pwscup.sequential import services
    from pwscup.sequential.models import SeqAttack

    upload = services.attack_upload(
        target=target,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=upload_file(content, "attack.csv"),
        now=now,
    )
    services.attack_score(attack_id=upload.pk)
    return SeqAttack.objects.get(pk=upload.pk)


def run_seq_jobs():
    """Run every queued release check and attack, in upload order, as the worker does."""
    from pwscup.sequential import services
    from pwscup.sequential.models import Release, SeqAttack

    for pk in Release.objects.filter(status="queued").order_by("pk").values_list("pk", flat=True):
        services.release_check(release_id=pk)
    for pk in SeqAttack.objects.filter(status="queued").order_by("pk").values_list("pk", flat=True):
        services.attack_score(attack_id=pk)


def freeze(world: SeqWorld) -> int:
    from pwscup.sequential import services

    world.sequential.refresh_from_db()
    step = services.step_freeze(sequential=world.sequential, user=world.organizer)
    world.sequential.refresh_from_db()
    return step
