"""The organizer's progress panel of the background operations (above the attack matrix
and the final ranking) fits a phone (390 px) in both languages."""

import pytest
from playwright.sync_api import expect

from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import BuiltinAttack, Target
from tests.e2e.helpers import log_in, switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, check_page
from tests.pwscup.factories import run_operations, scored
from tests.support import settled

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PANEL_TEXT = {
    "en": ("Freeze", "Finished — 2 of 2 done", "Built-in attacks: 2 of 2 targets scored"),
    "ja": ("凍結", "2 件中 2 件完了", "組み込み攻撃: 2 件の攻撃対象中 2 件を採点済み"),
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_progress_panel_fits_a_phone(web, e2e_world, screenshot, language):
    page, world = web, e2e_world
    scored(world, "a", seed=1)
    scored(world, "c", seed=3)
    services.round_freeze_request(round=world.round, requested_by=world.organizer)
    run_operations()
    for target in Target.objects.filter(round=world.round):
        services.target_builtin_score(target_id=target.pk)
        settled(BuiltinAttack, target.pk)  # or the suite's worker that took the job first
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    log_in(page, "organizer")
    page.goto(world.round_url() + "matrix/")
    if language == "ja":
        switch_language(page, "ja")
    for path in ("matrix/", "final/"):
        page.goto(world.round_url() + path)
        panel = page.get_by_test_id("operations")
        expect(panel).to_be_visible()
        for text in PANEL_TEXT[language]:
            expect(panel).to_contain_text(text)
        widest = panel.evaluate(
            "e => Math.max(...[e, ...e.querySelectorAll('*')].map("
            "(x) => x.getBoundingClientRect().right))"
        )
        assert widest <= WIDTH, (path, language, widest)
        screenshot(page, f"operations-{path.strip('/')}-{language}-390")
    # The matrix page as a whole too (its table scrolls in its own container).
    page.goto(world.round_url() + "matrix/")
    check_page(page, screenshot, f"operations-matrix-{language}-390-page")
