"""A small round scored by the organizer's program for the platform tests: the demo program of
``scoring.scorer.demo`` (standard library only), 60 people of reference data, three teams.

Jobs run here as the worker runs them (the services' job functions, in this process); the
sandbox is the real bubblewrap."""

import datetime as dt
import io
import zipfile
from dataclasses import dataclass, field

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from scoring.scorer.demo import (
    demo_attack_csv,
    demo_program_zip,
    demo_reference_csv,
    demo_reference_zip,
    demo_release_csv,
)
from tests.support import settled

ROWS = 60
CONFIG = {
    "release_columns": [
        {"key": "utility", "label": "Utility", "label_ja": "有用性", "higher_is_better": True}
    ],
    "attack_columns": [
        {
            "key": "reidentified",
            "label": "Re-identified",
            "label_ja": "再識別率",
            "higher_is_better": True,
        }
    ],
    "limits": {"timeout_seconds": 60, "memory_mb": 1024, "processes": 64},
}


def upload_file(content: bytes, name: str, content_type: str = "text/csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type=content_type)


def reference_csv() -> bytes:
    return demo_reference_csv(rows=ROWS, seed=3)


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@dataclass
class ScorerWorld:
    competition: object
    organizer: object
    scorer: object = None
    program: object = None
    teams: dict = field(default_factory=dict)
    users: dict = field(default_factory=dict)

    @property
    def round(self):
        return self.scorer.round


def scorer_world(
    *,
    slug: str = "sco",
    letters: str = "abc",
    config: dict | None = None,
    password: str = "pw",
    release_open: bool = True,
    release_limits=(None, None),
    attack_limits=(None, None),
    program: bytes | None = None,
    build: bool = True,
) -> ScorerWorld:
    """Organizer, teams A, B, C (one member each), and a scorer round whose release phase is
    open now (``release_open``) or has closed, the attack phase after it; the demo program
    uploaded and built (``build``), the reference data and a slots pack uploaded."""
    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.services import competition_create
    from pwscup.kinds.round_basics import RoundBasics
    from pwscup.scorer import services
    from pwscup.scorer.models import DataPack
    from pwscup.submissions.services.two_sided import TwoSidedWindows

    organizer = user_create(username=f"{slug}-organizer", password=password)
    competition = competition_create(name=f"Scorer {slug}", slug=slug, organizers=[organizer])
    world = ScorerWorld(competition=competition, organizer=organizer)
    for letter in letters:
        world.teams[letter] = team_create(
            competition=competition, name=f"Team {letter.upper()}", slug=f"team{letter}"
        )
        world.users[letter] = user_create(username=f"{slug}-team-{letter}", password=password)
        membership_add(team=world.teams[letter], user=world.users[letter])
    now = timezone.now()
    day = dt.timedelta(days=1)
    release = (now - day, now + day) if release_open else (now - 2 * day, now - day)
    world.scorer = services.scorer_round_create(
        basics=RoundBasics(competition=competition, name="Scored by the organizer", slug="s1"),
        config=config or CONFIG,
        windows=TwoSidedWindows(
            release=release,
            attack=(release[1], release[1] + 2 * day),
            release_limits=release_limits,
            attack_limits=attack_limits,
        ),
        user=organizer,
    )
    services.pack_upload(
        scorer=world.scorer,
        role=DataPack.Role.REFERENCE,
        uploaded_file=upload_file(demo_reference_zip(rows=ROWS, seed=3), "reference.zip"),
        user=organizer,
    )
    services.pack_upload(
        scorer=world.scorer,
        role=DataPack.Role.PUBLIC,
        uploaded_file=upload_file(zipped({"README.txt": b"Release release.csv.\n"}), "pub.zip"),
        user=organizer,
    )
    services.pack_upload(
        scorer=world.scorer,
        role=DataPack.Role.SLOTS,
        uploaded_file=upload_file(
            zipped({f"team_{n:02d}/mine.txt": f"slot {n}\n".encode() for n in range(1, 4)}),
            "slots.zip",
        ),
        user=organizer,
    )
    if build:
        world.program = program_version(world, program or demo_program_zip())
    return world


def program_version(world: ScorerWorld, data: bytes, name: str = "program.zip"):
    """The organizer uploads a program version; its build runs here as the worker does."""
    from pwscup.scorer import services
    from pwscup.scorer.models import ProgramVersion

    version = services.program_upload(
        scorer=world.scorer,
        uploaded_file=upload_file(data, name, "application/zip"),
        user=world.organizer,
    )
    services.program_build(program_id=version.pk)
    return ProgramVersion.objects.get(pk=version.pk)


def release_bytes(noise: int, seed: int = 0) -> bytes:
    return demo_release_csv(reference_csv(), noise=noise, seed=seed)


def release(world: ScorerWorld, letter: str, content: bytes, name: str = "release.csv", now=None):
    """Team ``letter`` uploads a release, scored here as the worker does."""
    from pwscup.scorer import services
    from pwscup.scorer.models import Release

    world.scorer.refresh_from_db()
    kept = services.release_upload(
        scorer=world.scorer,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=upload_file(content, name),
        now=now,
    )
    services.release_score(release_id=kept.pk)
    return settled(Release, kept.pk)


def freeze(world: ScorerWorld):
    """Freeze as the console's action does; the targets by team slug."""
    from pwscup.scorer import services
    from pwscup.scorer.models import Target

    world.scorer.refresh_from_db()
    services.round_freeze(scorer=world.scorer, user=world.organizer)
    world.scorer.refresh_from_db()
    return {t.team.slug: t for t in Target.objects.filter(scorer=world.scorer)}


def public_release(target) -> bytes:
    """The target's published ``release.csv`` (what attackers download)."""
    with target.release.public.open("rb") as handle:
        with zipfile.ZipFile(io.BytesIO(handle.read())) as archive:
            return archive.read("release.csv")


def guess_bytes(target) -> bytes:
    """A nearest-neighbour attack on ``target``'s published release."""
    return demo_attack_csv(public_release(target), reference_csv())


def attack(
    world: ScorerWorld, letter: str, content: bytes, target=None, name="guess.csv", now=None
):
    """Team ``letter`` uploads an attack (on ``target``, or on every target), scored here."""
    from pwscup.scorer import services
    from pwscup.scorer.models import Attack

    world.scorer.refresh_from_db()
    kept = services.attack_upload(
        scorer=world.scorer,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=upload_file(content, name),
        target=target,
        now=now,
    )
    services.attack_score(attack_id=kept.pk)
    return settled(Attack, kept.pk)


def attack_phase(world: ScorerWorld):
    """The organizer opens the attack phase now (the release phase closes, the round freezes)."""
    from pwscup.scorer import services
    from pwscup.scorer.models import Target

    world.scorer.refresh_from_db()
    services.attack_phase_open_now(scorer=world.scorer, user=world.organizer)
    world.scorer.refresh_from_db()
    world.round.refresh_from_db()
    return {t.team.slug: t for t in Target.objects.filter(scorer=world.scorer)}
