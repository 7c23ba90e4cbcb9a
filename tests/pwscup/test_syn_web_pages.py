"""The synthetic round's pages over HTTP: a release uploaded through the form is kept and
scored, a bad one is rejected with the column, row and value (in Japanese for a Japanese
reader), the JSON answers, the final choice, an attack's dev-half scores, the live box, and
every tab in both languages with no inline script or style (phone width is CSS only)."""

import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from pwscup.submissions.models import Status
from pwscup.synthetic import services
from pwscup.synthetic.models import SynAttack, SynRelease
from scoring.display import format_figure
from tests.pwscup.live_support import live_box
from tests.pwscup.syn_world import (
    baseline_release,
    dcr_answer_bytes,
    freeze,
    open_attack_phase,
    release,
    syn_world,
)

pytestmark = pytest.mark.django_db

TABS = ("overview", "data", "rules", "submit", "results")


def tab_url(world, tab: str) -> str:
    comp, rnd = world.competition.slug, world.round.slug
    if tab == "overview":
        return reverse("round_detail", args=[comp, rnd])
    return reverse("round_tab", args=[comp, rnd, tab])


def page(client, url: str, **headers) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


def post_file(client, url: str, content: bytes, name: str, **headers):
    return client.post(url, {"file": SimpleUploadedFile(name, content, "text/csv")}, **headers)


def upload_block(submit: str, testid: str) -> str:
    """The rows of one upload in a table of the Submit tab (its ``tbody``)."""
    block = submit[submit.index(f'<tbody data-testid="{testid}"') :]
    return block[: block.index("</tbody>")]


def assert_one_message_row(block: str, text: str) -> None:
    """A refused upload's reason, once, in the shared row under it
    (``rounds/_message_row.html``); not also in the old cell of its own."""
    assert block.count(text) == 1 and block.count('data-testid="message"') == 1, block
    row = block[block.index('<tr class="upload-message') :]
    assert row.index(text) < row.index("</tr>"), block
    assert 'class="message"' not in block, block


def test_syn_a_release_uploaded_over_http_is_kept_scored_and_chosen(client):
    world = syn_world(slug="synup", letters="ab")
    client.force_login(world.users["a"])
    upload = reverse("synthetic:syn-release-send", args=[world.competition.slug, world.round.slug])
    response = post_file(client, upload, baseline_release(world, "a"), "teamA_synthetic.csv")
    assert response.status_code == 302 and response.url.endswith("/submit/#releases")
    kept = SynRelease.objects.get(team=world.teams["a"])
    assert kept.status == Status.QUEUED
    submit = page(client, tab_url(world, "submit"))
    assert 'data-testid="pending"' in submit
    raw = client.get(tab_url(world, "submit")).content.decode()
    url, etag = live_box(raw)  # the page follows the team's jobs
    assert url.endswith("/live/team/") and etag
    services.release_score(release_id=kept.pk)
    kept.refresh_from_db()
    assert kept.status == Status.FINISHED, kept.message
    submit = page(client, tab_url(world, "submit"))
    assert (
        format_figure(kept.scores["u_ml"]) in submit and format_figure(kept.scores["u_1"]) in submit
    )
    assert format_figure(kept.scores["dcr_5_holdout"]) in submit
    assert "final (last valid)" in submit and 'data-testid="live-reload"' not in submit
    # JSON: the same form answers 202 with the upload's id.
    response = post_file(
        client,
        upload,
        baseline_release(world, "a", seed=1),
        "a.csv",
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 202
    second = SynRelease.objects.get(pk=response.json()["id"])
    services.release_score(release_id=second.pk)
    # The first one becomes the final choice.
    select = reverse("synthetic:select", args=[world.competition.slug, world.round.slug, kept.pk])
    assert client.post(select).status_code == 302
    kept.refresh_from_db()
    assert kept.selected
    assert "final (chosen)" in page(client, tab_url(world, "submit"))
    targets = freeze(world)
    assert targets["teamA"].release_id == kept.pk
    # Frozen: the form is gone and an upload is refused (JSON: 403 with the reason).
    assert 'data-testid="upload-form"' not in page(client, tab_url(world, "submit"))
    response = post_file(
        client, upload, baseline_release(world, "a"), "late.csv", HTTP_ACCEPT="application/json"
    )
    assert response.status_code == 403 and "frozen" in response.json()["error"]


def test_syn_a_bad_release_names_column_row_value_in_the_readers_language(client):
    world = syn_world(slug="synbad", letters="ab")
    client.force_login(world.users["a"])
    upload = reverse("synthetic:syn-release-send", args=[world.competition.slug, world.round.slug])
    bad = baseline_release(world, "a").replace(b",Male,", b",Mle,", 1)
    assert post_file(client, upload, bad, "bad.csv", HTTP_ACCEPT_LANGUAGE="ja").status_code == 302
    kept = SynRelease.objects.get(team=world.teams["a"])
    services.release_score(release_id=kept.pk)
    kept.refresh_from_db()
    assert kept.status == Status.FAILED
    japanese = page(client, tab_url(world, "submit"), HTTP_ACCEPT_LANGUAGE="ja")
    message = japanese[japanese.index('data-testid="message"') :]
    message = message[: message.index("</pre>")]
    assert "列" in message and "sex" in message and "Mle" in message and "行" in message
    english = page(client, tab_url(world, "submit"), HTTP_ACCEPT_LANGUAGE="en")
    message = english[english.index('data-testid="message"') :]
    message = message[: message.index("</pre>")]
    assert "sex" in message and "Mle" in message and "row" in message
    assert_one_message_row(upload_block(english, f"release-{kept.pk}"), kept.message_text)


def test_syn_an_attack_over_http_shows_its_dev_half_only(client):
    world = syn_world(slug="synatk")
    for letter in "abc":
        release(world, letter, baseline_release(world, letter))
    targets = freeze(world)
    open_attack_phase(world)
    world.synthetic.refresh_from_db()
    client.force_login(world.users["b"])
    submit = page(client, tab_url(world, "submit"))
    assert 'data-testid="attack-form-teamA"' in submit
    assert 'data-testid="attack-form-teamB"' not in submit  # not its own release
    url = reverse("synthetic:syn-attack-send", args=[world.competition.slug, world.round.slug])
    answer = dcr_answer_bytes(world, targets["teamA"])
    response = client.post(
        url,
        {"file": SimpleUploadedFile("teamB_mia_teamA.csv", answer, "text/csv"), "target": "teamA"},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 202, response.content
    kept = SynAttack.objects.get(pk=response.json()["id"])
    services.attack_score(attack_id=kept.pk)
    kept.refresh_from_db()
    assert kept.status == Status.FINISHED, kept.message
    # Make the two halves tell apart: the final half set to numbers of its own. The page's
    # other numbers (the releases' scores, drawn at random) may happen to read the same, so
    # each such number must appear as often as it did before the final half held it.
    sentinels = ("0.123", "0.012", "0.046")
    before = page(client, tab_url(world, "submit"))
    SynAttack.objects.filter(pk=kept.pk).update(
        final={"auc": 0.1234, "tpr@0.1": 0.0123, "adv": 0.0456}
    )
    submit = page(client, tab_url(world, "submit"))
    block = submit[submit.index(f'data-testid="attack-{kept.pk}"') :]
    block = block[: block.index("</tr>")]
    assert format_figure(kept.dev["auc"]) in block and format_figure(kept.dev["tpr@0.1"]) in block
    assert [submit.count(n) for n in sentinels] == [before.count(n) for n in sentinels]
    assert 'data-testid="ranks"' in submit  # the provisional ranks on the dev half
    # A bad answer: rejected with the id named.
    bad = b"id,score\n1,0.5\n1,0.2\n"
    response = client.post(
        url, {"file": SimpleUploadedFile("bad.csv", bad, "text/csv"), "target": "teamA"}
    )
    assert response.status_code == 302 and response.url.endswith("/submit/#attack-teamA")
    failed = SynAttack.objects.filter(team=world.teams["b"]).order_by("-pk").first()
    services.attack_score(attack_id=failed.pk)
    failed.refresh_from_db()
    assert failed.status == Status.FAILED
    submit = page(client, tab_url(world, "submit"))
    assert_one_message_row(upload_block(submit, f"attack-{failed.pk}"), failed.message_text)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_syn_every_tab_answers_in_both_languages_without_inline_code(client, lang):
    world = syn_world(slug=f"synlang{lang}", letters="ab")
    release(world, "a", baseline_release(world, "a"))
    release(world, "b", baseline_release(world, "b"))
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>")
    stages = ("release", "frozen", "published")
    for stage in stages:
        if stage == "frozen":
            freeze(world)
            open_attack_phase(world)
        elif stage == "published":
            services.results_publish(synthetic=world.synthetic)
        for user in (world.users["a"], world.organizer, None):
            client.logout()
            if user is not None:
                client.force_login(user)
            client.cookies["django_language"] = lang
            for tab in TABS:
                text = page(client, tab_url(world, tab), HTTP_ACCEPT_LANGUAGE=lang)
                assert ' style="' not in text and not inline_script.search(text), (stage, tab)
                if lang == "ja":
                    assert 'lang="ja"' in text or "ラウンド" in text


def test_syn_the_japanese_pages_are_translated(client):
    world = syn_world(slug="synja", letters="ab")
    client.force_login(world.users["a"])
    overview = page(client, tab_url(world, "overview"), HTTP_ACCEPT_LANGUAGE="ja")
    assert "合成" in overview and "メンバーシップ推定" in overview
    rules = page(client, tab_url(world, "rules"), HTTP_ACCEPT_LANGUAGE="ja")
    assert "0.875" in rules and "0.75" in rules and "ゲート" in rules
    # A release failing a utility gate gets no rank (— on the Results tab, no combined value
    # in the standings); the tab said it was "ranked below" every release that passes.
    assert "順位はつきません" in rules and "下の順位" not in rules
    assert "it gets no rank" in page(client, tab_url(world, "rules"))
    data = page(client, tab_url(world, "data"), HTTP_ACCEPT_LANGUAGE="ja")
    assert "teamA_train.csv" in data and "ラベル" in data
    # How many teams the table keeps disjoint, said before a later team makes them overlap.
    assert "チームまでです" in data
    assert "teams so; a team registering after them" in page(client, tab_url(world, "data"))


def test_syn_results_url_is_the_results_tab():
    world = syn_world(slug="synurl", letters="a")
    from pwscup.kinds.registry import kind_of

    assert kind_of(world.round).leaderboard_url(world.round) == tab_url(world, "results")
    assert json.dumps(kind_of(world.round).results_summary(world.round)) == "[]"


def test_syn_the_worst_attack_names_who_reached_it_the_null_attack_as_chance(client):
    """Spec §5 ranks a release by "the highest headline any attacker (team or built-in)
    reached on them", the null attack included (§2: random scores, the chance level every
    matrix shows). Where the null attack reached it, the Results tab and the standings name
    it, so that a team reads its release's number was chance, not an attack."""
    from pwscup.synthetic import engine
    from pwscup.synthetic.models import SynTarget

    world = syn_world(slug="synworst", letters="ab")
    for letter in "ab":
        release(world, letter, baseline_release(world, letter))
    target = freeze(world)["teamA"]
    open_attack_phase(world)
    headline = engine.round_config(world.round).headline
    builtin = target.builtin
    for name, halves in builtin.items():
        halves["dev"][headline] = 0.9 if name == "null" else 0.05
    SynTarget.objects.filter(pk=target.pk).update(builtin=builtin)
    client.force_login(world.users["b"])
    for lang, null in (
        ("en", "null, chance level (built-in)"),
        ("ja", "null・偶然の水準（組み込み）"),
    ):
        client.cookies["django_language"] = lang
        results = page(client, tab_url(world, "results"))
        row = results[results.index('data-testid="release-rank-teamA"') :].split("</tr>")[0]
        assert format_figure(0.9) in row
        assert re.search(r'data-testid="worst-by"><span>([^<]*)</span><', row).group(1) == null
    client.cookies["django_language"] = "en"
    url = reverse("api:round-standings", args=[world.competition.slug, world.round.slug])
    releases = client.get(url).json()["tables"][0]
    by = releases["columns"].index("Reached by")
    (row,) = [row for row in releases["rows"] if row[1] == "Team A"]
    assert row[by] == "null, chance level (built-in)"


def test_syn_the_roc_charts_name_the_built_in_attacks_as_the_matrix_does(client):
    """Found walking the demo: the published Results tab's ROC legends (and each curve's
    tooltip) read the built-in attacks' keys, ``dcr``, ``density``, ``null``, in English and
    in Japanese, beside a matrix that names them "DCR (built-in)" / 「DCR（組み込み）」."""
    world = syn_world(slug="synroc", letters="ab")
    for letter in "ab":
        release(world, letter, baseline_release(world, letter))
    freeze(world)
    services.results_publish(synthetic=world.synthetic)
    client.force_login(world.users["a"])
    for lang, names in (
        ("en", ["DCR (built-in)", "density (built-in)", "null, chance level (built-in)"]),
        ("ja", ["DCR（組み込み）", "density（組み込み）", "null・偶然の水準（組み込み）"]),
    ):
        client.cookies["django_language"] = lang
        results = page(client, tab_url(world, "results"))
        figure = results[results.index('data-testid="roc-teamA"') :].split("</figure>")[0]
        legend = re.findall(r"</span> ([^<]*)</li>", figure)
        assert legend == names, lang
        assert re.findall(r"<polyline[^>]*><title>([^<]*)</title>", figure) == names, lang
