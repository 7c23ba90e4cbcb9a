"""The round status's ``downloads`` as a team reads them, in every kind whose targets publish
files (2015, sequential, synthetic; the scorer's: ``test_scorer_client_targets.py``): each
target's published file is marked with its team's slug (``target``), which is what
``pwscup targets --download`` saves; every other file is the team's own or the round's,
unmarked. Never listed: a file of the team's own target, another team's members or truth,
a release after the visible one (sequential), a target before its time. Each marked file
serves exactly what the target published."""

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.core.stored import stored_bytes
from pwscup.sequential import services as seq_services
from pwscup.sequential.models import SeqTarget
from pwscup.synthetic.api import files as syn_files
from pwscup.synthetic.kit import team_train_text
from tests.pwscup import seq_web_world as seq
from tests.pwscup import syn_world as syn
from tests.pwscup.factories import freeze, read_field, scored

pytestmark = pytest.mark.django_db


class Team:
    """A team's API client: the round status's downloads and the files they name."""

    def __init__(self, world, letter: str):
        self.client = Client()
        secret = api_token_create(user=world.users[letter], name="t").secret
        self.headers = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
        self.args = [world.competition.slug, world.round.slug]

    def downloads(self) -> list[dict]:
        answer = self.client.get(reverse("api:round-status", args=self.args), **self.headers)
        assert answer.status_code == 200, answer.content
        return answer.json()["downloads"]

    def fetch(self, url: str) -> bytes:
        answer = self.client.get(url, **self.headers)
        assert answer.status_code == 200, url
        return b"".join(answer.streaming_content) if answer.streaming else answer.content


def listed(downloads: list[dict]) -> list[tuple]:
    return sorted((item["name"], item["target"]) for item in downloads)


def test_a_sequential_round_lists_no_future_release_and_marks_each_target_s_files():
    config = {**seq.fixture_config("small_config.json"), "attack_phase": True}
    world = seq.seq_world(slug="seqmark", config=config, master=None, letters="abc")
    for letter in "abc":
        seq_services.master_upload(
            sequential=world.sequential,
            uploaded_file=seq.upload_file(seq.fixture("small_master.csv"), "master.csv"),
            team=world.teams[letter],
        )
        seq.publish(world, letter, 1, seq.fixture("small_release_1.csv"))
    team = Team(world, "a")
    own = [("T1.csv", None), ("config.json", None), ("master.csv", None)]
    # Release 1 open: the table at release 1 only, no target.
    assert listed(team.downloads()) == own

    seq.freeze(world)
    own.append(("T2.csv", None))
    assert listed(team.downloads()) == sorted(own)  # release 2 open now: its table, no target

    for letter in "abc":
        seq.publish(world, letter, 2, seq.fixture("small_release_2.csv"))
    seq.freeze(world)
    targets = SeqTarget.objects.filter(sequential=world.sequential).select_related("team")
    others = [t for t in targets if t.team.slug != "teamA"]
    assert len(others) == 2
    published = [(name, t.team.slug) for t in others for name in t.files]
    downloads = team.downloads()
    assert listed(downloads) == sorted(own + published)
    files = {(t.team.slug, name): text for t in others for name, text in t.files.items()}
    for item in downloads:
        if item["target"]:
            body = team.fetch(item["url"])
            assert body == files[item["target"], item["name"]].encode(), item["name"]
            # Never the truth: a person's sensitive value beside the person (pid).
            assert not {b"pid", b"Disease"} <= set(body.splitlines()[0].split(b","))


def test_a_synthetic_round_marks_each_target_s_release_and_challenge_set():
    world = syn.syn_world(slug="synmark", letters="abc")
    team = Team(world, "a")
    own = [("config.json", None), ("population.json", None), ("teamA_train.csv", None)]
    assert listed(team.downloads()) == own  # no target before the freeze

    for letter in "abc":
        syn.release(world, letter, syn.baseline_release(world, letter))
    targets = syn.freeze(world)
    syn.open_attack_phase(world)
    published = {}
    for slug in ("teamB", "teamC"):
        target = targets[slug]
        published[syn_files.release_name(target.team)] = stored_bytes(target.release.file)
        published[syn_files.challenge_name(target)] = syn_files.challenge_csv(target=target)
    downloads = team.downloads()
    marked = [(name, name.split("_")[0]) for name in published]
    assert listed(downloads) == sorted([*own, ("aux.csv", None), *marked])

    members = {
        slug: team_train_text(synthetic=world.synthetic, team=targets[slug].team).encode()
        for slug in ("teamB", "teamC")
    }
    header = members["teamB"].splitlines()[0]
    for item in downloads:
        body = team.fetch(item["url"])
        assert body not in members.values(), item["name"]  # never another team's members
        if item["target"]:
            expected = published[item["name"]]
            assert body == (expected if isinstance(expected, bytes) else expected.encode())
        if item["name"].endswith("_challenge.csv"):
            assert body.splitlines()[0] == b"id," + header  # no membership label


@pytest.mark.parametrize("data_mode", ["shared", "per_team"])
def test_a_2015_round_marks_each_published_target_once_the_attack_phase_opens(
    make_world, data_mode
):
    world = make_world(slug=f"mark{data_mode[0]}", data_mode=data_mode)
    for seed, letter in enumerate("abc"):
        scored(world, letter, seed=seed)
    team = Team(world, "a")
    assert not [item for item in team.downloads() if item["target"]]  # not frozen yet

    targets = freeze(world)
    downloads = team.downloads()
    marked = [item for item in downloads if item["target"]]
    files = {"anonymized": "published_file"}
    if data_mode == "per_team":  # the reference table of each target too
        files["candidate"] = "candidate_file"
    expected = [(f"team{x}_{f}.csv", f"team{x}") for x in "BC" for f in files]
    assert listed(marked) == sorted(expected)
    for item in marked:
        target = targets[item["target"][-1].lower()]
        field = files[item["name"].rsplit("_", 1)[1].removesuffix(".csv")]
        assert team.fetch(item["url"]) == read_field(getattr(target, field))
    # Every other file is the round's or team A's own (its sample in the per-team mode).
    others = [item["name"] for item in downloads if not item["target"]]
    assert others and not [name for name in others if name.startswith(("teamB", "teamC"))]
