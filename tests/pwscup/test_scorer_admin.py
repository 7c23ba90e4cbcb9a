"""The scorer round's admin is read-only and scoped: an organizer given view permissions sees
the rows of the competitions they organize (not another competition's: 404), changes and
deletes nothing, adds nothing."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from pwscup.scorer.models import (
    Attack,
    DataPack,
    ProgramVersion,
    Release,
    ScorerRound,
    Target,
    TeamSlot,
)
from pwscup.scorer.services.runs import host_name
from tests.pwscup.scorer_world import (
    attack,
    attack_phase,
    guess_bytes,
    release,
    release_bytes,
    scorer_world,
)

pytestmark = pytest.mark.django_db

MODELS = (ScorerRound, ProgramVersion, DataPack, TeamSlot, Release, Target, Attack)


def admin_url(model, name: str, *args) -> str:
    meta = model._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{name}", args=args)


def staff_client(user) -> Client:
    user.is_staff = True
    user.save()
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="scorer"))
    client = Client()
    client.force_login(user)
    return client


def test_the_admin_is_read_only_and_scoped_to_the_organizers_competitions():
    world = scorer_world(slug="hcadm", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    targets = attack_phase(world)
    hit = attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    other = scorer_world(slug="hcadm2", letters="c", build=False)
    client = staff_client(world.organizer)
    rows = {
        ScorerRound: world.scorer,
        ProgramVersion: world.program,
        DataPack: DataPack.objects.filter(scorer=world.scorer).first(),
        TeamSlot: TeamSlot.objects.filter(scorer=world.scorer).first(),
        Release: Release.objects.filter(scorer=world.scorer).first(),
        Target: targets["teama"],
        Attack: hit,
    }
    for model, row in rows.items():
        listing = client.get(admin_url(model, "changelist"))
        assert listing.status_code == 200, model
        assert "hcadm2" not in listing.content.decode(), model
        page = client.get(admin_url(model, "change", row.pk))
        assert page.status_code == 200, model
        assert b'name="_save"' not in page.content, model
        assert client.get(admin_url(model, "add")).status_code == 403, model
        assert client.post(admin_url(model, "delete", row.pk), {"post": "yes"}).status_code == 403
        assert model.objects.filter(pk=row.pk).exists()
    # A team slot's folder column is named in the reader's language ("Folder" before).
    slots = client.get(admin_url(TeamSlot, "changelist"), HTTP_ACCEPT_LANGUAGE="ja")
    assert "フォルダ" in slots.content.decode() and "Folder" not in slots.content.decode()
    # Each host's build of the version, read-only beside it.
    version_page = client.get(admin_url(ProgramVersion, "change", world.program.pk))
    assert host_name() in version_page.content.decode()
    theirs = {
        ScorerRound: other.scorer,
        DataPack: DataPack.objects.filter(scorer=other.scorer).first(),
        TeamSlot: TeamSlot.objects.filter(scorer=other.scorer).first(),
    }
    for model, row in theirs.items():
        assert client.get(admin_url(model, "change", row.pk)).status_code == 404, model


def test_a_release_page_shows_its_scores_and_program_version():
    world = scorer_world(slug="hcadm3", letters="a")
    kept = release(world, "a", release_bytes(noise=0))
    client = staff_client(world.organizer)
    page = client.get(admin_url(Release, "change", kept.pk)).content.decode()
    assert "utility" in page and world.program.label in page
    # Its fields are named in the reader's language ("Program ms", "Tail" before).
    ja = client.get(admin_url(Release, "change", kept.pk), HTTP_ACCEPT_LANGUAGE="ja")
    text = ja.content.decode()
    assert "プログラム自体の実行時間（ミリ秒）" in text and "プログラムの出力（末尾）" in text
    assert "Program ms" not in text and "Tail" not in text
