"""Browser journey of the synthetic round: a student downloads the members table, makes the
kit's sample release from it and uploads it, sees its scores; after the freeze downloads
another team's release and challenge set, answers with the kit's DCR attack and sees its
dev-half scores only; after publication reads the matrix, both rankings and the ROC curves
(English and Japanese, desktop and a 390 px phone), under the strict CSP."""

import io
import time

import pandas as pd
import pytest

from pwscup.submissions.models import Status
from pwscup.synthetic import engine, services
from pwscup.synthetic.models import SynAttack, SynRelease
from scoring.display import format_figure
from scoring.synthetic.kit import dcr_answer, independent_marginals, table_text
from scoring.synthetic.release import read_challenge, read_release
from tests.e2e import helpers
from tests.e2e.helpers import PASSWORD, log_in, open_tab, reload_page, switch_language
from tests.pwscup.syn_world import (
    baseline_release,
    freeze,
    open_attack_phase,
    release,
    syn_world,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def syn_e2e_world(transactional_db):
    return syn_world(slug="syne2e", letters="ab", password=PASSWORD)


def run_jobs() -> None:
    """What the worker does: score every queued release and attack here. A job a worker of
    the suite has already claimed (its message went to the broker) is waited for."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for pk in SynRelease.objects.filter(status=Status.QUEUED).values_list("pk", flat=True):
            services.release_score(release_id=pk)
        for pk in SynAttack.objects.filter(status=Status.QUEUED).values_list("pk", flat=True):
            services.attack_score(attack_id=pk)
        pending = (Status.QUEUED, Status.RUNNING)
        if not (
            SynRelease.objects.filter(status__in=pending).exists()
            or SynAttack.objects.filter(status__in=pending).exists()
        ):
            return
        time.sleep(0.5)


def downloaded(page, link) -> bytes:
    with page.expect_download() as download:
        link.click()
    return open(download.value.path(), "rb").read()


def upload_through(page, form, name: str, content: bytes) -> None:
    form.locator("input[type=file]").set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": content}]
    )
    with page.expect_navigation():
        form.locator("button[type=submit]").click()


def fits(page, width: int) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth") <= width


def test_a_student_releases_attacks_and_reads_the_results(web, syn_e2e_world, screenshot):
    world = syn_e2e_world
    population = engine.round_population(world.round)
    round_url = f"/c/{world.competition.slug}/{world.round.slug}/"
    log_in(web, "syne2e-team-a")
    web.goto(round_url)
    open_tab(web, "data")
    assert web.get_by_test_id("label-column").count() == 1
    train = downloaded(web, web.get_by_test_id("download-train"))
    members = read_release(train, population, name="train.csv")  # the kit reads it so
    assert len(members) == 300

    # The kit's sample release, made from the downloaded table, uploaded as it is.
    sample = table_text(independent_marginals(members, rows=len(members), seed=1)).encode()
    open_tab(web, "submit")
    upload_through(web, web.get_by_test_id("upload-form"), "teamA_synthetic.csv", sample)
    assert web.get_by_test_id("message").count() >= 1
    run_jobs()
    reload_page(web)
    kept = SynRelease.objects.get(team=world.teams["a"])
    assert kept.status == Status.FINISHED, kept.message
    assert web.get_by_test_id("u_ml").first.inner_text() == format_figure(kept.scores["u_ml"])
    screenshot(web, "syn-submit-en-desktop")

    # Team B releases too; the organizer freezes; the attack phase opens.
    release(world, "b", baseline_release(world, "b"))
    freeze(world)
    open_attack_phase(world)

    web.goto(round_url)
    open_tab(web, "data")
    row = web.get_by_test_id("published-teamB")
    target_release = downloaded(web, row.get_by_role("link").nth(0))
    challenge = downloaded(web, row.get_by_role("link").nth(1))
    assert web.get_by_test_id("published-teamA").count() == 0  # not its own
    assert "member" not in challenge.decode().splitlines()[0]
    answer = dcr_answer(
        read_release(target_release, population),
        read_challenge(challenge, population),
        population,
    ).to_csv(index=False, lineterminator="\n")
    open_tab(web, "submit")
    upload_through(
        web, web.get_by_test_id("attack-form-teamB"), "teamA_mia_teamB.csv", answer.encode()
    )
    run_jobs()
    reload_page(web)
    attack = SynAttack.objects.get(team=world.teams["a"])
    assert attack.status == Status.FINISHED, attack.message
    shown = web.get_by_test_id(f"attack-{attack.pk}").inner_text()
    assert format_figure(attack.dev["auc"]) in shown
    page_text = web.content()
    assert f"{attack.final['auc']:.6f}" not in page_text  # the final half stays hidden
    assert pd.read_csv(io.StringIO(answer))["id"].is_unique

    services.results_publish(synthetic=world.synthetic, user=world.organizer)
    web.goto(round_url)
    open_tab(web, "results")
    assert web.get_by_test_id("matrix").is_visible()
    assert web.get_by_test_id("release-ranking").is_visible()
    assert web.get_by_test_id("attack-ranking").is_visible()
    assert web.get_by_test_id("roc-teamB").is_visible()
    screenshot(web, "syn-results-en-desktop")
    web.set_viewport_size({"width": 390, "height": 844})
    assert fits(web, 390), "the results tab is wider than a 390 px phone"
    switch_language(web, "ja")
    assert web.get_by_test_id("matrix").is_visible()
    assert fits(web, 390), "the Japanese results tab is wider than a 390 px phone"
    screenshot(web, "syn-results-ja-phone")
    open_tab(web, "rules")
    assert web.get_by_test_id("worked-example").is_visible()
    assert fits(web, 390), "the Japanese rules tab is wider than a 390 px phone"


def test_a_refused_release_s_reason_is_read_whole_on_a_phone(web, syn_e2e_world):
    # The reason sat in a cell right of the status, most of it past the screen's right edge
    # at 390 px (the table scrolls in its frame): it now has a row of its own, no wider than
    # the screen, as a 2015 round's failed uploads.
    world = syn_e2e_world
    good = baseline_release(world, "a")
    header, rest = good.split(b"\n", 1)
    refused = release(world, "a", header.replace(b"age", b"Age", 1) + b"\n" + rest)
    assert refused.status == Status.FAILED
    helpers.phone_submit_tab(web, "syne2e-team-a", world.round)
    reason = web.get_by_test_id(f"release-{refused.pk}").get_by_test_id("message")
    helpers.assert_whole_on_screen(reason, "'Age'")
