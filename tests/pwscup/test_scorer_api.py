"""The scorer round through the REST API, the way the ``pwscup`` client plays it: the status
gives the upload's address, the upload is kept (202) and scored by its job (the real
sandbox), the answer's address gives the scores exactly as the program wrote them; the
downloads are the public pack and the team's own slot folder, then the targets' public
ZIPs; an attack names its target by its team's slug (or covers every target at once); the
standings follow the results page's rule."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.scorer import services
from pwscup.scorer.models import Attack, Release, TeamSlot
from scoring.display import format_figure
from tests.pwscup.scorer_world import (
    CONFIG,
    attack_phase,
    guess_bytes,
    public_release,
    release,
    release_bytes,
    scorer_world,
    zipped,
)

pytestmark = pytest.mark.django_db


def bearer(user, **extra) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}", **extra}


def address(world, name: str, *extra) -> str:
    return reverse(f"api:{name}", args=[world.competition.slug, world.round.slug, *extra])


def status_of(world, user, **extra) -> dict:
    response = Client().get(address(world, "round-status"), **bearer(user, **extra))
    assert response.status_code == 200, response.content
    return response.json()


def run_jobs() -> None:
    for pk in Release.objects.filter(status="queued").values_list("pk", flat=True):
        services.release_score(release_id=pk)
    for pk in Attack.objects.filter(status="queued").values_list("pk", flat=True):
        services.attack_score(attack_id=pk)


def members(content: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def body_of(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_a_release_round_trip_from_the_status_to_the_exact_scores():
    world = scorer_world(slug="scoapi1", letters="ab")
    user = world.users["a"]
    status = status_of(world, user)
    assert status["kind"] == "scorer" and status["team"]["slug"] == "teama"
    (kind,) = status["submission_types"]
    assert (kind["key"], kind["open"], kind["fields"]) == ("release", True, [])
    names = [d["name"] for d in status["downloads"]]
    assert names == ["public.zip", "teama_slot.zip"]
    assert [(m["key"], m["name"], m["headline"]) for m in status["metrics"]] == [
        ("utility", "Utility", True),
        ("reidentified", "Re-identified", True),
    ]
    client, headers = Client(), bearer(user)
    slot = TeamSlot.objects.get(scorer=world.scorer, team=world.teams["a"])
    mine = client.get(status["downloads"][1]["url"], **headers)
    assert mine.status_code == 200
    assert members(body_of(mine)) == {"mine.txt": f"slot {slot.slot}\n".encode()}
    public = client.get(status["downloads"][0]["url"], **headers)
    assert members(body_of(public)) == {"README.txt": b"Release release.csv.\n"}

    content = release_bytes(noise=20, seed=1)
    answer = client.post(
        kind["url"], {"file": SimpleUploadedFile("release.csv", content)}, **headers
    )
    assert answer.status_code == 202, answer.content
    body = answer.json()
    assert (body["number"], body["status"], body["scores"]) == (1, "queued", {})
    assert "#1" in body["message"]
    run_jobs()
    scored = client.get(body["url"], **headers).json()
    kept = Release.objects.get(pk=body["id"])
    assert scored["status"] == "finished", scored["message"]
    assert scored["scores"] == kept.scores  # the same JSON numbers, not rounded
    assert scored["scores_text"]["utility"] == format_figure(kept.scores["utility"])
    assert scored["program"] == world.program.label == "v1"
    assert scored["final"] is True
    assert body_of(client.get(scored["file_url"], **headers)) == content
    second = client.post(
        kind["url"], {"file": SimpleUploadedFile("release.csv", content)}, **headers
    ).json()
    run_jobs()
    assert [u["final"] for u in status_of(world, user)["uploads"]] == [True, False]
    chosen = client.post(scored["select_url"], **headers)
    assert chosen.status_code == 200 and chosen.json()["final"] is True
    assert [u["id"] for u in status_of(world, user)["uploads"] if u["final"]] == [kept.pk]
    assert second["id"] != kept.pk


def test_my_releases_public_files_are_a_download_before_and_after_the_freeze():
    """What the program published of the team's final release (its frozen one once frozen):
    what the attackers get of it, the team's to check; another team's status lists none."""
    world = scorer_world(slug="scoapi9", letters="ab")
    first = release(world, "a", release_bytes(noise=10, seed=3))
    headers = bearer(world.users["a"])
    name = f"teama_release_{first.number}_public.zip"
    entry = {d["name"]: d for d in status_of(world, world.users["a"])["downloads"]}[name]
    assert "#1" in entry["label"]
    with first.public.open("rb") as stored:
        assert body_of(Client().get(entry["url"], **headers)) == stored.read()
    theirs = [d["name"] for d in status_of(world, world.users["b"])["downloads"]]
    assert not [n for n in theirs if n.startswith("teama_")], theirs
    release(world, "b", release_bytes(noise=12, seed=4))
    target = attack_phase(world)["teama"]
    after = {d["name"]: d for d in status_of(world, world.users["a"])["downloads"]}
    mine = after[f"teama_release_{target.release.number}_public.zip"]
    assert mine["url"] == address(world, "scorer-release-public", target.release.pk)
    assert members(body_of(Client().get(mine["url"], **headers))) == {
        "release.csv": public_release(target)
    }


def test_the_status_speaks_the_readers_language():
    world = scorer_world(slug="scoapi2", letters="a")
    status = status_of(world, world.users["a"], HTTP_ACCEPT_LANGUAGE="ja")
    assert [m["name"] for m in status["metrics"]] == ["有用性", "再識別率"]
    (kind,) = status["submission_types"]
    assert kind["label"] == "公開データ (運営者の採点プログラムで採点)"


def test_attacks_per_target_name_their_target_and_are_scored_exactly():
    world = scorer_world(slug="scoapi3")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    targets = attack_phase(world)
    client, headers = Client(), bearer(world.users["b"], HTTP_ACCEPT_LANGUAGE="en")
    status = status_of(world, world.users["b"])
    kind = next(t for t in status["submission_types"] if t["key"] == "attack")
    (field,) = kind["fields"]
    assert (field["name"], field["required"], field["choices"]) == ("target", True, ["teama"])
    assert kind["open"] is True
    download = next(d for d in status["downloads"] if d["name"] == "teama_public.zip")
    assert "teamb_public.zip" not in [d["name"] for d in status["downloads"]]
    public = body_of(client.get(download["url"], **headers))
    assert members(public)["release.csv"] == public_release(targets["teama"])
    listed = client.get(address(world, "scorer-targets"), **headers).json()
    assert [t["team"]["slug"] for t in listed] == ["teama"]

    guess = guess_bytes(targets["teama"])
    missing = client.post(kind["url"], {"file": SimpleUploadedFile("guess.csv", guess)}, **headers)
    assert missing.status_code == 400
    assert missing.json()["message"] == "Choose the target team of your attack."
    own = client.post(
        kind["url"],
        {"file": SimpleUploadedFile("guess.csv", guess), "target": "teamb"},
        **headers,
    )
    assert own.status_code == 403
    answer = client.post(
        kind["url"],
        {"file": SimpleUploadedFile("guess.csv", guess), "target": "teama"},
        **headers,
    )
    assert answer.status_code == 202, answer.content
    assert (answer.json()["number"], answer.json()["target"]) == (1, "teama")
    run_jobs()
    scored = client.get(answer.json()["url"], **headers).json()
    kept = Attack.objects.get(pk=answer.json()["id"])
    assert scored["status"] == "finished", scored["message"]
    assert scored["scores"] == {"reidentified": kept.scores["reidentified"]}
    assert scored["visibility"] == "exact"
    assert body_of(client.get(scored["file_url"], **headers)) == guess
    uploads = status_of(world, world.users["b"])["uploads"]
    assert [u["type"] for u in uploads] == ["attack", "release"]


def test_an_attack_covering_every_target_takes_no_target():
    world = scorer_world(slug="scoapi4", config={**CONFIG, "attack_mode": "all_targets"})
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    targets = attack_phase(world)
    status = status_of(world, world.users["c"])
    kind = next(t for t in status["submission_types"] if t["key"] == "attack")
    assert kind["fields"] == [] and kind["open"] is True
    client, headers = Client(), bearer(world.users["c"], HTTP_ACCEPT_LANGUAGE="en")
    content = zipped({f"{slug}.csv": guess_bytes(t) for slug, t in targets.items()})
    named = client.post(
        kind["url"],
        {"file": SimpleUploadedFile("guess.zip", content), "target": "teama"},
        **headers,
    )
    assert named.status_code == 400
    answer = client.post(kind["url"], {"file": SimpleUploadedFile("guess.zip", content)}, **headers)
    assert answer.status_code == 202, answer.content
    run_jobs()
    scored = client.get(answer.json()["url"], **headers).json()
    kept = Attack.objects.get(pk=answer.json()["id"])
    assert scored["status"] == "finished", scored["message"]
    assert scored["target"] is None
    assert scored["scores"]["reidentified"] == kept.scores["reidentified"]
    assert set(scored["targets"]) == {"teama", "teamb"}
    assert scored["targets"]["teama"]["scores"] == kept.targets["teama"]


def test_the_standings_are_the_organizers_until_the_results_are_published():
    world = scorer_world(slug="scoapi5", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    attack_phase(world)
    client = Client()
    url = address(world, "round-standings")
    assert client.get(url, **bearer(world.users["a"])).status_code == 404
    answer = client.get(url, **bearer(world.organizer))
    assert answer.status_code == 200, answer.content
    releases, attacks = answer.json()["tables"]
    assert [row[1] for row in releases["rows"]] == ["Team A", "Team B"]
    utility = Release.objects.get(team=world.teams["a"]).scores["utility"]
    assert releases["rows"][0][2] == utility  # exact, as the program wrote it
    # … and as every page writes a figure (``pwscup leaderboard`` prints this).
    assert releases["rows_text"][0][:3] == ["1", "Team A", format_figure(utility)]
    assert releases["rows_text"][0][3] == format_figure(releases["rows"][0][3])
    assert attacks["rows"] == []
    services.results_publish(scorer=world.scorer, user=world.organizer)
    published = client.get(url, **bearer(world.users["b"]))
    assert published.status_code == 200
    assert published.json()["tables"][0]["rows"] == releases["rows"]


def test_refusals_after_and_before_the_freeze_are_403_never_500():
    world = scorer_world(
        slug="scoapi6", letters="ab", config={**CONFIG, "attack_mode": "all_targets"}
    )
    kept = release(world, "a", release_bytes(noise=0))
    client, headers = Client(), bearer(world.users["a"], HTTP_ACCEPT_LANGUAGE="en")
    early = client.post(
        address(world, "scorer-attacks"), {"file": SimpleUploadedFile("g.zip", b"x")}, **headers
    )
    assert early.status_code == 403
    assert early.json()["message"] == "The releases are not frozen yet: there is nothing to attack."
    attack_phase(world)
    late = client.post(address(world, "scorer-release-select", kept.pk), **headers)
    assert late.status_code == 403
    again = client.post(
        address(world, "scorer-releases"), {"file": SimpleUploadedFile("r.csv", b"x")}, **headers
    )
    assert again.status_code == 403
    # What is true in every state after the freeze: the attack phase may not have opened yet
    # (PWSCup 2026's hand-over) or be over (the results published).
    frozen = "The releases are frozen: the release phase is over."
    assert again.json()["message"] == frozen
    services.results_publish(scorer=world.scorer, user=world.organizer)
    published = client.post(
        address(world, "scorer-releases"), {"file": SimpleUploadedFile("r.csv", b"x")}, **headers
    )
    assert published.status_code == 403 and published.json()["message"] == frozen
    assert Release.objects.filter(team=world.teams["a"]).count() == 1
