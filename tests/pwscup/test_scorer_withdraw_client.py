"""``pwscup withdraw ROUND N`` takes the team's attack #N out where the round allows it, and
says the server's refusal where it does not."""

import pytest

from pwscup.api.services import api_token_create
from pwscup.scorer.models import Attack
from tests.pwscup.test_scorer_voids import played
from tests.support import run_pwscup as run

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_team_withdraws_its_attack_with_the_client(live_server, tmp_path):
    world, attacks = played(withdrawal="until_published")
    token = api_token_create(user=world.users["c"], name="cli").secret
    login = run(["login", live_server.url, "--token-stdin"], config_dir=tmp_path, stdin=token)
    assert login.returncode == 0, login.stderr
    ref = f"{world.competition.slug}/{world.round.slug}"

    done = run(["withdraw", ref, "1", "--reason", "wrong file"], config_dir=tmp_path)

    assert done.returncode == 0, done.stderr
    assert "no longer counts" in done.stdout
    kept = Attack.objects.get(pk=attacks["c1"].pk)
    assert (kept.withdrawn, kept.void_reason) == (True, "wrong file")
    again = run(["withdraw", ref, "1"], config_dir=tmp_path, language="ja")
    assert again.returncode != 0
    assert "すでに数えられていません" in again.stderr
    world.scorer.results_published = True
    world.scorer.save(update_fields=["results_published"])
    late = run(["withdraw", ref, "2"], config_dir=tmp_path)
    assert late.returncode != 0
    assert "does not let teams withdraw" in late.stderr
    assert Attack.objects.get(pk=attacks["c2"].pk).voided_at is None
