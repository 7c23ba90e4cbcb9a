"""A team member's anonymization-phase journey, in English and in Japanese."""

import io
import re

import pandas as pd
import pytest
from playwright.sync_api import expect

import scoring
from pwscup.pwscup2015.models import AnonymizationSubmission
from tests.e2e.helpers import (
    SCORING_TIMEOUT,
    log_in,
    open_tab,
    reload_page,
    switch_language,
    worker_paused,
)
from tests.support import noisy_copy, table_bytes

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# What the page must say in each language (the Japanese comes from locale/ja).
TEXT = {
    "en": {
        "phase": "Anonymization phase",
        "received": "Upload received",
        "queued": "Queued",
        "finished": "Finished",
        "failed": "Failed",
        "quota": "Used today: 1 (no daily limit)",
        "leaderboard": "Leaderboard",
        "rank": "Rank",
        "rule": "Representative submission",
    },
    "ja": {
        "phase": "匿名加工フェーズ",
        "received": "アップロードを受け付けました",
        "queued": "待機中",
        "finished": "完了",
        "failed": "失敗",
        "quota": "本日の提出：1（1日の上限なし）",
        "leaderboard": "リーダーボード",
        "rank": "順位",
        "rule": "代表提出",
    },
}
# ASCII words the Japanese round page may show: data, names, file names, the scorer's
# (English) validation message, and the CSV file chooser's own label.
DATA_WORDS = {
    "Round",
    "Team",
    "Asia",
    "Tokyo",
    "teamA",
    "anonymized",
    "Choose",
    "File",
    "chosen",
    "header",
    "submission",
    "differs",
    "from",
    "original",
    "missing",
    "column",
    "Expected",
    "workclass",
    "fnlwgt",
    "education",
    "marital",
    "status",
    "occupation",
    "relationship",
    "race",
    "capital",
    "gain",
    "loss",
    "hours",
    "week",
    "native",
    "country",
    "income",
    "Cup",
    "PWSCup",
    "English",
    # The metrics' 2015 names in the table headers (meanMAE, identify.rand, k-anony, …),
    # the configuration's keys (match_qi) and the scoring command (python -m scoring
    # evaluate … --config r1_config.json, --format json, check).
    *("meanMAE", "crossMean", "crossCnt", "corMAE", "nrow", "anony", "anonymMean"),
    *("identify", "rand", "sort", "match"),
    *("python", "scoring", "evaluate", "config", "format", "json", "JSON", "check"),
    # The starter kit's file names (attr_depth.json, README).
    *("attr", "depth", "README"),
}
UPLOAD_INPUT = "[data-testid=upload-form] input[type=file]"


def upload(page, path) -> None:
    page.set_input_files(UPLOAD_INPUT, str(path))
    with page.expect_navigation():
        page.get_by_test_id("upload-submit").click()


def shown_value(cell) -> float | None:
    text = cell.inner_text().strip()
    return None if text == "–" else float(text)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_team_uploads_sees_live_scores_and_the_leaderboard(
    web, e2e_world, celery_worker_process, screenshot, tmp_path, language
):
    page, world, text = web, e2e_world, TEXT[language]
    team = world.teams["a"]
    log_in(page, "team-a")
    if language != "en":
        switch_language(page, language)
    page.goto(world.round_url())
    open_tab(page, "submit")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_test_id("anonymization-phase").locator("h2")).to_contain_text(text["phase"])

    # A valid upload stays queued while the worker is busy, then turns Finished by itself.
    valid = tmp_path / "teamA_anonymized.csv"
    valid.write_bytes(noisy_copy(world.original, seed=1, delete=3))
    with worker_paused(celery_worker_process):
        upload(page, valid)
        expect(page.get_by_test_id("message")).to_contain_text(text["received"])
        submission = AnonymizationSubmission.objects.get(team=team)
        row = page.get_by_test_id(f"submission-{submission.pk}")
        expect(row).to_have_attribute("data-status", "queued")
        expect(row.get_by_test_id("status")).to_have_text(text["queued"])
        page.evaluate("window.__sameDocument = true")
    expect(row).to_have_attribute("data-status", "finished", timeout=SCORING_TIMEOUT * 1000)
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"
    expect(row.get_by_test_id("status")).to_have_text(text["finished"])
    submission.refresh_from_db()
    cells = row.locator("td[data-metric]")
    expect(cells).to_have_count(len(scoring.METRICS))
    assert len(scoring.METRICS) == 14
    for metric in scoring.METRICS:
        value = submission.scores[metric]
        shown = shown_value(row.locator(f'td[data-metric="{metric}"]'))
        assert shown == (None if value is None else pytest.approx(value, abs=6e-5)), metric

    # An upload without the "age" column fails, with a message naming the column.
    table = pd.read_csv(io.BytesIO(world.original), dtype=str, keep_default_na=False)
    invalid = tmp_path / "no_age.csv"
    invalid.write_bytes(table_bytes(table.drop(columns=["age"])))
    upload(page, invalid)
    bad = AnonymizationSubmission.objects.exclude(pk=submission.pk).get(team=team)
    bad_row = page.get_by_test_id(f"submission-{bad.pk}")
    expect(bad_row).to_have_attribute("data-status", "failed", timeout=SCORING_TIMEOUT * 1000)
    expect(bad_row.get_by_test_id("status")).to_have_text(text["failed"])
    message = bad_row.get_by_test_id("job-message").inner_text()
    # Shown in the page's language (stored by the worker as a code and parameters).
    missing = {"en": "missing column(s): 'age'", "ja": "足りない列: 'age'"}[language]
    assert missing in message, message
    expect(bad_row.locator("td[data-metric]")).to_have_count(0)
    reload_page(page)
    expect(page.get_by_test_id("quota")).to_contain_text(text["quota"])  # failed: not counted
    screenshot(page, f"round-{language}")
    if language == "ja":
        words = set(re.findall(r"[A-Za-z]{4,}", page.locator("main").inner_text()))
        assert words <= DATA_WORDS, f"untranslated on the round page: {words - DATA_WORDS}"

    # The leaderboard shows team A (the only team with a submission) and the rule in force.
    open_tab(page, "results")
    with page.expect_navigation():
        page.get_by_test_id("leaderboard-link").click()
    expect(page).to_have_title(re.compile(text["leaderboard"]))
    expect(page.get_by_test_id("leaderboard").locator("thead")).to_contain_text(text["rank"])
    expect(page.get_by_test_id("rule")).to_contain_text(text["rule"])
    team_row = page.get_by_test_id("row-teamA")
    expect(team_row).to_contain_text("Team A")
    expect(team_row.locator("td").first).to_have_text("1")
    assert shown_value(team_row.locator('td[data-metric="U1"]')) == pytest.approx(
        submission.scores["U1"], abs=6e-5
    )
    expect(page.get_by_test_id("row-teamB")).to_have_count(0)
    screenshot(page, f"leaderboard-{language}")
