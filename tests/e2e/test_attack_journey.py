"""The attack phase from a team's browser: download a target, attack it, see the results."""

import io
import re

import numpy as np
import pandas as pd
import pytest
from playwright.sync_api import expect

from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AttackSubmission, Pwscup2015Round, Target
from pwscup.pwscup2015.selectors import target_truth
from pwscup.submissions.models import Status
from tests.e2e.helpers import (
    SCORING_TIMEOUT,
    log_in,
    open_tab,
    submit_anonymization,
    switch_language,
    wait_for_builtin_attacks,
)
from tests.support import noisy_copy

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# noisy_copy() perturbs only these two columns; the attacker links on all the others.
NOISY = ["hours-per-week", "fnlwgt"]


def link_to_original(published: pd.DataFrame, original: pd.DataFrame) -> np.ndarray:
    """A simple linkage attack: the first original row equal on every unperturbed column.

    Returns the 1-based guessed row numbers, 0 where no original row matches.
    """
    keys = [c for c in original.columns if c not in NOISY]
    candidates = original[keys].assign(guess=np.arange(1, len(original) + 1))
    first = candidates.drop_duplicates(subset=keys, keep="first")
    merged = published[keys].merge(first, on=keys, how="left")
    return merged["guess"].fillna(0).to_numpy(dtype=np.int64)


def shown_rate(text: str) -> str:
    """The rate a matrix cell shows ("–" for none), whatever marks the cell carries besides."""
    return re.findall(r"\d+\.\d+|–", text)[-1]


def matrix_cell(page, attacker: str, target: str) -> str:
    headers = page.get_by_test_id("matrix").locator("thead th").all_inner_texts()
    column = headers.index(target) - 1  # the first header names the rows
    return shown_rate(page.locator(f'tr[data-attacker="{attacker}"] td').nth(column).inner_text())


def test_team_attacks_a_published_target_and_sees_the_results(
    web, e2e_world, celery_worker_process, screenshot, tmp_path
):
    page, world = web, e2e_world
    original = pd.read_csv(io.BytesIO(world.original), dtype=str, keep_default_na=False)
    for letter, seed in (("a", 1), ("b", 2)):
        submission = submit_anonymization(world, letter, noisy_copy(world.original, seed=seed))
        assert submission.status == Status.FINISHED, submission.message
    targets = services.round_freeze(round=world.round)
    assert sorted(t.team.slug for t in targets) == ["teamA", "teamB"]
    wait_for_builtin_attacks(world)
    target = Target.objects.get(round=world.round, team=world.teams["a"])

    log_in(page, "team-b")
    page.goto(world.round_url())
    open_tab(page, "results")
    expect(page.get_by_test_id("matrix-link")).to_have_count(0)  # results not published
    open_tab(page, "submit")
    expect(page.get_by_test_id("frozen")).to_be_visible()
    expect(page.get_by_test_id("upload-form")).to_have_count(0)  # frozen: no more uploads
    expect(page.get_by_test_id("target-teamB")).to_have_count(0)  # never one's own target
    # The attack form comes first, above the frozen anonymization phase's line.
    form_top = page.get_by_test_id("attack-form").bounding_box()["y"]
    assert form_top < page.get_by_test_id("frozen").bounding_box()["y"]
    with page.expect_download() as download_info:
        page.get_by_test_id("target-teamA").click()
    download = download_info.value
    assert download.suggested_filename == "teamA_anonymized.csv"
    published = pd.read_csv(download.path(), dtype=str, keep_default_na=False)
    assert list(published.columns) == list(original.columns)
    assert len(published) == target.rows == len(original)  # noisy_copy deleted no row

    # Attack: link each published row to the original; score it ourselves from the truth.
    answer = link_to_original(published, original)
    truth = target_truth(target=target)
    correct = int((answer == truth).sum())
    assert correct > len(truth) // 2, "the linkage attack should re-identify most rows"
    table = tmp_path / "teamB_attack_teamA.csv"
    table.write_text("row\n" + "".join(f"{g}\n" for g in answer))
    form = page.get_by_test_id("attack-form")
    form.locator("select[name=target]").select_option(label="Team A")
    form.locator("input[type=file]").set_input_files(str(table))
    with page.expect_navigation():
        page.get_by_test_id("attack-submit").click()
    attack = AttackSubmission.objects.get(team=world.teams["b"])
    row = page.get_by_test_id(f"attack-{attack.pk}")
    expect(row).to_have_attribute("data-status", "finished", timeout=SCORING_TIMEOUT * 1000)
    rate = correct / len(truth)
    expect(row.get_by_test_id("rate")).to_have_text(f"{rate:.4f}")
    expect(row).to_contain_text(f"({correct}/{len(truth)})")
    screenshot(page, "round-attack-en")

    # Not published yet: the matrix is refused to a team.
    matrix_url = world.round_url() + "matrix/"
    assert page.goto(matrix_url).status == 403
    expect(page.get_by_test_id("error-403")).to_contain_text("not published yet")
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)

    page.goto(world.round_url())
    open_tab(page, "results")
    page.get_by_test_id("matrix-link").click()
    expect(page.get_by_test_id("matrix-col-teamA")).to_have_text("Team A")
    assert matrix_cell(page, "Team B", "Team A") == f"{rate:.4f}"
    assert matrix_cell(page, "Team A", "Team A") == "–"  # nobody attacks itself
    column = page.get_by_test_id("matrix").locator("thead th").all_inner_texts().index("Team A")
    worst_cell = page.get_by_test_id("worst-case").locator("td").nth(column - 1)
    worst = float(shown_rate(worst_cell.inner_text()))
    # The reference attack (REF) is stored beside them, outside the worst case.
    assert set(target.builtin.rates) == {"E1", "E2", "E3", "E4", "EUC1", "EUC2", "KIT", "REF"}
    builtin = [v for k, v in target.builtin.rates.items() if k != "REF"]
    assert worst == pytest.approx(max(rate, *builtin), abs=6e-5)
    screenshot(page, "matrix-en")

    page.goto(world.round_url())
    open_tab(page, "results")
    page.get_by_test_id("final-link").click()
    final_a = page.get_by_test_id("final-row-teamA")
    expect(final_a).to_contain_text("Team A")
    assert float(final_a.locator("td").nth(2).inner_text()) == pytest.approx(worst, abs=6e-5)
    attack_b = page.get_by_test_id("attack-row-teamB")
    # Team B attacked one of its one other target (A): its mean rate is that attack's rate.
    expect(attack_b.locator("td").nth(2)).to_have_text(f"{rate:.4f}")
    expect(attack_b.locator("td").nth(3)).to_have_text("1")
    screenshot(page, "final-en")
    # The tables sort in the browser: by team name, ascending then descending.
    attack_table = page.get_by_test_id("final-attack")
    team_header = attack_table.locator("th", has_text="Team")
    team_header.click()
    expect(attack_table.locator("tbody tr").first).to_contain_text("Team A")
    team_header.click()
    expect(attack_table.locator("tbody tr").first).to_contain_text("Team C")

    switch_language(page, "ja")
    expect(page).to_have_title(re.compile("最終順位"))
    expect(page.get_by_test_id("final-attack").locator("thead")).to_contain_text("平均再識別率")
