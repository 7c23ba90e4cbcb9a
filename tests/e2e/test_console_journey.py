"""An organizer who is not a superuser, nor staff, runs a whole round from the console.

From an empty database holding only their account (allowed to create competitions), they
create the competition, the round with the wizard, watch the teams' uploads being scored
by the real worker, freeze, publish, and see the published final ranking — never opening
the Django admin. Then the console's pages are looked at in Japanese and at phone width.
"""

import datetime as dt
import io
import zipfile
import zoneinfo

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.competitions.models import AuditEntry, Round
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AnonymizationSubmission, Pwscup2015Round, Target
from pwscup.submissions.models import Status
from tests.e2e.helpers import PASSWORD, SCORING_TIMEOUT, log_in, reload_page, switch_language
from tests.support import FIXTURES, adult_head, csv_upload, noisy_copy, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")


def local(moment: dt.datetime) -> str:
    """A ``datetime-local`` input's value in the round's zone (Asia/Tokyo)."""
    return moment.astimezone(TOKYO).strftime("%Y-%m-%dT%H:%M")


def confirm(page, action: str) -> None:
    page.get_by_test_id(f"action-{action}").click()
    with page.expect_navigation():
        page.get_by_test_id("confirm").click()


def teams_upload(round_, original: bytes) -> None:
    """Two teams register and upload (their own journey is tested elsewhere)."""
    phase = round_.phases.get(kind="anonymization")
    for letter, seed in (("a", 1), ("c", 3)):
        user = user_create(username=f"player-{letter}", password=PASSWORD)
        team = team_create(
            competition=round_.competition,
            name=f"Team {letter.upper()}",
            slug=f"team{letter.upper()}",
        )
        membership_add(team=team, user=user)
        services.anonymization_submission_create(
            phase=phase,
            team=team,
            user=user,
            uploaded_file=csv_upload(noisy_copy(original, seed=seed)),
        )
    wait_for(
        lambda: (
            AnonymizationSubmission.objects.filter(phase=phase, status=Status.FINISHED).count() == 2
        ),
        timeout=SCORING_TIMEOUT,
        what="both uploads to be scored",
    )


def test_an_organizer_runs_a_round_from_an_empty_database_with_the_console(
    web, live_server, celery_worker_process, screenshot, django_user_model
):
    page = web
    organizer = django_user_model.objects.create_user("organizer", password=PASSWORD)
    call_command("allow_competitions", "organizer", stdout=io.StringIO())
    assert not organizer.is_staff and not organizer.is_superuser
    log_in(page, "organizer")

    # The competition.
    page.get_by_test_id("console-link").click()
    page.get_by_test_id("competition-new").click()
    page.fill("input[name=name]", "Spring Cup")
    page.fill("input[name=slug]", "spring")
    page.fill("textarea[name=description]", "## Rules\n\nAnonymize **Adult**, then attack.")
    with page.expect_navigation():
        page.click("form[data-testid=competition-form] button[type=submit]")
    expect(page.locator("main h1")).to_contain_text("Spring Cup")
    expect(page.locator(".description strong")).to_have_text("Adult")

    # The round wizard: the table once, the organizer's configuration file, the phases.
    page.get_by_test_id("round-new").click()
    original = adult_head(200)
    page.set_input_files(
        "input[name=original]",
        files=[{"name": "adult.csv", "mimeType": "text/csv", "buffer": original}],
    )
    with page.expect_navigation():
        page.click("form[data-testid=wizard-upload] button[type=submit]")
    expect(page.get_by_test_id("profile-age")).to_contain_text("51")
    screenshot(page, "console-wizard-upload-en")
    page.get_by_test_id("wizard-next").click()
    expect(page.locator("input[name=qi][value=age]")).to_be_checked()
    expect(page.locator("input[name=sa][value=fnlwgt]")).to_be_checked()
    expect(page.get_by_label("qi: age", exact=True)).to_be_checked()
    screenshot(page, "console-wizard-roles-en")
    page.set_input_files(
        "input[name=config_file]",
        files=[
            {
                "name": "round.json",
                "mimeType": "application/json",
                "buffer": (FIXTURES / "adult_round.json").read_bytes(),
            }
        ],
    )
    with page.expect_navigation():
        page.get_by_test_id("wizard-next").click()
    page.check("input[name=data_mode][value=shared]")
    with page.expect_navigation():
        page.get_by_test_id("wizard-next").click()
    now = timezone.now()
    page.fill("input[name=name]", "Round 1")
    page.fill("input[name=slug]", "round-1")
    expect(page.locator("select[name=timezone]")).to_have_value("Asia/Tokyo")
    page.fill("input[name=anonymization_opens_at]", local(now - dt.timedelta(hours=1)))
    page.fill("input[name=anonymization_closes_at]", local(now + dt.timedelta(days=1)))
    page.fill("input[name=attack_opens_at]", local(now + dt.timedelta(days=1)))
    page.fill("input[name=attack_closes_at]", local(now + dt.timedelta(days=2)))
    with page.expect_navigation():
        page.get_by_test_id("wizard-next").click()
    page.get_by_label("U1 at most").fill("1000")
    with page.expect_navigation():
        page.get_by_test_id("wizard-next").click()
    expect(page.get_by_test_id("wizard-review")).to_contain_text("Round 1")
    with page.expect_navigation():
        page.get_by_test_id("wizard-create").click()
    round_ = Round.objects.get(competition__slug="spring", slug="round-1")
    assert round_.config["qi"][0] == "age" and round_.phases.count() == 2
    expect(page.get_by_test_id("phase-anonymization")).to_contain_text("open")

    # Teams upload; the control page counts them.
    teams_upload(round_, original)
    reload_page(page)
    expect(page.get_by_test_id("count-submissions")).to_have_text("2")
    expect(page.get_by_test_id("overview-teamA")).to_contain_text("Finished")

    # Freeze (a background operation run by the worker), then the targets appear.
    confirm(page, "freeze")
    expect(page.get_by_test_id("message")).to_contain_text("freeze started")
    wait_for(
        lambda: Target.objects.filter(round=round_, builtin__status=Status.FINISHED).count() == 2,
        timeout=SCORING_TIMEOUT,
        what="the freeze and the built-in attacks on both targets",
    )
    reload_page(page)
    expect(page.get_by_test_id("target-teamA")).to_contain_text("v1")
    expect(page.get_by_test_id("target-teamC")).to_contain_text("Finished")

    # Publish, and the final ranking is public.
    confirm(page, "publish")
    wait_for(
        lambda: Pwscup2015Round.objects.filter(round=round_, results_published=True).exists(),
        timeout=SCORING_TIMEOUT,
        what="the results to be published",
    )
    reload_page(page)
    expect(page.get_by_test_id("audit-log")).to_contain_text("Published the results")
    expect(page.get_by_test_id("audit-log")).to_contain_text("Froze the round")
    screenshot(page, "console-round-en")
    visitor = page.context.browser.new_page(base_url=live_server.url)
    visitor.goto("/c/spring/round-1/final/")
    expect(visitor.get_by_test_id("final-row-teamA")).to_be_visible()
    expect(visitor.get_by_test_id("final-row-teamC")).to_be_visible()
    visitor.close()
    assert list(
        AuditEntry.objects.filter(competition__slug="spring")
        .order_by("created_at", "id")
        .values_list("action", flat=True)
    ) == ["competition_created", "round_created", "round_frozen", "results_published"]

    # The archive holds both uploads and both targets.
    with page.expect_download() as download:
        page.get_by_test_id("archive").click()
    names = set(zipfile.ZipFile(download.value.path()).namelist())
    assert {"targets/teamA-v1/anonymized.csv", "targets/teamC-v1/truth.csv"} <= names

    # The console in Japanese, and at phone width.
    switch_language(page, "ja")
    expect(page.get_by_test_id("round-actions")).to_contain_text("凍結")
    screenshot(page, "console-round-ja")
    page.set_viewport_size({"width": 390, "height": 844})
    for path, name in (
        ("/console/spring/", "console-competition-ja-390"),
        ("/console/spring/teams/", "console-teams-ja-390"),
        ("/console/spring/r/round-1/", "console-round-ja-390"),
    ):
        page.goto(path)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} is {width} px wide at 390 px"
        screenshot(page, name)
