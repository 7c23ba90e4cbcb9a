"""The synthetic round's services on PostgreSQL: draws kept and disjoint, a release scored,
the freeze, the built-in attacks, an attack scored on both halves, and the rankings."""

import numpy as np
import pytest

from pwscup.core.errors import Refused
from pwscup.submissions.models import Status
from pwscup.synthetic import selectors, services
from pwscup.synthetic.models import TeamDraw
from tests.pwscup.syn_world import (
    attack,
    baseline_release,
    dcr_answer_bytes,
    freeze,
    near_copy_release,
    open_attack_phase,
    release,
    syn_world,
    upload_file,
)

pytestmark = pytest.mark.django_db


def test_draws_are_kept_disjoint_and_balanced():
    world = syn_world()
    draws = list(TeamDraw.objects.filter(synthetic=world.synthetic))
    assert len(draws) == 3
    holdout, aux = set(world.synthetic.holdout), set(world.synthetic.aux)
    seen = set()
    for draw in draws:
        rows = set(draw.members) | set(draw.nonmembers)
        assert not rows & holdout and not rows & aux
        assert not rows & seen, "two teams share a row"
        seen |= rows
        labels, dev = np.asarray(draw.labels), np.asarray(draw.dev)
        assert len(labels) == 80 and labels.sum() == 40
        assert labels[dev].sum() == 20 and (1 - labels[dev]).sum() == 20
        assert draw.disjoint
    again = services.draws_for_teams(synthetic=world.synthetic)
    assert again == []


def test_a_release_is_scored_and_a_bad_one_names_column_row_value():
    world = syn_world(letters="ab")
    good = release(world, "a", baseline_release(world, "a"))
    assert good.status == Status.FINISHED, good.message
    scores = good.scores
    assert 0 < scores["u_ml"] < 1.5 and 0 <= scores["u_1"] <= 1 and scores["r_copy"] < 0.2
    assert scores["auc_train"] > 0.5
    bad_text = baseline_release(world, "a").replace(b",Male,", b",Mle,", 1)
    bad = release(world, "a", bad_text)
    assert bad.status == Status.FAILED
    assert "sex" in bad.message and "Mle" in bad.message and "row" in bad.message
    assert "列" in bad.message_in("ja")


def test_freeze_then_attacks_score_both_halves_and_rank():
    world = syn_world()
    # A near copy: a verbatim one fails the copy gate and is never published
    # (test_syn_release_copy_gate.py).
    release(world, "a", near_copy_release(world, "a"))
    release(world, "b", baseline_release(world, "b"))
    release(world, "c", baseline_release(world, "c"))
    targets = freeze(world)
    assert set(targets) == {"teamA", "teamB", "teamC"}
    for target in targets.values():
        assert target.status == Status.FINISHED, target.message
        assert set(target.builtin) == {"dcr", "density", "null"}
    # The DCR attack sees the near copy.
    assert targets["teamA"].builtin["dcr"]["final"]["auc"] > 0.9
    with pytest.raises(Refused):
        release(world, "a", baseline_release(world, "a"))
    open_attack_phase(world)
    world.synthetic.refresh_from_db()
    hit = attack(world, "b", targets["teamA"], dcr_answer_bytes(world, targets["teamA"]))
    assert hit.status == Status.FINISHED, hit.message
    assert set(hit.dev) == {"auc", "tpr@0.1", "adv"} and set(hit.final) == set(hit.dev)
    with pytest.raises(Refused):
        attack(world, "a", targets["teamA"], dcr_answer_bytes(world, targets["teamA"]))
    results = selectors.round_results(synthetic=world.synthetic, half="final")
    ranking, attackers = results.releases, results.attacks
    assert [r["team"].slug for r in ranking][-1] in {"teamA"} or not ranking[-1]["passes"]
    assert attackers[0]["team"].slug == "teamB" and attackers[0]["rank"] == 1


def test_the_final_choice_after_the_freeze_and_an_early_attack_are_refused_403():
    """Both refusals once passed their status by position, which ``Refused`` does not take:
    a TypeError (a 500 on the page) instead of the message."""
    world = syn_world(slug="syn-refusals", letters="ab")
    kept = release(world, "a", baseline_release(world, "a"))
    with pytest.raises(Refused) as early:
        services.attack_upload(
            target=_unfrozen_target(world, kept),
            team=world.teams["b"],
            user=world.users["b"],
            uploaded_file=upload_file(b"id,score\n", "early.csv"),
        )
    assert early.value.status == 403
    freeze(world)
    with pytest.raises(Refused) as late:
        services.release_select(release=kept)
    assert late.value.status == 403


def _unfrozen_target(world, kept):
    """A target row made by hand before any freeze: the check must refuse it as not frozen."""
    from pwscup.synthetic.models import SynTarget

    return SynTarget.objects.create(synthetic=world.synthetic, team=world.teams["a"], release=kept)
