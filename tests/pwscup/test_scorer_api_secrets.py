"""What the scorer round's API never serves to a team, through every answer it gives (the
status, the standings, the lists, each upload and each download the status names): the
hidden packs (reference data, truth folder), another team's release or attack, an exact
attack score while the round shows bands or nothing before the publication, a target's
public ZIP before the freeze, another team's slot folder.

The attack scores are replaced by a sentinel no real score takes (the demo program rounds to
4 decimals), so a served exact score is seen, whatever the route."""

import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.scorer import score_text, selectors, services
from pwscup.scorer.models import Attack, DataPack, Release
from tests.pwscup.scorer_world import (
    CONFIG,
    attack,
    attack_phase,
    guess_bytes,
    release,
    release_bytes,
    scorer_world,
    zipped,
)

pytestmark = pytest.mark.django_db

SENTINEL = 0.61803398  # in the band 0.5–0.75 of the default bands
MARKS = [b"0.61803398", b"0.618"]
TRUTH_MARK = b"TRUTH-SENTINEL-5521"


def bearer(user) -> dict:
    if user is None:
        return {}
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def address(world, name: str, *extra) -> str:
    return reverse(f"api:{name}", args=[world.competition.slug, world.round.slug, *extra])


def body_of(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def played(slug: str, visibility: str):
    """Teams A and B released (noisy copies) and attacked each other; every attack score
    replaced by the sentinel; a truth pack with a mark uploaded."""
    world = scorer_world(slug=slug, letters="abc", config={**CONFIG, "visibility": visibility})
    services.pack_upload(
        scorer=world.scorer,
        role=DataPack.Role.TRUTH,
        uploaded_file=SimpleUploadedFile("truth.zip", zipped({"truth.txt": TRUTH_MARK})),
        user=world.organizer,
    )
    release(world, "a", release_bytes(noise=10, seed=2))
    release(world, "b", release_bytes(noise=20, seed=1))
    targets = attack_phase(world)
    attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    attack(world, "a", guess_bytes(targets["teamb"]), target=targets["teamb"])
    assert Attack.objects.filter(status="finished").count() == 2
    Attack.objects.update(scores={"reidentified": SENTINEL})
    return world


def answers(world, user) -> dict[str, bytes]:
    """Every answer of the round's API to ``user``: the status, the standings, the lists,
    the targets, and every address the status and the lists name."""
    client, headers = Client(), bearer(user)
    out = {}
    for name in ("round-status", "round-standings", "scorer-releases", "scorer-attacks"):
        out[name] = body_of(client.get(address(world, name), **headers))
    out["targets"] = body_of(client.get(address(world, "scorer-targets"), **headers))
    status = json.loads(out["round-status"])
    urls = [d["url"] for d in status.get("downloads", [])]
    for upload in status.get("uploads", []):
        detail = client.get(upload["url"], **headers).json()
        urls += [upload["url"], detail["file_url"]]
    for url in urls:
        response = client.get(url, **headers)
        assert response.status_code == 200, (url, response.status_code)
        out[url] = body_of(response)
    return out


def unzipped(content: bytes) -> bytes:
    """A ZIP's members concatenated (``b""`` for any other body)."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            return b"".join(archive.read(name) for name in archive.namelist())
    except zipfile.BadZipFile:
        return b""


def assert_no_hidden_pack(world, served: dict[str, bytes]) -> None:
    hidden = [
        pack.file.open("rb").read()
        for pack in DataPack.objects.filter(scorer=world.scorer, role__in=DataPack.HIDDEN)
    ]
    assert len(hidden) == 2
    for where, content in served.items():
        assert content not in hidden, where
        assert TRUTH_MARK not in content + unzipped(content), where


@pytest.mark.parametrize("visibility", ["band", "hidden"])
def test_a_team_never_sees_an_exact_attack_score_before_the_publication(visibility):
    world = played(f"scosec{visibility[0]}", visibility)
    for letter in "ab":
        served = answers(world, world.users[letter])
        assert_no_hidden_pack(world, served)
        for where, content in served.items():
            for mark in MARKS:
                assert mark not in content, (letter, where, mark)
        status = json.loads(served["round-status"])
        (mine,) = [u for u in status["uploads"] if u["type"] == "attack"]
        assert mine["scores"] == {"reidentified": None}
        shown = selectors.shown_value(
            SENTINEL, visibility=visibility, bands=selectors.round_config(world.round).bands
        )
        assert mine["scores_text"]["reidentified"] == shown["text"]
        assert shown["text"] != score_text.format_score(SENTINEL)
    # The organizers see the exact scores (and the standings) at once.
    organizer = answers(world, world.organizer)
    assert MARKS[0] in organizer["round-standings"]
    # After the publication, the team sees its exact score.
    services.results_publish(scorer=world.scorer, user=world.organizer)
    after = answers(world, world.users["a"])
    assert MARKS[0] in after["scorer-attacks"] and MARKS[0] in after["round-status"]


def test_another_teams_uploads_and_slot_stay_its_own():
    world = played("scosecx", "exact")
    client = Client()
    a, b = bearer(world.users["a"]), bearer(world.users["b"])
    theirs = Release.objects.get(team=world.teams["b"])
    their_attack = Attack.objects.get(team=world.teams["b"])
    for name, pk in (
        ("scorer-release", theirs.pk),
        ("scorer-release-file", theirs.pk),
        ("scorer-attack", their_attack.pk),
        ("scorer-attack-file", their_attack.pk),
        ("scorer-release-public", theirs.pk),
    ):
        assert client.get(address(world, name, pk), **a).status_code == 404, name
        assert client.get(address(world, name, pk), **b).status_code == 200, name
    assert client.post(address(world, "scorer-release-select", theirs.pk), **a).status_code == 404
    # Its own release is not among the targets it downloads.
    assert client.get(address(world, "scorer-target-public", "teama"), **a).status_code == 404
    slot_a = body_of(client.get(address(world, "scorer-slot"), **a))
    slot_b = body_of(client.get(address(world, "scorer-slot"), **b))
    assert unzipped(slot_a) != unzipped(slot_b)
    assert len(zipfile.ZipFile(io.BytesIO(slot_a)).namelist()) == 1
    # A visitor gets nothing.
    visitor = Client()
    for name in ("scorer-releases", "scorer-attacks", "scorer-public", "scorer-slot"):
        assert visitor.get(address(world, name)).status_code in (401, 403, 404), name


def test_no_target_file_before_the_freeze():
    world = scorer_world(slug="scosecf", letters="ab")
    release(world, "a", release_bytes(noise=10, seed=2))
    client, headers = Client(), bearer(world.users["b"])
    assert client.get(address(world, "scorer-targets"), **headers).status_code == 404
    url = address(world, "scorer-target-public", "teama")
    assert client.get(url, **headers).status_code == 404
    assert client.get(url, **bearer(world.organizer)).status_code == 404
    status = client.get(address(world, "round-status"), **headers).json()
    assert [t["key"] for t in status["submission_types"]] == ["release"]
    assert not any("public.zip" in d["url"] and "targets" in d["url"] for d in status["downloads"])
    attack_url = address(world, "scorer-attacks")
    early = client.post(
        attack_url, {"file": SimpleUploadedFile("g.csv", b"x"), "target": "teama"}, **headers
    )
    assert early.status_code == 403
