"""A small sequential round for the platform tests: the paper's persons (spec §13), three teams."""

import html
import io
import json
import os
import re
import shlex
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.support import settled

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
    **round_options,
) -> SeqWorld:
    """Organizer, teams A, B, C (one member each), and a sequential round on ``master``
    (default: the paper's U(2), ``zhang_master.csv``; None: none) or a pool."""
    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.services import competition_create
    from pwscup.kinds.round_basics import RoundBasics
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
        basics=RoundBasics(competition=competition, name="Sequential", slug="s1"),
        config=config,
        master_file=upload_file(master, "master.csv") if master is not None else None,
        pool_file=upload_file(pool, "pool.csv") if pool is not None else None,
        user=organizer,
        **round_options,
    )
    return world


def publish(world: SeqWorld, letter: str, step: int, content: bytes, now=None, name=None):
    """Team ``letter`` uploads ``release_<step>.csv`` (or ``name``; checked at once) at
    ``now``."""
    from pwscup.sequential import services

    world.sequential.refresh_from_db()
    release = services.release_upload(
        sequential=world.sequential,
        team=world.teams[letter],
        user=world.users[letter],
        step=step,
        uploaded_file=upload_file(content, name or f"release_{step}.csv"),
        now=now,
    )
    return check(release)


def check(release):
    """Run the release's check here, as the worker does (``release_check``)."""
    from pwscup.sequential import services
    from pwscup.sequential.models import Release

    services.release_check(release_id=release.pk)
    return settled(Release, release.pk)


def attack(world: SeqWorld, letter: str, target, content: bytes, now=None, name="attack.csv"):
    """Team ``letter`` uploads guesses on ``target`` (a file ``name``), scored here as the
    worker does."""
    from pwscup.sequential import services
    from pwscup.sequential.models import SeqAttack

    upload = services.attack_upload(
        target=target,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=upload_file(content, name),
        now=now,
    )
    services.attack_score(attack_id=upload.pk)
    return settled(SeqAttack, upload.pk)


def run_seq_jobs():
    """Run every queued release check and attack, in upload order, as the worker does."""
    from pwscup.sequential import services
    from pwscup.sequential.models import Release, SeqAttack

    for pk in Release.objects.filter(status="queued").order_by("pk").values_list("pk", flat=True):
        services.release_check(release_id=pk)
        settled(Release, pk)
    for pk in SeqAttack.objects.filter(status="queued").order_by("pk").values_list("pk", flat=True):
        services.attack_score(attack_id=pk)
        settled(SeqAttack, pk)


def freeze(world: SeqWorld) -> int:
    from pwscup.sequential import services

    world.sequential.refresh_from_db()
    step = services.step_freeze(sequential=world.sequential, user=world.organizer)
    world.sequential.refresh_from_db()
    return step


def attack_phase_world(*, letters: str = "ab", **options) -> SeqWorld:
    """The small example's attack phase: teams A and B (or ``letters``), each with its own
    master (the W3 master), publish 表 12 and 表 13 and both steps are frozen. ``options`` go
    to :func:`seq_world` (``slug``, ``pool``, ``password``…)."""
    from pwscup.sequential import services

    config = {**fixture_config("small_config.json"), "attack_phase": True}
    world = seq_world(config=config, master=None, letters=letters, **options)
    for letter in letters:
        services.master_upload(
            sequential=world.sequential,
            uploaded_file=upload_file(fixture("small_master.csv"), "master.csv"),
            team=world.teams[letter],
        )
        publish(world, letter, 1, fixture("small_release_1.csv"))
    freeze(world)
    for letter in letters:
        publish(world, letter, 2, fixture("small_release_2.csv"))
    freeze(world)
    return world


# --- the round page's local check command, run on the files the page serves ------------


def url(world, name, *args):
    return reverse(name, args=[world.competition.slug, world.round.slug, *args])


def tab(world, key: str) -> str:
    """The address of a tab of the round's page ("overview", "data", "rules", ...)."""
    from pwscup.kinds.tabs import tab_url

    return tab_url(world.round, key)


def page_command(client, world) -> list[str]:
    """The command printed on the round page's Submit tab, as words."""
    page = client.get(tab(world, "submit")).content.decode()
    found = re.search(r'data-testid="check-command">([^<]*)</pre>', page)
    assert found, "the Submit tab prints no local check command"
    return shlex.split(html.unescape(found.group(1)))


def downloads(client, world, releases: dict) -> dict[str, bytes]:
    """master.csv, config.json and the team's release files, as the page serves them."""
    files = {
        "master.csv": client.get(url(world, "sequential:master")),
        "config.json": client.get(url(world, "sequential:config")),
    }
    for step, release in releases.items():
        files[f"release_{step}.csv"] = client.get(url(world, "sequential:release_file", release.pk))
    for name, response in files.items():
        assert response.status_code == 200, name
        assert f'filename="{name}"' in response["Content-Disposition"], name
    return {name: response.content for name, response in files.items()}


def run(
    command: list[str], files: dict[str, bytes], folder, *, python=None, env=None
) -> tuple[dict, str]:
    """Run the page's command in ``folder`` holding ``files``: (its JSON summary, the
    per-person table it writes). By default with this interpreter and the repository on
    ``PYTHONPATH``; ``python``/``env``: another environment (the toolkit's)."""
    assert command[:5] == ["python", "-m", "scoring", "seq", "check"], command
    folder.mkdir(exist_ok=True)
    for name, content in files.items():
        (folder / name).write_bytes(content)
    python = python or sys.executable
    argv = [str(python), *command[1:], "--format", "json", "--per-person", "risk.csv"]
    done = subprocess.run(
        argv,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env=env or {**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout), (folder / "risk.csv").read_text()


def assert_same(local: dict, stored: dict):
    """Every number the command prints is the stored one, exactly."""
    assert local, "nothing printed"
    for key, value in local.items():
        assert stored[key] == value, (key, value, stored[key])


# --- the starter kit and the sample release, as the Data tab serves them -------------------


def kit_members(client, world) -> dict[str, bytes]:
    """The team's starter kit (``client``'s), member name → bytes."""
    response = client.get(url(world, "sequential:kit"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def sample(client, world) -> tuple[str, bytes]:
    """The Data tab's sample release: (its file name, its bytes)."""
    response = client.get(url(world, "sequential:sample"))
    assert response.status_code == 200, response.content
    name = re.search(r'filename="([^"]+)"', response["Content-Disposition"]).group(1)
    return name, response.content


def readme_commands(readme: str) -> list[list[str]]:
    """The ``python -m scoring seq …`` commands of the kit README's English part, in order."""
    english = readme.split("## 日本語")[0]
    return [
        shlex.split(line.strip())
        for line in english.splitlines()
        if line.startswith("    python -m scoring seq ")
    ]


def run_in(folder, command: list[str], *, python=None, env=None) -> str:
    """Run a ``python …`` command of the kit in ``folder``; its output."""
    assert command[0] == "python", command
    done = subprocess.run(
        [str(python or sys.executable), *command[1:]],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env=env or {**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def kit_round_trip(client, world, letter: str, folder, *, python=None, env=None):
    """Team ``letter`` follows its kit's README in ``folder``: the baseline command writes
    exactly the Data tab's sample; uploaded, it is valid; the README's check command gives
    the numbers the server stored. Returns the stored release."""
    from pwscup.sequential.models import Release

    members = kit_members(client, world)
    folder.mkdir(exist_ok=True)
    for name, content in members.items():
        (folder / name).write_bytes(content)
    commands = readme_commands(members["README.md"].decode())
    baseline = [c for c in commands if c[4] == "baseline"]
    check_command = [c for c in commands if c[4] == "check"]
    assert baseline and len(check_command) == 1, commands
    for command in baseline:
        run_in(folder, command, python=python, env=env)
    name, content = sample(client, world)
    assert (folder / name).read_bytes() == content, name
    step = int(re.fullmatch(r"release_(\d+)\.csv", name).group(1))
    release = publish(world, letter, step, content)
    assert release.status == Release.Status.FINISHED, release.message
    assert release.results["MINV"] >= world.sequential.config["m"]
    # Batch: the README checks all n releases it writes; the sample is release ``step``'s.
    command = check_command[0]
    command = [*command[:6], *command[6:-2][:step], *command[-2:]]
    names = ["master.csv", "config.json", *command[6:-2]]
    files = {n: (folder / n).read_bytes() for n in names}
    local, _per_person = run(command, files, folder / "check", python=python, env=env)
    assert_same(local, release.results)
    return release
