"""The team's round page: the submissions table never hides the "final" choice, and the
quota line and the "being scored" notice follow the job without a reload."""

import io
import re

import pandas as pd
import pytest
from playwright.sync_api import expect

import scoring
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from tests.e2e.helpers import SCORING_TIMEOUT, log_in, open_tab, worker_paused
from tests.support import noisy_copy, table_bytes

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Scores as wide as the Adult example's (U2 in the thousands).
WIDE_SCORES = {
    "U1": 14.3482,
    "U2": 1152.4042,
    "U3": 0.0321,
    "U4": 0.0019,
    "U5": 0.0087,
    "U6": 163,
    "S1": 1,
    "S2": 1.5098,
    "E1": 0.6617,
    "E2": 0.9143,
    "E3": 0.0009,
    "E4": 0.0008,
    "EUC1": 0.9218,
    "EUC2": 0.9218,
}
LONG_MESSAGE = (
    "Column 'age' holds values that do not occur in that column of the original table: "
    + ", ".join(f"row {i} ('{190 + i}')" for i in range(1, 11))
    + " (1,234 rows in total). To generalize, replace each value by a value of the column that"
    " occurs in the original (e.g. every age from 30 to 39 by 35): a range such as 30-39 or a"
    " new label is refused. Rows are numbered from 1 after the header line."
)


def stored(world, **fields) -> AnonymizationSubmission:
    # The team's own upload numbers are unique per phase, as the upload service gives them.
    mine = AnonymizationSubmission.objects.filter(team=world.teams["a"])
    fields.setdefault("number", mine.count() + 1)
    return AnonymizationSubmission.objects.create(
        phase=world.anonymization,
        team=world.teams["a"],
        uploaded_by=world.users["a"],
        file="private/uploads/layout.csv",
        original_filename="teamA_anonymized_with_a_rather_long_file_name_v12.csv",
        sha256="0" * 64,
        size=1,
        **fields,
    )


def inside(inner: dict, outer: dict) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1920, 1080), (390, 844)])
def test_the_final_column_and_wrapped_failures_stay_in_view(web, e2e_world, width, height):
    world = e2e_world
    selected = stored(world, status=Status.FINISHED, scores=WIDE_SCORES, is_selected=True)
    other = stored(world, status=Status.FINISHED, scores=WIDE_SCORES)
    failed = stored(world, status=Status.FAILED, message=LONG_MESSAGE)
    page = web
    page.set_viewport_size({"width": width, "height": height})
    log_in(page, "team-a")
    page.goto(world.round_url())
    open_tab(page, "submit")
    container = page.get_by_test_id("submissions-scroll")
    container.scroll_into_view_if_needed()
    box = container.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, "the table box overflows the page"

    button = page.get_by_test_id(f"submission-{other.pk}").get_by_role("button")
    tick = page.get_by_test_id(f"submission-{selected.pk}").get_by_test_id("selected")
    expect(button).to_have_text("Make final")
    expect(tick).to_contain_text("✔")
    for element in (button, tick):
        # Scrolled vertically into view, never horizontally: it must be visible as laid out.
        element.evaluate("e => e.scrollIntoView({block: 'center', inline: 'nearest'})")
        container.evaluate("e => { e.scrollLeft = 0; }")
        shown = element.bounding_box()
        assert inside(shown, {"x": 0, "y": 0, "width": width, "height": height}), shown
        assert inside(shown, container.bounding_box()), (shown, container.bounding_box())

    message = page.get_by_test_id(f"submission-{failed.pk}").get_by_test_id("job-message")
    text = message.locator("pre")
    expect(text).to_contain_text("(1,234 rows in total)")
    line_height = text.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 16")
    assert text.bounding_box()["height"] > 2 * line_height, "the failure message does not wrap"
    if width >= 1280:
        shown = text.bounding_box()
        assert shown["x"] + shown["width"] <= width, "the failure message runs off the page"
    if width >= 1920:
        # Wide screens show every column: nothing is scrolled out of view.
        widths = container.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert widths[0] <= widths[1], widths
        euc2 = page.get_by_test_id(f"submission-{other.pk}").locator('td[data-metric="EUC2"]')
        assert inside(euc2.bounding_box(), container.bounding_box())
    assert len(scoring.METRICS) == 14


def test_the_quota_line_and_the_notice_follow_the_job(
    web, e2e_world, celery_worker_process, tmp_path
):
    world, page = e2e_world, web
    log_in(page, "team-a")
    page.goto(world.round_url())
    open_tab(page, "submit")
    page.evaluate("window.__sameDocument = true")
    table = pd.read_csv(io.BytesIO(world.original), dtype=str, keep_default_na=False)
    invalid = tmp_path / "no_age.csv"
    invalid.write_bytes(table_bytes(table.drop(columns=["age"])))
    notice = page.get_by_test_id("message")
    quota = page.get_by_test_id("quota")
    with worker_paused(celery_worker_process):
        page.set_input_files("[data-testid=upload-form] input[type=file]", str(invalid))
        with page.expect_navigation():
            page.get_by_test_id("upload-submit").click()
        bad = AnonymizationSubmission.objects.get(team=world.teams["a"])
        expect(notice).to_have_text(f"Upload received ({bad.label}); it is being scored.")
        expect(quota).to_contain_text("Used today: 1 (no daily limit)")
        page.evaluate("window.__sameDocument = true")
    expect(notice).to_have_text(
        f"Upload {bad.label} failed; the reason is shown in the table below.",
        timeout=SCORING_TIMEOUT * 1000,
    )
    expect(notice).to_have_class(re.compile(r"\berror\b"))
    expect(quota).to_contain_text("Used today: 0 (no daily limit)")
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"

    valid = tmp_path / "teamA_anonymized.csv"
    valid.write_bytes(noisy_copy(world.original, seed=1))
    with worker_paused(celery_worker_process):
        page.set_input_files("[data-testid=upload-form] input[type=file]", str(valid))
        with page.expect_navigation():
            page.get_by_test_id("upload-submit").click()
        good = AnonymizationSubmission.objects.exclude(pk=bad.pk).get(team=world.teams["a"])
        expect(notice).to_have_text(f"Upload received ({good.label}); it is being scored.")
        page.evaluate("window.__sameDocument = true")
    expect(notice).to_have_text(f"Upload {good.label} is scored.", timeout=SCORING_TIMEOUT * 1000)
    expect(notice).to_have_class(re.compile(r"\bsuccess\b"))
    expect(quota).to_contain_text("Used today: 1 (no daily limit)")
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"
