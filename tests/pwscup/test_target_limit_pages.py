"""The limit of attacks per target (PWSCup 2019: two per target) as teams and organizers read
it: the round's Rules tab in both languages, the 2015 attack quota line, the scorer's Submit
tab, and the rule that an upload covering every target counts once against the total."""

import pytest
from django.test import Client

from pwscup.competitions.models import Phase
from pwscup.kinds.tabs import tab_url
from tests.pwscup.factories import freeze, scored
from tests.pwscup.scorer_world import CONFIG, attack_phase, release, release_bytes, scorer_world
from tests.pwscup.syn_world import syn_world

pytestmark = pytest.mark.django_db

RULE = {
    "en": "Attack phase: at most 2 uploads on each target.",
    "ja": "攻撃フェーズ：各攻撃対象へのアップロードは最大 2 回です。",
}

ONE_PER_TARGET = {"en": "One upload per target", "ja": "攻撃対象ごとに 1 回の提出です"}
EACH_UPLOAD_ONE_TARGET = {
    "en": "Each upload attacks one target",
    "ja": "1 回の提出で 1 つの攻撃対象を攻撃します",
}


def page(world, tab: str, language: str = "en") -> str:
    client = Client()
    client.force_login(world.users["a"])
    response = client.get(tab_url(world.round, tab), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def limited(world, limit=2, **limits) -> None:
    world.round.phases.filter(kind=Phase.Kind.ATTACK).update(target_limit=limit, **limits)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_synthetic_rules_tab_states_the_limit_per_target(language):
    world = syn_world(slug=f"tlsyn{language}", letters="ab")
    assert RULE[language] not in page(world, "rules", language)
    limited(world)
    assert RULE[language] in page(world, "rules", language)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_scorer_rules_and_submit_tabs_state_the_limit_per_target(language):
    world = scorer_world(slug=f"tlsco{language}", letters="ab")
    limited(world)
    assert RULE[language] in page(world, "rules", language)
    release(world, "a", release_bytes(noise=20, seed=1))
    release(world, "b", release_bytes(noise=20, seed=2))
    attack_phase(world)
    submit = page(world, "submit", language)
    assert 'data-testid="submit-target-limit"' in submit and RULE[language] in submit
    # Beside "at most 2 on each target", the form never says "one upload per target".
    assert ONE_PER_TARGET[language] not in submit
    assert EACH_UPLOAD_ONE_TARGET[language] in submit


def test_a_round_attacking_every_target_at_once_says_each_upload_counts_once():
    world = scorer_world(
        slug="tlall", letters="ab", config={**CONFIG, "attack_mode": "all_targets"}
    )
    limited(world, total_limit=8)  # PWSCup 2025: 8 uploads, each against every target
    rules = page(world, "rules")
    assert RULE["en"] not in rules  # it names no target: the limit per target never applies
    assert "Attack phase: at most 8 uploads in all." in rules
    assert "each upload counts once against the attack phase's limits" in rules


def test_the_2015_attack_quota_line_states_the_limit_per_target(make_world):
    world = make_world()
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    freeze(world)
    limited(world)
    submit = page(world, "submit")
    assert 'data-testid="attack-quota-target"' in submit
    assert "at most 2 on each target" in submit
    assert "各攻撃対象につき最大 2 回" in page(world, "submit", "ja")


def quota_line(submit: str, testid: str) -> str:
    """The text of the quota line ``testid`` of a Submit tab (``rounds/_quota.html``)."""
    start = submit.index(f'data-testid="{testid}"')
    return " ".join(submit[start : submit.index("</p>", start)].split())


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_scorer_submit_tab_counts_the_teams_uploads_against_each_phases_limits(language):
    """As the 2015 game's Submit tab does: what the team used today and in all of each
    phase's limits (a failed upload uses nothing), and when the day's count resets."""
    world = scorer_world(slug=f"tqsco{language}", letters="ab", release_limits=(3, None))
    release(world, "a", release_bytes(noise=20, seed=1))
    release(world, "a", b"not,a\nrelease\n")  # refused by the program: uses nothing
    line = quota_line(page(world, "submit", language), "quota")
    if language == "en":
        assert "Used today: 1 / 3" in line and "used in total: 2 (no total limit)" not in line
        assert "used in total: 1 (no total limit)" in line and "The daily count resets at" in line
    else:
        assert "本日の提出：1 / 3" in line and "合計：1（合計の上限なし）" in line
    release(world, "b", release_bytes(noise=20, seed=2))
    attack_phase(world)
    limited(world, total_limit=5)
    submit = page(world, "submit", language)
    assert 'data-testid="quota"' not in submit  # the release phase is over
    attack = quota_line(submit, "attack-quota")
    assert ("used in total: 0 / 5" if language == "en" else "合計：0 / 5") in attack


def test_the_synthetic_submit_tab_counts_the_teams_releases_against_the_limit():
    from tests.pwscup.syn_world import baseline_release
    from tests.pwscup.syn_world import release as syn_release

    world = syn_world(slug="tqsyn", letters="ab", release_limits=(None, 4))
    syn_release(world, "a", baseline_release(world, "a"))
    line = quota_line(page(world, "submit"), "quota")
    assert "Used today: 1 (no daily limit)" in line and "used in total: 1 / 4" in line
