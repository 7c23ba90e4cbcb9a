"""Helpers for the results archive's tests: played and published rounds of each kind, the
archive's members read back, and the secrets to look for in them."""

import hashlib
import io
import json
import zipfile

import pandas as pd
from django.test import Client
from django.urls import reverse

from pwscup.archives.services import archive_publish
from pwscup.kinds.archives import SECRETS
from pwscup.pwscup2015.models import TeamDataset
from tests.pwscup.factories import (
    freeze,
    read_field,
    run_operations,
    scored,
    scored_attack,
    team_original,
    truth_of,
)
from tests.support import noisy_copy, table_bytes

ALL_SECRETS = list(SECRETS)


def far_copy(original: bytes, *, seed: int) -> bytes:
    """A valid anonymization none of whose rows is a row of ``original`` (every fnlwgt
    moved), so that any original row found in the archive is a leak."""
    table = pd.read_csv(io.BytesIO(noisy_copy(original, seed=seed)), dtype=str)
    table["fnlwgt"] = (table["fnlwgt"].astype(int) + 1).astype(str)
    return table_bytes(table)


def play_2015(world, *, publish: bool = True):
    """Every team submits, the round freezes, B and C attack A, the results are published."""
    from pwscup.pwscup2015.services import round_publish_request

    for seed, letter in enumerate("abc", start=1):
        scored(world, letter, content=far_copy(team_original(world, letter), seed=seed))
    targets = freeze(world)
    truth = truth_of(targets["a"])
    half = truth.copy()
    half[len(half) // 2 :] = 0
    scored_attack(world, "b", targets["a"], half)
    scored_attack(world, "c", targets["a"], truth)
    if publish:
        round_publish_request(round=world.round, requested_by=world.organizer)
        run_operations()
    world.round.refresh_from_db()
    return targets


def data_lines(content: bytes) -> list[bytes]:
    """The rows of a CSV (no header), as the bytes a leak would carry."""
    return [line for line in content.splitlines()[1:] if line.strip()]


def secrets_2015(world, targets) -> dict[str, list[bytes]]:
    """Byte strings that must never be in an archive with nothing ticked."""
    found = {
        "original": [world.original, *data_lines(world.original)],
        "truth": [read_field(t.truth_file) for t in targets.values()],
        "samples": [],
    }
    for dataset in TeamDataset.objects.filter(round=world.round):
        sample = read_field(dataset.file)
        found["samples"] += [sample, *data_lines(sample)]
    for target in targets.values():
        if target.candidate_file:
            found["samples"].append(read_field(target.candidate_file))
    return found


def archive_zip(content: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def fetch(client: Client, competition_slug: str, version: int):
    return client.get(
        reverse(
            "archives:download", kwargs={"competition_slug": competition_slug, "version": version}
        )
    )


def body(response) -> bytes:
    return b"".join(response.streaming_content)


def publish_and_read(competition, *, secrets=(), user=None) -> tuple[object, dict[str, bytes]]:
    archive = archive_publish(competition=competition, secrets=list(secrets), user=user)
    return archive, archive_zip(read_field(archive.file))


def manifest(members: dict[str, bytes]) -> dict:
    return json.loads(members["manifest.json"])


def leaks(members: dict[str, bytes], secrets: list[bytes]) -> list[tuple[str, bytes]]:
    """(member, secret) for every secret byte string found in a member's bytes."""
    return [
        (name, secret[:60])
        for name, content in members.items()
        for secret in secrets
        if secret and secret in content
    ]


def sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()
