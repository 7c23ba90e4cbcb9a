"""What the synthetic round never serves before its results are published, whoever asks (a
team, another team, a visitor, an organizer), and through every door this part of the round
opens (the API, the bundle, the archive): a final-half score, a final-half ROC curve, a
membership label, another team's members, the holdout or the round's seed. After
publication the final half's scores appear (API, standings, archive), secrets in the archive
only when ticked, and still never the seed.

The final halves are set to sentinel values no real score takes (AUC and TPR on 40 rows are
multiples of 1/400 and 1/20), so a served final score is seen, whatever the route."""

import io
import json
import re
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.bundles.services import competition_export
from pwscup.kinds import kind_of
from pwscup.kinds.archives import GROUND_TRUTH, ORIGINAL, SAMPLES, SECRETS
from pwscup.synthetic import engine, services
from pwscup.synthetic.api import files
from pwscup.synthetic.models import SynAttack, SynTarget, TeamDraw
from tests.pwscup.syn_world import (
    attack,
    baseline_release,
    dcr_answer_bytes,
    freeze,
    open_attack_phase,
    release,
    syn_world,
)

pytestmark = pytest.mark.django_db

SEED = 918273645546372001
FINAL = {"auc": 0.0271828, "tpr@0.1": 0.0314159, "adv": 0.0161803}
FINAL_ROC = {"fpr": [0.0, 0.0577215, 1.0], "tpr": [0.0, 0.046692, 1.0]}
# The sentinels as JSON writes them and as the pages' 4 decimals show them.
MARKS = [b"0.0271828", b"0.0314159", b"0.0161803", b"0.0577215", b"0.046692"]
SHOWN = [b"0.0272", b"0.0314", b"0.0162"]
SECRET_KEYS = {"labels", "final_roc", "members", "nonmembers", "holdout", "secret_seed", "seed"}


def played():
    """Three teams' releases frozen, attacks on A and B, and every final half replaced by
    the sentinels (the team attacks' and the built-in attacks')."""
    world = syn_world(slug="synsecret", seed=SEED)
    # (No team copies its members here: a copy would publish them by the team's own choice.)
    release(world, "a", baseline_release(world, "a"))
    release(world, "b", baseline_release(world, "b"))
    release(world, "c", baseline_release(world, "c"))
    targets = freeze(world)
    open_attack_phase(world)
    world.synthetic.refresh_from_db()
    attack(world, "b", targets["teamA"], dcr_answer_bytes(world, targets["teamA"]))
    attack(world, "a", targets["teamB"], dcr_answer_bytes(world, targets["teamB"]))
    assert SynAttack.objects.filter(status="finished").count() == 2
    SynAttack.objects.update(final=FINAL, final_roc=FINAL_ROC)
    for target in SynTarget.objects.all():
        target.builtin = {
            name: {**scores, "final": FINAL, "final_roc": FINAL_ROC}
            for name, scores in target.builtin.items()
        }
        target.save(update_fields=["builtin"])
    return world


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def answers(world, user) -> dict[str, bytes]:
    """Every answer of the round's API to ``user`` (``None``: a visitor): the status, the
    standings, every download and upload the status names, the lists, the targets."""
    client, headers = Client(), bearer(user) if user is not None else {}
    args = [world.competition.slug, world.round.slug]
    urls = [reverse(f"api:{name}", args=args) for name in ("round-status", "round-standings")]
    urls += [
        reverse(f"api:{name}", args=args)
        for name in (
            "syn-releases",
            "syn-attacks",
            "syn-targets",
            "syn-members",
            "syn-population",
            "syn-config",
            "syn-aux",
        )
    ]
    status = client.get(urls[0], **headers)
    if status.status_code == 200:
        body = status.json()
        urls += [d["url"] for d in body["downloads"]] + [u["url"] for u in body["uploads"]]
        urls += [t["url"] for t in body["submission_types"]]
    for target in SynTarget.objects.select_related("team"):
        urls += [
            reverse(f"api:{name}", args=[*args, target.team.slug])
            for name in ("syn-target-release", "syn-target-challenge")
        ]
    for row in SynAttack.objects.all():
        urls.append(reverse("api:syn-attack", args=[*args, row.pk]))
    return {url: client.get(url, **headers).content for url in dict.fromkeys(urls)}


def json_keys(value) -> set:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in json_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in json_keys(v)}
    return set()


def never_final(body: bytes, where: str) -> None:
    leaked = [mark for mark in MARKS + SHOWN if mark in body]
    assert not leaked, f"{where} serves a final-half score: {leaked}"
    assert str(SEED).encode() not in body, f"{where} serves the seed"


def tables(world) -> dict:
    """The secret tables as the round would write them: each team's members, the holdout."""
    population = engine.round_population(world.round)
    out = {
        "holdout": engine.table_text(engine.rows_of(population, world.synthetic.holdout)).encode()
    }
    for draw in TeamDraw.objects.filter(synthetic=world.synthetic).select_related("team"):
        out[draw.team.slug] = files.members_csv(synthetic=world.synthetic, draw=draw).encode()
    return out


def test_syn_api_serves_no_secret_before_publication_to_anyone():
    world = played()
    secret = tables(world)
    readers = {"a": world.users["a"], "b": world.users["b"], "visitor": None}
    readers["organizer"] = world.organizer
    for who, user in readers.items():
        served = answers(world, user)
        own = world.teams[who].slug if who in world.teams else None
        for url, body in served.items():
            never_final(body, f"{url} to {who}")
            for name, content in secret.items():
                if name != own:
                    assert content not in body, f"{url} serves {name}'s table to {who}"
            if body.startswith((b"{", b"[")):
                keys = json_keys(json.loads(body))
                assert not keys & SECRET_KEYS, f"{url} to {who}: {keys & SECRET_KEYS}"
    # The teams' attacks are answered with their dev half, which is not the sentinel.
    mine = Client().get(
        reverse("api:syn-attacks", args=[world.competition.slug, world.round.slug]),
        **bearer(world.users["b"]),
    )
    (shown,) = mine.json()
    assert shown["half"] == "dev" and shown["scores"] == SynAttack.objects.get(pk=shown["id"]).dev
    # The challenge set a team downloads holds ids and columns, one per challenge row.
    challenge = answers(world, world.users["b"])[
        reverse(
            "api:syn-target-challenge", args=[world.competition.slug, world.round.slug, "teamA"]
        )
    ]
    header = challenge.split(b"\n", 1)[0].decode()
    assert header == ",".join(["id", *engine.round_config(world.round).columns])


def test_syn_bundle_and_archive_hold_no_secret_before_publication():
    world = played()
    secret = tables(world)
    exported = competition_export(competition=world.competition, user=world.organizer)
    with zipfile.ZipFile(io.BytesIO(exported)) as bundle:
        members = {name: bundle.read(name) for name in bundle.namelist()}
    manifest = json.loads(members["manifest.json"])
    (entry,) = manifest["rounds"]
    assert set(entry["settings"]) == {"config", "phases"}
    assert not json_keys(entry["settings"]) & (SECRET_KEYS | {"aux", "frozen_at"})
    assert sorted(name.rsplit("/", 1)[-1] for name in members) == ["manifest.json", "original.csv"]
    for name, content in members.items():
        never_final(content, name)
        for owner, table in secret.items():
            assert table not in content, f"the bundle's {name} holds {owner}'s table"
    # The archive is only asked for after publication; before, it holds nothing at all.
    kind = kind_of(world.round)
    assert kind.archive_members(world.round, secrets=frozenset(SECRETS)) == []


def test_syn_after_publication_the_final_half_appears_and_secrets_only_when_ticked():
    world = played()
    services.results_publish(synthetic=world.synthetic, user=world.organizer)
    client, headers = Client(), bearer(world.users["b"])
    args = [world.competition.slug, world.round.slug]
    (shown,) = client.get(reverse("api:syn-attacks", args=args), **headers).json()
    assert shown["half"] == "final" and shown["scores"] == FINAL
    assert shown["scores_text"]["tpr@0.1"] == "0.0314"
    standings = client.get(reverse("api:round-standings", args=args), **headers)
    assert standings.status_code == 200, standings.content
    release_table, attack_table = standings.json()["tables"]
    assert [row[1] for row in release_table["rows"]][-1] in {"Team A", "Team B", "Team C"}
    assert all(row[3] == "0.0314" for row in release_table["rows_text"])  # the worst attack
    assert {row[1]: row[2] for row in attack_table["rows_text"]} == {
        "Team A": "0.0314",
        "Team B": "0.0314",
    }
    kind = kind_of(world.round)
    public = {m.name: m for m in kind.archive_members(world.round, secrets=frozenset())}
    assert {"release_ranking.csv", "attack_ranking.csv", "attack_matrix.csv", "aux.csv"} <= set(
        public
    )
    assert all(m.secret == "" for m in public.values())
    assert b"0.0314159" in public["targets/teamA/scores.csv"].content
    assert b"0.0577215" in public["targets/teamA/scores.csv"].content  # the ROC curve
    assert b"0.0314159" in public["attack_matrix.csv"].content
    secret = tables(world)
    everything = {m.name: m for m in kind.archive_members(world.round, secrets=frozenset(SECRETS))}
    for member in public.values():
        for owner, table in secret.items():
            assert table not in member.content, f"{member.name} holds {owner}'s table"
        assert not re.search(rb"\bmember\b", member.content.split(b"\n", 1)[0])
    assert everything["holdout.csv"].secret == ORIGINAL
    assert everything["holdout.csv"].content == secret["holdout"]
    assert everything["samples/teamA_train.csv"].secret == SAMPLES
    assert everything["samples/teamA_train.csv"].content == secret["teamA"]
    labels = everything["ground_truth/teamA_challenge_labels.csv"]
    assert labels.secret == GROUND_TRUTH
    draw = TeamDraw.objects.get(synthetic=world.synthetic, team=world.teams["a"])
    rows = labels.content.decode().splitlines()[1:]
    assert [int(line.split(",")[1]) for line in rows] == draw.labels
    for member in everything.values():
        assert str(SEED).encode() not in member.content
    card = kind.data_card(world.round)
    assert card["original"]["rows"] == 3000 and len(card["columns"]) == 15
