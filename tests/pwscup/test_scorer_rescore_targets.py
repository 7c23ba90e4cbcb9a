"""A new program version in the attack phase (PWSCup 2026: a scoring program per kit release,
replaced mid-contest): *Rescore with vN* replaces the frozen releases' scores, but never the
files the freeze published to the attackers, which they downloaded and attacked."""

import io
import zipfile

import pytest

from pwscup.scorer import services
from pwscup.scorer.models import Attack, Release
from tests.pwscup.scorer_world import (
    attack,
    attack_phase,
    guess_bytes,
    program_version,
    public_release,
    release,
    release_bytes,
    scorer_world,
)
from tests.pwscup.test_scorer_services import zipped_program

pytestmark = pytest.mark.django_db

HEADER = 'writer.writerow(["row", *NUMERIC])'


def _public_of(upload) -> bytes:
    with upload.public.open("rb") as handle:
        with zipfile.ZipFile(io.BytesIO(handle.read())) as archive:
            return archive.read("release.csv")


def test_a_rescore_after_the_freeze_keeps_the_targets_published_files():
    from scoring.scorer.demo import demo_program_zip

    world = scorer_world(slug="resctg", letters="ab")
    older = release(world, "a", release_bytes(noise=5, seed=2))
    release(world, "a", release_bytes(noise=10))
    release(world, "b", release_bytes(noise=20, seed=1))
    targets = attack_phase(world)
    published = {slug: public_release(target) for slug, target in targets.items()}
    hit = attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    assert hit.status == "finished", hit.message
    # Version 2 writes its public file with another header.
    changed = zipped_program(demo_program_zip(), HEADER, HEADER.replace('"row"', '"row_v2"'))
    second = program_version(world, changed)
    assert second.status == "finished", second.message
    assert services.rescore_outdated(scorer=world.scorer, user=world.organizer) == 4
    for pk in Release.objects.filter(scorer=world.scorer).values_list("pk", flat=True):
        services.release_score(release_id=pk)
    services.attack_score(attack_id=hit.pk)
    for slug, target in targets.items():
        target.refresh_from_db()
        rescored = Release.objects.get(pk=target.release_id)
        assert rescored.program_id == second.pk
        assert public_release(target) == published[slug], slug
    assert Attack.objects.get(pk=hit.pk).program_id == second.pk
    # A release no freeze published gets the new version's files.
    assert _public_of(Release.objects.get(pk=older.pk)).startswith(b"row_v2,")
