"""A two-sided round's release phase has its game's key, ``release``: the data migrations of
the synthetic and scorer kinds move a phase stored under the first game's key
(``anonymization``) to it and back, for their own rounds only (a 2015 round's anonymization
phase keeps its key), and the phase's name is the one its game gives."""

import importlib

import pytest
from django.apps import apps
from django.db import connection

from pwscup.competitions.models import Phase
from pwscup.submissions.services.two_sided import RELEASE
from tests.pwscup.syn_world import syn_world
from tests.support import build_world

pytestmark = pytest.mark.django_db

MIGRATIONS = {
    "synthetic": "pwscup.synthetic.migrations.0003_release_phase_key",
    "scorer": "pwscup.scorer.migrations.0006_release_phase_key",
}


@pytest.mark.parametrize("kind", sorted(MIGRATIONS))
def test_the_migration_moves_its_kinds_release_phase_only(kind):
    world = syn_world(slug=f"key-{kind}", letters="a")
    first_game = build_world(slug=f"first-{kind}")
    world.round.kind = kind  # the migration reads the round's kind only
    world.round.save(update_fields=["kind"])
    Phase.objects.filter(round=world.round, kind=RELEASE).update(kind="anonymization")
    migration = importlib.import_module(MIGRATIONS[kind])
    with connection.schema_editor() as editor:  # the database being migrated
        migration.to_release(apps, editor)
    assert set(world.round.phases.values_list("kind", flat=True)) == {RELEASE, "attack"}
    assert first_game.round.phases.filter(kind="anonymization").exists()
    with connection.schema_editor() as editor:
        migration.to_anonymization(apps, editor)
    assert set(world.round.phases.values_list("kind", flat=True)) == {"anonymization", "attack"}
    assert not first_game.round.phases.filter(kind=RELEASE).exists()


def test_a_phase_is_named_by_its_game():
    world = syn_world(slug="key-names", letters="a")
    release = world.round.phases.get(kind=RELEASE)
    first_game = build_world(slug="first-names").round.phases.get(kind="anonymization")
    assert (release.label, first_game.label) == ("Release phase", "Anonymization phase")
    assert str(release).endswith("/ Release phase")
