"""Every kind's import names every error of a round's settings in one answer, each by its
path (``docs/bundles.md``, *What an import checks*): the kinds read an entry through the
core's one collector (``pwscup.kinds.bundles.BundleChecks``).

Run once per registered kind and per test-only kind (``tests/kinds/conftest.py``); each
player spoils its round's exported settings with independent faults
(``Player.bundle_faults``)."""

import datetime as dt
import io

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from pwscup.bundles.services import competition_export, competition_import
from pwscup.competitions.models import Competition
from tests.kinds.players import creator
from tests.pwscup.bundle_helpers import rebuilt


def test_one_import_names_every_error_of_a_round_by_its_path(player, arena_of):
    arena = arena_of()
    exported = competition_export(competition=arena.competition, user=arena.organizer)
    paths = []

    def spoil(manifest):
        paths.extend(player.bundle_faults(manifest["rounds"][0]["settings"]))

    spoiled = rebuilt(exported, change=spoil)
    with pytest.raises(ValidationError) as caught:
        competition_import(
            bundle_file=io.BytesIO(spoiled),
            name="Spoiled",
            slug="spoiled",
            start=timezone.now() + dt.timedelta(days=30),
            user=creator(arena.organizer),
        )
    assert len(set(paths)) >= 3
    messages = caught.value.messages
    where = f"manifest.json: rounds[0] ({arena.round.slug}).settings."
    for path in paths:
        assert any(message.startswith(f"{where}{path}: ") for message in messages), (
            path,
            messages,
        )
    assert not Competition.objects.filter(slug="spoiled").exists()
