"""docs/toolkit.md says where the wheel is, as the Data tabs have it: on the tab of each of the
platform's games, never on the tab of a round scored by the organizer's own program."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES_DATA_TABS = [
    "pwscup/pwscup2015/templates/pwscup2015/tabs/data.html",
    "templates/sequential/tabs/data.html",
    "templates/dp/data.html",
    "templates/synthetic/tabs/data.html",
]
SCORER_DATA_TAB = "templates/scorer/tabs/data.html"


def _guide() -> str:
    return re.sub(r"\s+", " ", (ROOT / "docs/toolkit.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("tab", GAMES_DATA_TABS)
def test_each_game_s_data_tab_links_the_wheel(tab):
    assert "toolkit_download" in (ROOT / tab).read_text(encoding="utf-8")


def test_the_guide_sends_to_the_games_data_tabs_and_says_the_scorer_round_has_no_wheel():
    assert "toolkit_download" not in (ROOT / SCORER_DATA_TAB).read_text(encoding="utf-8")
    guide = _guide()
    assert "Download the wheel from a round's *Data* tab" not in guide
    assert (
        "Download the wheel from the *Data* tab of a round of one of the platform's games "
        "(anonymize-and-attack, sequential release, differential privacy, synthetic data"
    ) in guide
    assert (
        "A round scored by the organizer's own program ([scorer.md](scorer.md)) offers no wheel"
        in (guide)
    )
    assert (
        "運営者自身の採点プログラムで採点するラウンド（[scorer.md](scorer.md)）には wheel はありません。"
        in (guide)
    )
