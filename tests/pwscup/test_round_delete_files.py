"""Deleting a round takes its files out of the storage, never another round's: a clone's
round holds copies of its source's files (none shared), and a file another row still names
stays until that row goes too."""

import pytest
from django.core.files.storage import default_storage

from pwscup.bundles import services
from pwscup.competitions.models import Round
from pwscup.console.round_delete import round_delete, round_files
from tests.pwscup.bundle_helpers import START, creator

pytestmark = pytest.mark.django_db


def _stored(names) -> list[str]:
    return sorted(name for name in names if default_storage.exists(name))


def test_deleting_clones_rounds_keeps_the_source_s_files_and_a_shared_one_while_named(
    world, django_capture_on_commit_callbacks
):
    organizer = creator(world.organizer)
    first, second = (
        services.competition_clone(
            competition=world.competition, name=slug, slug=slug, start=START, user=organizer
        ).rounds.get()
        for slug in ("first", "second")
    )
    source, mine, theirs = (set(round_files(r)) for r in (world.round, first, second))
    assert source and mine and theirs and not (source & mine or source & theirs or mine & theirs)
    # The second copy's round also names one of the first's files (as a shared file would be).
    shared = sorted(mine)[0]
    Round.objects.filter(pk=second.pk).update(original_source=shared)
    with django_capture_on_commit_callbacks(execute=True):
        round_delete(user=organizer, round=first)
    assert _stored(mine) == [shared]
    with django_capture_on_commit_callbacks(execute=True):
        round_delete(user=organizer, round=second)
    assert _stored(mine | theirs) == []
    assert _stored(source) == sorted(source)
