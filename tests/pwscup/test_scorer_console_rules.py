"""The scorer round's console page *Edit the round's rules*, posted as the browser renders it
by an organizer who is not a superuser: a label fixed shows on the results page, a gate
added re-ranks, the score keys are fixed once an upload exists (and free before), the
change is recorded and the rankings' version bumped; nobody else may open it; in Japanese."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.competitions.models import AuditEntry, RankingVersion, Round
from pwscup.scorer import selectors
from tests.pwscup.rendered_forms import post_as_rendered
from tests.pwscup.scorer_world import attack_phase, release, release_bytes, scorer_world

pytestmark = pytest.mark.django_db


def rules_url(world) -> str:
    return reverse("scorer_console:rules", args=[world.competition.slug, world.round.slug])


def console_url(world) -> str:
    return reverse("console:round", args=[world.competition.slug, world.round.slug])


def organizer_client(world) -> Client:
    assert not world.organizer.is_superuser
    client = Client()
    client.force_login(world.organizer)
    return client


def stored_config(world) -> dict:
    return Round.objects.get(pk=world.round.pk).config


def version(world) -> int:
    row = RankingVersion.objects.filter(round=world.round).first()
    return row.version if row else 0


def edits(world) -> list[dict]:
    entries = AuditEntry.objects.filter(round=world.round, action=AuditEntry.Action.ROUND_EDITED)
    return [entry.detail for entry in entries.order_by("pk")]


def test_the_panel_links_the_page_and_the_page_shows_the_stored_rules():
    world = scorer_world(slug="hcr1", build=False)
    client = organizer_client(world)
    panel = client.get(console_url(world)).content.decode()
    assert f'href="{rules_url(world)}" data-testid="scorer-rules-edit"' in panel
    page = client.get(rules_url(world)).content.decode()
    assert 'name="release_col_0_key" value="utility"' in page
    assert 'name="attack_col_0_label_ja" value="再識別率"' in page
    assert 'name="timeout_seconds" value="60"' in page and 'name="processes" value="64"' in page
    assert "every ranking of the round is recomputed under the new rules" in page
    # Posted as stored: nothing changes, and the console page says so.
    unchanged = post_as_rendered(client, rules_url(world), "scorer-rules", {})
    assert unchanged.status_code == 302 and unchanged["Location"] == console_url(world)
    said = html.unescape(client.get(console_url(world)).content.decode())
    assert "Nothing changed: the rules are as they were." in said
    assert "The round's rules are saved" not in said


def test_an_organizer_fixes_a_japanese_label_and_the_results_page_shows_it():
    world = scorer_world(slug="hcr2", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=25, seed=2))
    attack_phase(world)
    client = organizer_client(world)
    bumped = version(world)
    response = post_as_rendered(
        client, rules_url(world), "scorer-rules", {"release_col_0_label_ja": "有用度（修正）"}
    )
    assert response.status_code == 302 and response["Location"] == console_url(world)
    assert stored_config(world)["release_columns"][0]["label_ja"] == "有用度（修正）"
    assert version(world) > bumped
    assert edits(world)[-1]["fields"] == ["release_columns"]
    results = reverse("round_tab", args=[world.competition.slug, world.round.slug, "results"])
    japanese = html.unescape(client.get(results, HTTP_ACCEPT_LANGUAGE="ja").content.decode())
    assert "有用度（修正）" in japanese
    english = html.unescape(client.get(results, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "有用度（修正）" not in english and "Utility" in english


def test_a_gate_added_re_ranks_the_release_it_fails():
    world = scorer_world(slug="hcr3")
    release(world, "a", release_bytes(noise=40, seed=1))
    release(world, "b", release_bytes(noise=0))
    release(world, "c", release_bytes(noise=1, seed=3))
    attack_phase(world)

    def ranked() -> dict:
        world.round.refresh_from_db()  # the settings as stored
        board = selectors.standings(scorer=world.scorer)
        return {row.team.slug: row for row in board.releases}

    before = ranked()
    first = next(slug for slug, row in before.items() if row.rank == 1)
    assert all(row.failed_gates == [] for row in before.values())
    utilities = sorted(row.primary for row in before.values())
    below_the_first = (utilities[-1] + utilities[-2]) / 2  # only the first is above it
    fill = {"gate_0_key": "utility", "gate_0_bound": "max", "gate_0_value": below_the_first}
    response = post_as_rendered(organizer_client(world), rules_url(world), "scorer-rules", fill)
    assert response.status_code == 302, response.content.decode()[:2000]
    after = ranked()
    assert [gate["key"] for gate in after[first].failed_gates] == ["utility"]
    assert after[first].rank == 3
    assert edits(world)[-1]["fields"] == ["gates"]


def test_a_score_key_cannot_change_once_an_upload_is_stored():
    world = scorer_world(slug="hcr4", letters="ab")
    release(world, "a", release_bytes(noise=0))
    before, bumped = stored_config(world), version(world)
    fill = {"release_col_0_key": "util2", "release_primary": "util2"}
    response = post_as_rendered(organizer_client(world), rules_url(world), "scorer-rules", fill)
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    errors = re.search(r'data-testid="scorer-release-columns-errors">(.*?)</ul>', page, re.S)
    assert errors and "their scores are keyed by the score keys" in errors.group(1)
    assert stored_config(world) == before and version(world) == bumped
    assert all(
        "fields" not in detail or detail["fields"] != ["release_columns"] for detail in edits(world)
    )


def test_a_score_key_can_change_before_any_upload():
    world = scorer_world(slug="hcr5", build=False)
    fill = {"release_col_0_key": "util2", "release_primary": "util2"}
    response = post_as_rendered(organizer_client(world), rules_url(world), "scorer-rules", fill)
    assert response.status_code == 302, response.content.decode()[:2000]
    config = stored_config(world)
    assert [c["key"] for c in config["release_columns"]] == ["util2"]
    assert config["release_primary"] == "util2"
    assert config["limits"]["timeout_seconds"] == 60  # the limits as the page shows them
    assert edits(world)[-1]["fields"] == ["release_columns", "release_primary"]


def test_an_unchanged_page_saves_nothing():
    world = scorer_world(slug="hcr6", build=False)
    before, bumped, logged = stored_config(world), version(world), len(edits(world))
    response = post_as_rendered(organizer_client(world), rules_url(world), "scorer-rules")
    assert response.status_code == 302
    assert stored_config(world) == before and version(world) == bumped
    assert len(edits(world)) == logged


def test_a_team_member_gets_404_and_changes_nothing():
    world = scorer_world(slug="hcr7", build=False)
    before = stored_config(world)
    member = Client()
    member.force_login(world.users["a"])
    assert member.get(rules_url(world)).status_code == 404
    posted = member.post(rules_url(world), {"release_col_0_key": "x", "attack_mode": "per_target"})
    assert posted.status_code == 404
    assert stored_config(world) == before


def test_the_page_in_japanese():
    world = scorer_world(slug="hcr8", build=False)
    client = organizer_client(world)
    page = client.get(rules_url(world), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "ラウンドのルールの編集" in page and "Edit the round's rules" not in page
    assert "順位はすべて新しいルールで計算し直されます" in page
    panel = client.get(console_url(world), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "ラウンドのルールの編集" in panel


def test_once_the_results_are_published_only_the_labels_change():
    from pwscup.scorer import services

    world = scorer_world(slug="hcr9", letters="ab")
    release(world, "a", release_bytes(noise=0))
    attack_phase(world)
    services.results_publish(scorer=world.scorer, user=world.organizer)
    client = organizer_client(world)
    before = stored_config(world)
    response = post_as_rendered(client, rules_url(world), "scorer-rules", {"visibility": "hidden"})
    assert response.status_code == 200
    assert "a published ranking never changes" in html.unescape(response.content.decode())
    assert stored_config(world) == before
    fill = {"timeout_seconds": "120"}
    response = post_as_rendered(client, rules_url(world), "scorer-rules", fill)
    assert "a published ranking never changes" in html.unescape(response.content.decode())
    assert stored_config(world) == before
    fill = {"release_col_0_label": "Usefulness"}
    assert post_as_rendered(client, rules_url(world), "scorer-rules", fill).status_code == 302
    assert stored_config(world)["release_columns"][0]["label"] == "Usefulness"


def test_the_files_and_the_limits_change_and_the_next_upload_follows_them():
    """The files an upload must hold and the sandbox's limits change on the page, after an
    upload is stored too: the stored upload keeps its scores, the next one is checked by
    the new rule (refused at once, naming the file) and the runs take the new limits."""
    from pwscup.scorer import services
    from pwscup.scorer.models import Release
    from pwscup.submissions.models import Status
    from scoring.scorer.round_config import parse_round_config
    from tests.pwscup.scorer_world import upload_file

    world = scorer_world(slug="hcr10", letters="ab")
    kept = release(world, "a", release_bytes(noise=0))
    assert kept.status == Status.FINISHED
    fill = {
        "release_files_required": "release.csv\nmodel.json",
        "release_files_only": True,
        "timeout_seconds": "120",
        "memory_mb": "",  # empty: the default
    }
    response = post_as_rendered(organizer_client(world), rules_url(world), "scorer-rules", fill)
    assert response.status_code == 302, response.content.decode()[:2000]
    config = stored_config(world)
    assert config["release_files"] == {
        "required": ["release.csv", "model.json"],
        "only_required": True,
    }
    assert config["limits"] == {"timeout_seconds": 120, "memory_mb": 2048, "processes": 64}
    assert parse_round_config(config).sandbox_limits().timeout_seconds == 120.0
    assert edits(world)[-1]["fields"] == ["release_files", "limits"]
    assert Release.objects.get(pk=kept.pk).status == Status.FINISHED  # kept as scored
    world.scorer.refresh_from_db()
    refused = services.release_upload(
        scorer=world.scorer,
        team=world.teams["b"],
        user=world.users["b"],
        uploaded_file=upload_file(release_bytes(noise=1), "release.csv"),
    )
    refused = Release.objects.get(pk=refused.pk)
    # A lone file where the rule asks for two: the refusal says to send them in one ZIP.
    assert refused.status == Status.FAILED and refused.message_code == "scorer.files.missing_zip"
    page = organizer_client(world).get(rules_url(world)).content.decode()
    assert 'name="timeout_seconds" value="120"' in page
    assert "release.csv\nmodel.json</textarea>" in page


def test_a_limit_out_of_range_is_refused_under_its_field():
    world = scorer_world(slug="hcr11", build=False)
    before = stored_config(world)
    fill = {"memory_mb": "10"}
    response = post_as_rendered(organizer_client(world), rules_url(world), "scorer-rules", fill)
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    field = re.search(r'<div class="field has-error" data-field="memory_mb">.*?</div>', page, re.S)
    assert field and 'class="errorlist' in field.group(0) and "64" in field.group(0)
    assert stored_config(world) == before


def test_an_attack_not_made_counts_as_the_score_the_organizer_sets():
    """PWSCup 2019 counts a target not attacked as a privacy of 1 (an attack score of 0): set
    on the rules page as the browser renders it, a release nobody attacked gets a protection
    and the Rules tab says the rule, in both languages."""
    from django.conf import settings

    from pwscup.kinds.tabs import RESULTS, RULES, tab_url
    from tests.pwscup.scorer_world import attack, guess_bytes

    world = scorer_world(slug="hcr9", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=25, seed=2))
    targets = attack_phase(world)
    attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])

    def protections() -> dict:
        world.round.refresh_from_db()
        return {
            row.team.slug: row.protection
            for row in selectors.standings(scorer=world.scorer).releases
        }

    assert protections()["teamb"] is None
    client = organizer_client(world)
    page = client.get(rules_url(world)).content.decode()
    assert 'name="unattacked"' in page
    response = post_as_rendered(client, rules_url(world), "scorer-rules", {"unattacked": "0"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert stored_config(world)["unattacked"] == 0.0
    assert protections()["teamb"] == 0.0 and protections()["teama"] is not None
    assert edits(world)[-1]["fields"] == ["unattacked"]
    team = Client()
    team.force_login(world.users["a"])
    for lang, words in (
        ("en", "An attack not made counts as 0"),
        ("ja", "攻撃しなかった対象は 0 として数えます"),
    ):
        team.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
        rules = html.unescape(team.get(tab_url(world.round, RULES)).content.decode())
        assert words in rules
        assert 'data-testid="unattacked-rule"' in rules
    for lang, words in (
        ("en", "A “·” counts as 0 in"),
        ("ja", "「·」は防御度と攻撃力の計算で 0 として"),
    ):
        client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
        results = html.unescape(client.get(tab_url(world.round, RESULTS)).content.decode())
        assert words in results  # under the attack matrix, where a “·” is
    # Emptied again: a target not attacked is missing once more.
    post_as_rendered(client, rules_url(world), "scorer-rules", {"unattacked": ""})
    assert stored_config(world)["unattacked"] is None and protections()["teamb"] is None


def test_the_attack_score_against_the_top_releases_counts_an_attack_not_made_the_same_way():
    """The core's top-N attack score reads the scorer's matrix as the round's own power rule
    does: with 'An attack not made counts as 0', B's mean over A and C is half its score on A."""
    from pwscup.competitions.attack_top import attack_top_scores
    from tests.pwscup.scorer_world import attack, guess_bytes

    world = scorer_world(slug="hcr10", letters="abc")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=25, seed=2))
    release(world, "c", release_bytes(noise=5, seed=3))
    targets = attack_phase(world)
    on_a = attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    score = on_a.scores[stored_config(world)["attack_primary"]]
    world.round.attack_top_n = 5
    b = world.teams["b"].pk
    assert attack_top_scores(world.round)[b] == pytest.approx(score)
    post_as_rendered(organizer_client(world), rules_url(world), "scorer-rules", {"unattacked": "0"})
    world.round.refresh_from_db()
    world.round.attack_top_n = 5
    assert attack_top_scores(world.round)[b] == pytest.approx(score / 2)
