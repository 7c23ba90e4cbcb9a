"""What a team sees on the DP level page (under *Submit*) when its estimate is refused: a
Latin-1 file (Western Excel) is kept and rejected as "not UTF-8 (looks like Windows-1252)",
named as uploaded, in the reader's language; a wrong header names its columns. English on a
1280 px desktop, Japanese on a 390 px phone, under the strict CSP."""

import pytest

from pwscup.dp.services import dp_estimates_build_queued
from tests.e2e.helpers import PASSWORD, log_in, reload_page
from tests.pwscup.dp_world import build_dp_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

EXPECTED = {
    "en": {
        "encoding": "Schätzung.csv is not UTF-8 (it looks like Windows-1252 (Latin-1)): "
        "the first byte that is not UTF-8 is on line 2 of the file",
        "header": "level1.csv: the header must be target,gender,age,count; "
        "missing column(s): 'target'; unexpected column(s): 'Target'",
        "rejected": "rejected",
    },
    "ja": {
        "encoding": "Schätzung.csv は UTF-8 ではありません（Windows-1252 (Latin-1) のようです）。"
        "UTF-8 でない最初のバイトはファイルの 2 行目",
        "header": "level1.csv のヘッダーは target,gender,age,count にしてください"
        "（足りない列: 'target'；余分な列: 'Target'）",
        "rejected": "不受理",
    },
}


@pytest.fixture
def dp_refusal_world(transactional_db):
    return build_dp_world(slug="dpenc", password=PASSWORD)


def estimate() -> str:
    lines = ["target,gender,age,count", "gender,F,,4", "gender,M,,6"]
    lines += [f"gender_age,{g},{a},1" for g in "FM" for a in ("<=17", "18-24", "25-34")]
    return "\n".join(lines) + "\n"


def upload(page, name: str, content: bytes) -> None:
    page.set_input_files(
        "[data-testid=dp-estimate-form] input[type=file]",
        files=[{"name": name, "mimeType": "text/csv", "buffer": content}],
    )
    with page.expect_navigation():
        page.get_by_test_id("dp-estimate-submit").click()


@pytest.mark.parametrize("newcomer", ["en", "ja"], indirect=True)
def test_a_refused_estimate_says_why_in_the_reader_s_language(
    newcomer, dp_refusal_world, screenshot
):
    language, page = newcomer
    world = dp_refusal_world
    log_in(page, "dpenc-team-a")
    page.goto(f"/c/{world.competition.slug}/{world.round.slug}/dp/levels/eps-1/")
    latin1 = estimate().replace("gender,F,,4", "gender,Femäle,,4").encode("latin-1")
    upload(page, "Schätzung.csv", latin1)
    upload(page, "level1.csv", estimate().replace("target,", "Target,", 1).encode())
    dp_estimates_build_queued()  # what the worker does
    reload_page(page)
    listing = page.get_by_test_id("dp-estimate-list")
    errors = listing.locator("pre.error")
    assert errors.count() == 2
    texts = [errors.nth(k).inner_text() for k in range(2)]
    expected = EXPECTED[language]
    assert any(text.startswith(expected["encoding"]) for text in texts), texts
    assert expected["header"] in texts, texts
    assert listing.inner_text().count(expected["rejected"]) == 2
    assert "舁" not in page.content()  # never read as Shift_JIS mojibake
    width = NEWCOMER_WIDTH[language]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    screenshot(page, f"dp-estimate-refused-{language}")


NEWCOMER_WIDTH = {"en": 1280, "ja": 390}


@pytest.mark.parametrize("newcomer", ["ja"], indirect=True)
def test_the_estimates_rows_stay_short_on_a_phone(newcomer, dp_refusal_world, screenshot):
    """Two valid estimates (the first replaced) on a 390 px phone, in Japanese: the table
    scrolls in its frame rather than squeezing the method's column to a letter a line (its
    rows were 200 px tall, 「事前分布（ε = 0）」 one character a line)."""
    _language, page = newcomer
    world = dp_refusal_world
    log_in(page, "dpenc-team-a")
    page.goto(f"/c/{world.competition.slug}/{world.round.slug}/dp/levels/eps-1/")
    upload(page, "first.csv", estimate().encode())
    upload(page, "second.csv", estimate().encode())
    dp_estimates_build_queued()  # what the worker does
    reload_page(page)
    rows = page.locator("[data-testid=dp-estimate-list] tbody tr")
    assert rows.count() == 2
    font = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector("
        "'[data-testid=dp-estimate-list] td')).fontSize)"
    )
    for k in range(2):  # three lines or so, with the cells' padding: not ten
        assert rows.nth(k).bounding_box()["height"] <= 6 * font, rows.nth(k).inner_text()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    screenshot(page, "dp-estimates-phone-ja")
