"""The scorer round's pages over HTTP: a release uploaded through the form is kept and queued
(JSON for a fetch), its scores shown exactly as stored with the program's version, the final
choice, an attack on a chosen target and one covering every target, band visibility showing a
band and never the value, the detailed results page in its sandbox, and every tab in both
languages with no inline script or style."""

import html
import re

import pytest
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from pwscup.scorer import score_text, services
from pwscup.scorer.models import Attack, Release
from pwscup.submissions.models import Status
from scoring.scorer.matrix import band, band_label
from tests.pwscup.scorer_world import (
    CONFIG,
    attack,
    attack_phase,
    freeze,
    guess_bytes,
    release,
    release_bytes,
    scorer_world,
    zipped,
)

pytestmark = pytest.mark.django_db

TABS = ("overview", "data", "rules", "submit", "results")


def tab_url(world, tab: str) -> str:
    comp, rnd = world.competition.slug, world.round.slug
    if tab == "overview":
        return reverse("round_detail", args=[comp, rnd])
    return reverse("round_tab", args=[comp, rnd, tab])


def kind_url(world, name: str, *args) -> str:
    return reverse(f"scorer:{name}", args=[world.competition.slug, world.round.slug, *args])


def page(client, url: str, **headers) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


def cells(text: str, testid: str) -> list[str]:
    return re.findall(rf'data-testid="{testid}">([^<]*)<', text)


def post_file(client, url: str, content: bytes, name: str, data=None, **headers):
    payload = {"file": SimpleUploadedFile(name, content, "text/csv"), **(data or {})}
    return client.post(url, payload, **headers)


def test_scorer_a_release_uploaded_over_http_is_kept_queued_scored_and_chosen(client):
    world = scorer_world(slug="shp1", letters="ab")
    client.force_login(world.users["a"])
    response = post_file(
        client, kind_url(world, "scorer-release-send"), release_bytes(noise=0), "r.csv"
    )
    assert response.status_code == 302 and response["Location"].endswith("#releases")
    kept = Release.objects.get(scorer=world.scorer, team=world.teams["a"])
    assert kept.status == Status.QUEUED and kept.number == 1
    text = page(client, tab_url(world, "submit"))
    assert "#1" in text and 'data-testid="pending"' in text
    # A fetch gets JSON: the upload's number and state.
    answer = post_file(
        client,
        kind_url(world, "scorer-release-send"),
        release_bytes(noise=20, seed=1),
        "r2.csv",
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 202
    assert answer.json()["number"] == 2 and answer.json()["status"] == Status.QUEUED
    for row in Release.objects.filter(scorer=world.scorer):
        services.release_score(release_id=row.pk)
    stored = {r.number: r for r in Release.objects.filter(scorer=world.scorer)}
    assert all(r.status == Status.FINISHED for r in stored.values()), [
        r.message for r in stored.values()
    ]
    text = page(client, tab_url(world, "submit"))
    shown = cells(text, "score-utility")
    # Newest first, each with 4 decimals (the tables' rule; the program wrote 100.0).
    assert shown == [score_text.format_score(stored[n].scores["utility"]) for n in (2, 1)]
    assert shown[1] == "100.0000" and shown[0] != shown[1]
    assert cells(text, "program") == [world.program.label] * 2
    # The final choice through the page's button.
    response = client.post(kind_url(world, "select", stored[1].pk))
    assert response.status_code == 302
    assert Release.objects.get(pk=stored[1].pk).selected
    assert "final (chosen)" in page(client, tab_url(world, "submit"))


def test_scorer_a_refused_upload_and_an_empty_form_answer_with_a_message(client):
    world = scorer_world(slug="shp2", letters="a")
    client.force_login(world.users["a"])
    empty = client.post(kind_url(world, "scorer-release-send"), {}, HTTP_ACCEPT="application/json")
    assert empty.status_code == 400 and empty.json()["error"]
    bad = release(world, "a", b"id,age\np0001,3\n")
    assert bad.status == Status.FAILED
    text = page(client, tab_url(world, "submit"))
    assert 'data-testid="rejected"' in text and bad.message.strip()[:30] in text


def test_scorer_attacks_per_target_through_the_page_with_exact_scores(client):
    world = scorer_world(slug="shp3", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    targets = attack_phase(world)
    client.force_login(world.users["b"])
    submit = page(client, tab_url(world, "submit"))
    assert 'data-testid="attack-form"' in submit and 'value="teama"' in submit
    assert 'value="teamb"' not in submit  # never its own release
    answer = post_file(
        client,
        kind_url(world, "scorer-attack-send"),
        guess_bytes(targets["teama"]),
        "guess.csv",
        {"target": "teama"},
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 202, answer.content
    kept = Attack.objects.get(pk=answer.json()["id"])
    assert kept.target_id == targets["teama"].pk and kept.status == Status.QUEUED
    services.attack_score(attack_id=kept.pk)
    kept.refresh_from_db()
    assert cells(page(client, tab_url(world, "submit")), "attack-score") == [
        score_text.format_score(kept.scores["reidentified"])
    ]
    own = post_file(
        client,
        kind_url(world, "scorer-attack-send"),
        b"x",
        "g.csv",
        {"target": "teamb"},
        HTTP_ACCEPT="application/json",
    )
    assert own.status_code == 403 and own.json()["error"]
    missing = post_file(
        client, kind_url(world, "scorer-attack-send"), b"x", "g.csv", HTTP_ACCEPT="application/json"
    )
    assert missing.status_code == 400


def test_scorer_band_visibility_shows_a_band_not_the_value(client):
    config = {**CONFIG, "visibility": "band", "bands": [0.3, 0.6, 0.9]}
    world = scorer_world(slug="shp4", letters="ab", config=config)
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    targets = attack_phase(world)
    hit = attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    value = hit.scores["reidentified"]
    exact = score_text.format_score(value)
    label = band_label(band(value, config["bands"]), config["bands"])
    client.force_login(world.users["b"])
    for tab in ("submit", "results"):
        text = page(client, tab_url(world, tab))
        assert cells(text, "attack-score") == [label], tab
        assert f">{exact}<" not in text, tab
    client.force_login(world.organizer)
    assert f">{exact}<" in page(client, tab_url(world, "results"))
    services.results_publish(scorer=world.scorer, user=world.organizer)
    client.force_login(world.users["b"])
    text = page(client, tab_url(world, "results"))
    assert cells(text, "power") == [exact]


def test_scorer_an_attack_on_every_target_shows_each_targets_score(client):
    config = {**CONFIG, "attack_mode": "all_targets", "visibility": "hidden"}
    world = scorer_world(slug="shp5", letters="abc", config=config)
    for letter, noise in zip("abc", (0, 20, 40), strict=True):
        release(world, letter, release_bytes(noise=noise, seed=noise))
    targets = attack_phase(world)
    client.force_login(world.users["c"])
    submit = page(client, tab_url(world, "submit"))
    assert 'data-testid="attack-form"' in submit and 'name="target"' not in submit
    files = {f"{slug}.csv": guess_bytes(targets[slug]) for slug in ("teama", "teamb")}
    answer = post_file(
        client,
        kind_url(world, "scorer-attack-send"),
        zipped(files),
        "all.zip",
        HTTP_ACCEPT="application/json",
    )
    assert answer.status_code == 202, answer.content
    services.attack_score(attack_id=answer.json()["id"])
    kept = Attack.objects.get(pk=answer.json()["id"])
    assert kept.status == Status.FINISHED, kept.message
    assert set(kept.targets) == {"teama", "teamb"}
    text = page(client, tab_url(world, "submit"))
    assert cells(text, "target-score") == ["…", "…"]  # hidden until the publication
    client.force_login(world.organizer)
    world.scorer.refresh_from_db()
    services.results_publish(scorer=world.scorer, user=world.organizer)
    client.force_login(world.users["c"])
    text = page(client, tab_url(world, "submit"))
    expected = [
        score_text.format_score(kept.targets[slug]["reidentified"]) for slug in ("teama", "teamb")
    ]
    assert cells(text, "target-score") == expected


@pytest.mark.parametrize("attack_higher", [True, False])
def test_scorer_the_rankings_headers_say_which_way_is_better(client, attack_higher):
    """A release's protection is the attacks it suffered (0.98: re-identified at 98 %): its
    header says lower is better when a higher attack score is the attacker's success, and
    higher is better the other way round, in the reader's language."""
    attack_column = {**CONFIG["attack_columns"][0], "higher_is_better": attack_higher}
    config = {**CONFIG, "attack_columns": [attack_column]}
    world = scorer_world(slug="shp6", letters="ab", config=config)
    for letter, noise in zip("ab", (0, 20), strict=True):
        release(world, letter, release_bytes(noise=noise, seed=noise))
    freeze(world)
    client.force_login(world.organizer)
    arrow, words = ("↑", "higher is better") if not attack_higher else ("↓", "lower is better")
    for lang in ("en", "ja"):
        client.cookies["django_language"] = lang
        text = page(client, tab_url(world, "results"))
        header = re.search(r'data-testid="protection-header">(.*?)</th>', text).group(1)
        assert re.search(r'data-testid="better">(.)<', header).group(1) == arrow, header
        with translation.override(lang):
            assert f'aria-label="{translation.gettext(words)}"' in header, (lang, header)


def test_scorer_the_detail_page_is_sandboxed(client):
    world = scorer_world(slug="shp6", letters="a")
    kept = release(world, "a", release_bytes(noise=0))
    kept.detail.save("detailed_results.html", ContentFile(b"<p>fine</p><script>x()</script>"))
    client.force_login(world.users["a"])
    assert 'data-testid="detail"' in page(client, tab_url(world, "submit"))
    response = client.get(kind_url(world, "upload_detail", "releases", kept.pk))
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert policy.startswith("sandbox;") and "default-src 'none'" in policy
    assert "script-src" not in policy
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response.content == b"<p>fine</p><script>x()</script>"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_scorer_every_tab_answers_in_both_languages_without_inline_code(client, lang):
    world = scorer_world(slug=f"shl{lang}", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>")
    for stage in ("release", "frozen", "published"):
        if stage == "frozen":
            targets = attack_phase(world)
            attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
        elif stage == "published":
            services.results_publish(scorer=world.scorer, user=world.organizer)
        for user in (world.users["a"], world.organizer, None):
            client.logout()
            if user is not None:
                client.force_login(user)
            client.cookies["django_language"] = lang
            for tab in TABS:
                text = page(client, tab_url(world, tab), HTTP_ACCEPT_LANGUAGE=lang)
                assert ' style="' not in text and not inline_script.search(text), (stage, tab)
                labelled = tab == "rules" or (tab == "submit" and user == world.users["a"])
                if labelled:
                    label = "有用性" if lang == "ja" else "Utility"
                    assert label in text, (stage, tab)


def test_scorer_the_japanese_pages_are_translated(client):
    world = scorer_world(slug="shja", letters="ab")
    release(world, "a", release_bytes(noise=0))
    client.force_login(world.users["a"])
    overview = page(client, tab_url(world, "overview"), HTTP_ACCEPT_LANGUAGE="ja")
    assert "The game in plain words" not in overview
    assert world.program.label in overview
    rules = page(client, tab_url(world, "rules"), HTTP_ACCEPT_LANGUAGE="ja")
    assert "有用性" in rules and "再識別率" in rules and "Utility" not in rules
    assert "How a release is scored" not in rules
    submit = page(client, tab_url(world, "submit"), HTTP_ACCEPT_LANGUAGE="ja")
    assert "Your releases" not in submit and "有用性" in submit
    english = page(client, tab_url(world, "rules"), HTTP_ACCEPT_LANGUAGE="en")
    assert "Utility" in english and "有用性" not in english


def test_scorer_results_url_is_the_results_tab():
    world = scorer_world(slug="shurl", letters="a", build=False)
    from pwscup.kinds.registry import kind_of

    assert kind_of(world.round).leaderboard_url(world.round) == tab_url(world, "results")


def test_scorer_an_empty_file_is_answered_as_empty_in_both_languages(client):
    world = scorer_world(slug="shp9", letters="a")
    client.force_login(world.users["a"])
    answer = post_file(
        client, kind_url(world, "scorer-release-send"), b"", "r.csv", HTTP_ACCEPT="application/json"
    )
    assert answer.status_code == 400 and answer.json()["error"] == "The submitted file is empty."
    answer = post_file(
        client,
        kind_url(world, "scorer-release-send"),
        b"",
        "r.csv",
        HTTP_ACCEPT="application/json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert answer.json()["error"] == "添付ファイルの中身が空でした。"
    assert not Release.objects.filter(scorer=world.scorer).exists()


def test_a_round_ranked_by_the_program_says_so_on_its_tabs_and_in_the_api(client):
    """Ranked by the organizers' program: the Rules tab says so (not the rules' release
    ranking), the Results tab and the API's standings name the run that ranks, or that none
    has run yet; in both languages. A round its rules rank says neither."""
    from pwscup.api.services import api_token_create
    from pwscup.scorer.models import RankingRun

    world = scorer_world(slug="scow9", letters="ab", config={**CONFIG, "ranking": "program"})
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=25, seed=2))
    attack_phase(world)
    client.force_login(world.organizer)
    rules = page(client, tab_url(world, "rules"), HTTP_ACCEPT_LANGUAGE="en")
    assert 'data-testid="ranking-program"' in rules and 'data-testid="release-rank"' not in rules
    assert "An attacker's power: the mean" in rules and "Attack ranking: by power" not in rules
    token = api_token_create(user=world.organizer, name="t").secret
    api = reverse("api:round-standings", args=[world.competition.slug, world.round.slug])

    def said(language: str) -> tuple[str, str]:
        text = page(client, tab_url(world, "results"), HTTP_ACCEPT_LANGUAGE=language)
        found = re.search(r'data-testid="ranked-by">([^<]*)<', text)
        answer = client.get(
            api, HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_ACCEPT_LANGUAGE=language
        )
        return (found[1] if found else ""), answer.json()["note"]

    assert said("en")[0] == "Not ranked yet: the organizers' ranking program has not run."
    assert said("en")[0] in said("en")[1]
    assert "順位付けプログラムがまだ実行されていません" in said("ja")[0]
    run = services.ranking_request(scorer=world.scorer, user=world.organizer)
    services.ranking_score(run_id=run.pk)
    assert RankingRun.objects.get(pk=run.pk).status == RankingRun.Status.FINISHED
    shown, note = said("en")
    assert shown == f"Ranked by the organizers' ranking program: run #{run.pk}, program v1."
    assert shown in note
    assert f"実行 #{run.pk}、プログラム v1" in said("ja")[0]

    plain = scorer_world(slug="scow10", letters="ab")
    release(plain, "a", release_bytes(noise=0))
    attack_phase(plain)
    client.force_login(plain.organizer)
    assert 'data-testid="ranked-by"' not in page(client, tab_url(plain, "results"))
    plain_rules = page(client, tab_url(plain, "rules"))
    assert 'data-testid="release-rank"' in plain_rules and "Attack ranking: by power" in plain_rules


@pytest.mark.parametrize("lang,label", [("en", "Utility"), ("ja", "有用性")])
def test_scorer_a_failed_gate_is_named_by_its_score_s_label(client, lang, label):
    # PWSCup 2021 gates four scores by key (rate, OR, cor, iloss): a team reads the
    # organizer's label for it in its language, with the bound, not the program's key.
    gated = {**CONFIG, "gates": [{"key": "utility", "min": 99}]}
    world = scorer_world(slug=f"shg{lang}", letters="ab", config=gated)
    release(world, "a", release_bytes(noise=40, seed=1))
    attack_phase(world)
    services.results_publish(scorer=world.scorer, user=world.organizer)
    client.force_login(world.users["a"])
    headers = {"HTTP_ACCEPT_LANGUAGE": lang}
    submit = " ".join(cells(page(client, tab_url(world, "submit"), **headers), "failed-gate"))
    results = cells(page(client, tab_url(world, "results"), **headers), "failed-gate")
    assert f"{label} ≥ 99" in submit and "utility" not in submit
    assert results == [f"{label} ≥ 99"]
    # The Rules tab states the gate in the same words, its bound as the organizer wrote it
    # (the round's rules keep it as the float 99.0; it once read `utility ≥ 99.0`).
    assert cells(page(client, tab_url(world, "rules"), **headers), "gate") == [f"{label} ≥ 99"]
