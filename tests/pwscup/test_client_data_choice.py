"""``pwscup status`` and ``pwscup choose`` on a round offering several data packs (PWSCup
2022: six datasets): a team using the client sees the packs and its own, and picks one, in
English and Japanese, before its first upload locks it (a live test server, the client in
its own process; no worker: nothing is scored)."""

import pytest

from pwscup.api.services import api_token_create
from pwscup.competitions.choice_selectors import team_choice_key
from pwscup.competitions.choice_services import choice_lock, choices_set
from tests.pwscup.scorer_world import scorer_world
from tests.support import run_pwscup as run

pytestmark = pytest.mark.django_db(transaction=True)

PACKS = [
    {"key": "d1", "label": "Dataset 1", "label_ja": "データ 1"},
    {"key": "d3", "label": "Dataset 3", "label_ja": "データ 3"},
]


def test_a_team_sees_and_picks_its_data_pack_with_the_client(live_server, tmp_path):
    world = scorer_world(slug="chcli", letters="a", build=False)
    assert choices_set(user=world.organizer, round=world.round, rows=PACKS)
    home = tmp_path / "a"
    home.mkdir()
    token = api_token_create(user=world.users["a"], name="cli").secret
    assert (
        run(["login", live_server.url, "--token-stdin"], config_dir=home, stdin=token).returncode
        == 0
    )
    ref = f"{world.competition.slug}/{world.round.slug}"

    status = run(["status", ref], config_dir=home)
    assert status.returncode == 0, status.stderr
    assert "Data packs (pwscup choose ROUND KEY)" in status.stdout
    assert [line.split() for line in status.stdout.splitlines() if line.startswith("d3 ")] == [
        ["d3", "Dataset", "3"]
    ]
    assert "Your team has not picked: it plays on Dataset 1 (d1)." in status.stdout

    chosen = run(["choose", ref, "d3"], config_dir=home, language="ja")
    assert chosen.returncode == 0, chosen.stderr
    assert "チームのデータ: データ 3 (d3)" in chosen.stdout
    assert team_choice_key(round=world.round, team=world.teams["a"]) == "d3"

    unknown = run(["choose", ref, "d9"], config_dir=home)
    assert unknown.returncode == 2  # a usage error, as `select` gives for an unknown upload
    assert "d9" in unknown.stderr

    choice_lock(round=world.round, team=world.teams["a"])  # as its first upload does
    status = run(["status", ref], config_dir=home, language="ja")
    assert "チームのデータ: データ 3 (d3) · 確定" in status.stdout
    refused = run(["choose", ref, "d1"], config_dir=home)
    assert refused.returncode == 1
    assert "locked" in refused.stderr
    assert team_choice_key(round=world.round, team=world.teams["a"]) == "d3"
