"""Who may open what of a scorer round: role × state × URL as data, every answer (ZIPs opened)
scanned for the hidden data packs (reference, truth), another team's release file and an
attack's exact score before the publication when the round hides it."""

import io
import zipfile

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse

from pwscup.scorer import score_text, services
from pwscup.scorer.models import DataPack, Release
from tests.pwscup.scorer_world import (
    CONFIG,
    attack,
    attack_phase,
    guess_bytes,
    reference_csv,
    release,
    release_bytes,
    scorer_world,
    upload_file,
    zipped,
)

pytestmark = pytest.mark.django_db

ROLES = ("a", "b", "organizer", "visitor")
TABS = ("overview", "data", "rules", "submit", "results")
TRUTH = b"truth-row-7f3a9c,secret-label\n"
DETAIL = b"<p>team A's own detailed results 5e1d</p>"

# key → expected status per role (a, b, organizer, visitor), by state
BEFORE_FREEZE = {
    **{f"tab_{t}": (200, 200, 200, 200) for t in TABS},
    "public_pack": (200, 200, 200, 404),
    "slot_a": (200, 404, 200, 404),
    "slot_b": (404, 200, 200, 404),
    "target_a": (404, 404, 404, 404),
    "file_a": (200, 404, 200, 404),
    "detail_a": (200, 404, 200, 404),
    "public_a": (200, 404, 200, 404),
    "file_bad_kind": (404, 404, 404, 404),
}
AFTER_FREEZE = {**BEFORE_FREEZE, "target_a": (200, 200, 200, 404)}


def urls(world, first: Release) -> dict:
    comp, rnd = world.competition.slug, world.round.slug

    def kind(name, *args):
        return reverse(f"scorer:{name}", args=[comp, rnd, *args])

    return {
        **{
            f"tab_{t}": reverse("round_detail", args=[comp, rnd])
            if t == "overview"
            else reverse("round_tab", args=[comp, rnd, t])
            for t in TABS
        },
        "public_pack": kind("public_pack"),
        "slot_a": kind("slot_folder", "teama"),
        "slot_b": kind("slot_folder", "teamb"),
        "target_a": kind("target_public", "teama"),
        "file_a": kind("upload_file", "releases", first.pk),
        "detail_a": kind("upload_detail", "releases", first.pk),
        "public_a": kind("release_public", first.pk),
        "file_bad_kind": kind("upload_file", "packs", first.pk),
    }


def body_of(response) -> bytes:
    data = b"".join(response) if response.streaming else response.content
    if data.startswith(b"PK"):
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            data += b"".join(archive.read(name) for name in archive.namelist())
    return data


def visit_all(client, world, expected: dict, *, first: Release, secrets: list[bytes]) -> dict:
    users = {"a": world.users["a"], "b": world.users["b"], "organizer": world.organizer}
    bodies = {}
    for index, role in enumerate(ROLES):
        client.logout()
        if role != "visitor":
            client.force_login(users[role])
        for key, url in urls(world, first).items():
            response = client.get(url)
            assert response.status_code == expected[key][index], (role, key)
            body = body_of(response)
            bodies[(role, key)] = body
            for secret in secrets:
                assert secret not in body, (role, key, secret)
            if role in ("b", "visitor"):
                assert DETAIL not in body, (role, key)
    return bodies


def test_scorer_access_matrix_and_secret_scan_through_the_round(client):
    world = scorer_world(slug="sac1")
    services.pack_upload(
        scorer=world.scorer,
        role=DataPack.Role.TRUTH,
        uploaded_file=upload_file(zipped({"truth.csv": TRUTH}), "truth.zip"),
        user=world.organizer,
    )
    first = release(world, "a", release_bytes(noise=30, seed=2))
    first.detail.save("detailed_results.html", ContentFile(DETAIL))
    release(world, "b", release_bytes(noise=20, seed=1))
    # The reference rows (none a release copied): the program reads them; no page or file
    # of a team holds them.
    released = release_bytes(noise=30, seed=2) + release_bytes(noise=20, seed=1)
    reference = [
        line + b"\n" for line in reference_csv().splitlines()[1:] if line + b"\n" not in released
    ]
    assert len(reference) >= 20, "the scan needs rows to look for"
    secrets = [TRUTH, *reference[:20]]
    bodies = visit_all(client, world, BEFORE_FREEZE, first=first, secrets=secrets)
    # Team A's own release file is A's (and the organizers'): byte for byte.
    assert bodies[("a", "file_a")] == release_bytes(noise=30, seed=2)
    assert bodies[("a", "slot_a")].count(b"slot 1\n") == 1
    assert b"slot 2\n" not in bodies[("a", "slot_a")]
    targets = attack_phase(world)
    bodies = visit_all(client, world, AFTER_FREEZE, first=first, secrets=secrets)
    # The target's public ZIP is what the program published, served to the other team.
    with targets["teama"].release.public.open("rb") as handle:
        assert handle.read() in bodies[("b", "target_a")]
    # The data tab lists it after the freeze only.
    assert b"teama_public.zip" in bodies[("b", "tab_data")]


def test_scorer_hidden_attack_scores_stay_hidden_until_published(client):
    world = scorer_world(slug="sac2", letters="ab", config={**CONFIG, "visibility": "hidden"})
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    targets = attack_phase(world)
    hit = attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    exact = score_text.format_score(hit.scores["reidentified"]).encode()
    for role in ("a", "b", "visitor"):
        client.logout()
        if role != "visitor":
            client.force_login(world.users[role])
        for tab in TABS:
            args = [world.competition.slug, world.round.slug]
            if tab == "overview":
                url = reverse("round_detail", args=args)
            else:
                url = reverse("round_tab", args=[*args, tab])
            response = client.get(url)
            assert response.status_code == 200
            assert b">" + exact + b"<" not in response.content, (role, tab)
    client.force_login(world.users["b"])
    submit = client.get(reverse("round_tab", args=[world.competition.slug, "s1", "submit"]))
    assert b'data-testid="attack-score">\xe2\x80\xa6<' in submit.content  # "…"


def test_scorer_uploads_out_of_their_phase_are_refused_never_500(client):
    world = scorer_world(slug="sac3", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    comp, rnd = world.competition.slug, world.round.slug
    client.force_login(world.users["a"])
    early = client.post(
        reverse("scorer:scorer-attack-send", args=[comp, rnd]),
        {"file": upload_file(b"x", "g.csv"), "target": "teamb"},
        HTTP_ACCEPT="application/json",
    )
    # No frozen target yet: the API's refusal, with its reason.
    assert early.status_code == 403 and "not frozen" in early.json()["error"]
    unknown = client.post(
        reverse("scorer:select", args=[comp, rnd, 999999]), HTTP_ACCEPT="application/json"
    )
    assert unknown.status_code == 404
    other = Release.objects.get(scorer=world.scorer, team=world.teams["b"])
    response = client.post(reverse("scorer:select", args=[comp, rnd, other.pk]))
    assert response.status_code == 404
    assert not Release.objects.get(pk=other.pk).selected
    attack_phase(world)
    late = client.post(
        reverse("scorer:scorer-release-send", args=[comp, rnd]),
        {"file": upload_file(release_bytes(noise=0), "r.csv")},
        HTTP_ACCEPT="application/json",
    )
    assert late.status_code == 403 and late.json()["error"]
    client.logout()
    visitor = client.post(reverse("scorer:scorer-release-send", args=[comp, rnd]), {})
    assert visitor.status_code == 302  # to the log-in page
    assert Release.objects.filter(scorer=world.scorer).count() == 2


def test_scorer_the_final_choice_and_an_early_attack_are_refused_with_a_message(client):
    config = {**CONFIG, "attack_mode": "all_targets"}
    world = scorer_world(slug="sac4", letters="ab", config=config)
    kept = release(world, "a", release_bytes(noise=0))
    comp, rnd = world.competition.slug, world.round.slug
    client.force_login(world.users["a"])
    early = client.post(
        reverse("scorer:scorer-attack-send", args=[comp, rnd]),
        {"file": upload_file(b"x", "all.zip")},
        HTTP_ACCEPT="application/json",
    )
    assert early.status_code == 403 and early.json()["error"]
    attack_phase(world)
    late = client.post(reverse("scorer:select", args=[comp, rnd, kept.pk]))
    assert late.status_code == 302
    assert not Release.objects.get(pk=kept.pk).selected
