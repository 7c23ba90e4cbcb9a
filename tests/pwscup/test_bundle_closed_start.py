"""A lecturer importing or cloning last term's competition with a start that puts phases in
the past (last term's date typed again): the console and ``bundle_import`` refuse it at the
start, naming each round and phase already closed and what to do, unless the organizer
confirms (the tick, ``--allow-closed``); nothing is created on the refusal."""

import datetime as dt
import io

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone, translation

from pwscup.bundles import services
from pwscup.bundles.selectors import competition_bundle
from pwscup.competitions.models import Competition
from tests.pwscup.bundle_helpers import START, creator
from tests.pwscup.rendered_forms import post_as_rendered

pytestmark = pytest.mark.django_db


def _last_term() -> str:
    """A start a term ago, as the page's field takes it (the server's time zone)."""
    return timezone.localtime(timezone.now() - dt.timedelta(days=120)).strftime("%Y-%m-%dT%H:%M")


def test_the_import_page_refuses_a_start_whose_phases_have_closed_naming_them(client, world):
    client.force_login(creator(world.organizer))
    bundle = competition_bundle(competition=world.competition).data
    address = reverse("bundles:import")
    fill = {"bundle": ("cup-bundle.zip", bundle), "slug": "again", "start": _last_term()}
    refused = post_as_rendered(client, address, "bundle-import-form", fill)
    assert refused.status_code == 200
    page = refused.content.decode()
    closed = "With this start, 2 phases would already be closed: Round (r1): Anonymization phase"
    assert closed in page
    assert "; Round (r1): Attack phase, closed " in page
    assert "The form was not saved: 1 error, marked below." in page  # one, at the start
    assert "Choose a later start, or, to keep this one, tick “Keep this start even though" in page
    assert not Competition.objects.filter(slug="again").exists()
    confirmed = post_as_rendered(
        client, address, "bundle-import-form", fill | {"closed_allowed": True}
    )
    assert confirmed.status_code == 302
    assert Competition.objects.filter(slug="again").exists()


def test_the_clone_page_refuses_it_too_in_japanese(client, world):
    client.force_login(creator(world.organizer))
    address = reverse("bundles:clone", args=[world.competition.slug])
    fill = {"name": "今期", "slug": "kondo", "start": _last_term()}
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    refused = post_as_rendered(client, address, "bundle-clone-form", fill)
    page = refused.content.decode()
    assert refused.status_code == 200
    assert "この開始日時では、2 件のフェーズがすでに終了しています" in page
    assert not Competition.objects.filter(slug="kondo").exists()


def test_a_start_still_ahead_imports_without_the_tick(world):
    organizer = creator(world.organizer)
    data = competition_bundle(competition=world.competition).data
    copy = services.competition_import(
        bundle_file=io.BytesIO(data),
        name="",
        slug="later",
        start=START,
        user=organizer,
        closed_allowed=False,
    )
    assert copy.rounds.count() == 1


def test_bundle_import_refuses_it_unless_allow_closed(world, tmp_path):
    path = tmp_path / "cup.zip"
    path.write_bytes(competition_bundle(competition=world.competition).data)
    organizer = creator(world.organizer)
    start = (timezone.now() - dt.timedelta(days=120)).isoformat()
    arguments = ["bundle_import", str(path), "--slug", "cli", "--start", start]
    arguments += ["--organizer", organizer.username]
    with translation.override("en"), pytest.raises(CommandError) as refused:
        call_command(*arguments, stdout=io.StringIO())
    assert "--allow-closed" in str(refused.value)
    assert "Round (r1): Attack phase, closed " in str(refused.value)
    assert not Competition.objects.filter(slug="cli").exists()
    call_command(*arguments, "--allow-closed", stdout=io.StringIO())
    assert Competition.objects.filter(slug="cli").exists()
