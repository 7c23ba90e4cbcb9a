"""How the attack score against the top N releases is read (pwscup/competitions/attack_top.py;
docs/organizers.md, "Attack against the top N releases"): the top N by the release ranking
or by the round's total, the attacker's own release left out or counted as the best other
attacker's score on it, the scores' mean or sum (PWSCup 2024: N 5, by the total, own = best
other, sum). The maths on a hand-made matrix; the setting on a 2015 round (a kind with an
attack matrix) through the service, the console card as rendered, and a bundle."""

import io

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from pwscup.bundles.services import competition_export, competition_import
from pwscup.competitions.attack_top import scores_of
from pwscup.competitions.models import AuditEntry
from pwscup.competitions.total_services import round_total_formula_set
from pwscup.kinds.rankings import AttackCells
from tests.pwscup.bundle_helpers import START, creator, manifest_of, rebuilt
from tests.pwscup.rendered_forms import form_fields_of, post_data
from tests.pwscup.test_attack_top import CELLS

# CELLS, the hand-made matrix of test_attack_top.py: releases 1..5, team 1 first, 2 and 3
# tied second, 4 without a rank (a failed gate), 5 fourth; team 6 attacks but releases
# nothing. Target -> attacker -> score: 1: {2: 0.5, 3: 0.25, 6: 1.0}, 2: {1: 0.75, 3: 0.5},
# 3: {1: 0.25, 2: 1.0, 6: 0.0}, 4: every attacker 1.0, 5: {1: 0.0, 2: 0.0, 6: 0.5}.
# LOWER: the same cells where a lower attack score is the better one.
LOWER = AttackCells(releases=CELLS.releases, cells=CELLS.cells, higher_is_better=False)
# The round's total ranks 5 first, 2 and 6 tied second, 1 fourth (3 and 4 have no total).
TOTAL_RANKS = {5: 1, 2: 2, 6: 2, 1: 4}


def test_the_sum_over_the_top_2_with_a_tie_at_the_second_place():
    """Top 2 by the release ranking: 1, 2 and 3 (tied second), never 4 nor 5."""
    assert scores_of(CELLS, 2, combine="sum") == {1: 1.0, 2: 1.5, 3: 0.75, 6: 1.0}


def test_the_own_release_as_the_best_other_attackers_score():
    """The best other on 1 is max(0.5, 0.25, 1.0) = 1.0, on 2 max(0.75, 0.5) = 0.75, on 3
    max(0.25, 1.0, 0.0) = 1.0; team 6 releases nothing, so nothing is added for it."""
    assert scores_of(CELLS, 2, own="best_other") == pytest.approx(
        {1: (1.0 + 0.75 + 0.25) / 3, 2: (0.5 + 0.75 + 1.0) / 3, 3: (0.25 + 0.5 + 1.0) / 3, 6: 0.5}
    )
    assert scores_of(CELLS, 2, own="best_other", combine="sum") == pytest.approx(
        {1: 2.0, 2: 2.25, 3: 1.75, 6: 1.0}
    )
    # Lower is better: the best other is the lowest, min(0.5, 0.25, 1.0) = 0.25 on 1, 0.5 on
    # 2, 0.0 on 3.
    assert scores_of(LOWER, 2, own="best_other", combine="sum") == pytest.approx(
        {1: 0.25 + 0.75 + 0.25, 2: 0.5 + 0.5 + 1.0, 3: 0.25 + 0.5 + 0.0, 6: 1.0}
    )
    # The top 1 is team 1 alone: its own score is no longer missing (PWSCup 2020's winner).
    assert scores_of(CELLS, 1)[1] is None
    assert scores_of(CELLS, 1, own="best_other") == {1: 1.0, 2: 0.5, 3: 0.25, 6: 1.0}


def test_the_top_n_by_the_total_with_a_tie_at_the_second_place():
    """Top 2 by the total: 5, 2 and 6 (tied second); 6 is no target, 1 (fourth) not counted
    though the release ranking puts it first."""
    assert scores_of(CELLS, 2, ranks=TOTAL_RANKS) == {1: 0.375, 2: 0.0, 3: 0.5, 6: 0.5}
    assert scores_of(CELLS, 2, ranks=TOTAL_RANKS, own="best_other", combine="sum") == pytest.approx(
        {1: 0.75, 2: 0.75, 3: 0.5, 6: 0.5}
    )


def _rule(by="release", own="left_out", combine="mean") -> dict:
    return {"attack_top_by": by, "attack_top_own": own, "attack_top_combine": combine}


def test_the_top_n_by_a_total_naming_attack_top_or_without_one_is_refused(world):
    round_ = world.round
    for formula, words in (
        ("attack_top + safety", "names attack_top"),
        ("", "needs a total formula"),
    ):
        with pytest.raises(ValidationError) as refused:
            round_total_formula_set(
                user=world.organizer,
                round=round_,
                formula=formula,
                attack_top_n=5,
                rule=_rule(by="total"),
            )
        assert words in " ".join(refused.value.message_dict["attack_top_by"])
        round_.refresh_from_db()
        assert (round_.attack_top_n, round_.attack_top_by) == (None, "release")
    with pytest.raises(ValidationError) as refused:
        round_total_formula_set(
            user=world.organizer, round=round_, formula="", attack_top_n=5, rule=_rule(own="x")
        )
    assert "attack_top_own" in refused.value.message_dict
    # The 2024 rule, with a formula that does not name attack_top, is kept and logged.
    assert round_total_formula_set(
        user=world.organizer,
        round=round_,
        formula="safety",
        attack_top_n=5,
        rule=_rule(by="total", own="best_other", combine="sum"),
    )
    round_.refresh_from_db()
    assert (round_.attack_top_by, round_.attack_top_own, round_.attack_top_combine) == (
        "total",
        "best_other",
        "sum",
    )
    entry = AuditEntry.objects.filter(round=round_).latest("pk")
    assert entry.detail["attack_top_by"] == "total"
    assert entry.detail["attack_top_own"] == "best_other"
    assert entry.detail["attack_top_combine"] == "sum"
    # Now the formula may not name attack_top, even with N unchanged.
    with pytest.raises(ValidationError):
        round_total_formula_set(user=world.organizer, round=round_, formula="attack_top")


@pytest.mark.parametrize(
    "lang, refusal",
    [
        ("en", "names attack_top"),
        ("ja", "attack_top を使っているため"),
    ],
)
def test_the_console_card_as_rendered_sets_the_2024_rule(world, lang, refusal):
    client = Client()
    client.force_login(world.organizer)
    assert not world.organizer.is_superuser
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
    page_url = reverse("console:round", args=[world.competition.slug, world.round.slug])
    post_url = reverse("console:round_total", args=[world.competition.slug, world.round.slug])
    fields = form_fields_of(client.get(page_url).content.decode(), "round-total-form")
    chosen = {"attack_top_by": "total", "attack_top_own": "best_other", "attack_top_combine": "sum"}
    refused = client.post(
        post_url, post_data(fields, {"total_formula": "attack_top", "attack_top_n": "5", **chosen})
    )
    assert refused.status_code == 200 and refusal in refused.content.decode()
    # The form comes back as posted: the choices are still selected.
    again = form_fields_of(refused.content.decode(), "round-total-form")
    selected = {
        f["name"]: [o["value"] for o in f["options"] if o["selected"]]
        for f in again
        if f["type"] == "select"
    }
    assert selected == {name: [value] for name, value in chosen.items()}
    world.round.refresh_from_db()
    assert world.round.attack_top_n is None

    saved = client.post(post_url, post_data(again, {"total_formula": "safety"}), follow=True)
    assert saved.redirect_chain
    world.round.refresh_from_db()
    assert (world.round.attack_top_n, world.round.attack_top_by) == (5, "total")
    assert (world.round.attack_top_own, world.round.attack_top_combine) == ("best_other", "sum")
    # The page shows what was saved, and the audit log says it in the reader's language.
    shown = form_fields_of(saved.content.decode(), "round-total-form")
    assert post_data(shown)["attack_top_own"] == ["best_other"]
    audit = saved.content.decode().split('data-testid="audit-log"')[1]
    words = {
        "en": "The attacker's own release: the best other",
        "ja": "攻撃者自身の公開データ: ほかの",
    }
    assert words[lang] in audit.replace("&#x27;", "'")


def names_offered(page: str) -> list[str]:
    """The names the Total card lists under the formula (``<code>`` of its list)."""
    block = page.split('data-testid="round-total-names"')[1].split("</ul>")[0]
    return [part.split("</code>")[0] for part in block.split("<code>")[1:]]


@pytest.mark.parametrize(
    "lang, why",
    [
        ("en", "attack_top is not offered: the top N is read from this total"),
        ("ja", "attack_top は使えません。上位 N 件をこの合計で選んでいるためです"),
    ],
)
def test_the_card_does_not_offer_attack_top_to_a_total_that_ranks_the_top_n(world, lang, why):
    """With the top N read from the round's total, a formula naming attack_top is refused
    as circular: the card's list of names leaves it out and says why; read from the release
    ranking, it is offered."""
    client = Client()
    client.force_login(world.organizer)
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
    page_url = reverse("console:round", args=[world.competition.slug, world.round.slug])
    round_total_formula_set(
        user=world.organizer, round=world.round, formula="safety", attack_top_n=5, rule=_rule()
    )
    page = client.get(page_url).content.decode()
    assert "attack_top" in names_offered(page) and why not in page
    round_total_formula_set(
        user=world.organizer,
        round=world.round,
        formula="safety",
        attack_top_n=5,
        rule=_rule(by="total"),
    )
    page = client.get(page_url).content.decode()
    offered = names_offered(page)
    assert "attack_top" not in offered and "safety" in offered
    assert why in page


def test_a_bundle_keeps_the_rule_and_an_old_one_imports_with_the_defaults(world):
    round_total_formula_set(
        user=world.organizer,
        round=world.round,
        formula="safety",
        attack_top_n=5,
        rule=_rule(by="total", own="best_other", combine="sum"),
    )
    organizer = creator(world.organizer)
    data = competition_export(competition=world.competition, user=organizer)
    entry = manifest_of(data)["rounds"][0]
    assert (entry["attack_top_by"], entry["attack_top_own"], entry["attack_top_combine"]) == (
        "total",
        "best_other",
        "sum",
    )
    copy = competition_import(
        bundle_file=io.BytesIO(data), name="Rule again", slug="rule2", start=START, user=organizer
    )
    (copied,) = copy.rounds.all()
    assert (copied.attack_top_n, copied.attack_top_by) == (5, "total")
    assert (copied.attack_top_own, copied.attack_top_combine) == ("best_other", "sum")

    def written_before_the_settings(manifest):
        for key in ("attack_top_by", "attack_top_own", "attack_top_combine"):
            del manifest["rounds"][0][key]

    old = rebuilt(data, change=written_before_the_settings)
    copy = competition_import(
        bundle_file=io.BytesIO(old), name="Old rule", slug="rule3", start=START, user=organizer
    )
    (copied,) = copy.rounds.all()
    assert (copied.attack_top_n, copied.attack_top_by) == (5, "release")
    assert (copied.attack_top_own, copied.attack_top_combine) == ("left_out", "mean")

    circular = rebuilt(
        data, change=lambda manifest: manifest["rounds"][0].update(total_formula="attack_top")
    )
    with pytest.raises(ValidationError) as refused:
        competition_import(
            bundle_file=io.BytesIO(circular), name="Bad", slug="rule4", start=START, user=organizer
        )
    assert f"rounds[0] ({world.round.slug}).attack_top_by: The top N cannot" in " ".join(
        refused.value.messages
    )
