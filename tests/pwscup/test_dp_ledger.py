"""The ε ledger (spec §3.8): exact, refusals change nothing, request_id replays, and no
overspending under concurrent requests on PostgreSQL."""

import threading
from fractions import Fraction

import pytest
from django.db import connection

from pwscup.dp.ledger import LedgerRefusal
from pwscup.dp.models import Charge, Ledger
from pwscup.dp.services import DPRequestError, dp_query_answer, dp_release_request
from tests.pwscup.dp_world import build_dp_world


@pytest.fixture
def world(db):
    return build_dp_world()


def ask(world, epsilon, *, letter="a", level="eps-1", request_id="", **extra):
    payload = {"type": "histogram", "attributes": ["gender", "age"], "epsilon": epsilon}
    payload.update(extra)
    if request_id:
        payload["request_id"] = request_id
    return dp_query_answer(
        dp_round=world.dp_round,
        team=world.teams[letter],
        user=world.users[letter],
        level=level,
        payload=payload,
    )


def test_ex5_ledger_sequence_and_refusal_message(world):
    ledger_budget = Fraction(1)
    results = [ask(world, e) for e in ("0.25", "0.25", "1/3")]
    assert [r.charge.number for r in results] == [1, 2, 3]
    assert results[-1].charge.spent_after == "5/6"
    with pytest.raises(LedgerRefusal) as refusal:
        ask(world, "0.2")
    assert str(refusal.value) == (
        "refused: query 4 asks epsilon 0.2 but only 1/6 (= 0.166667) of the level's budget 1 "
        "is left (spent 5/6 (= 0.833333) in 3 earlier charges); nothing was charged"
    )
    ledger = Ledger.objects.get(team=world.teams["a"], level="eps-1")
    assert (ledger.spent, ledger.charges_count) == ("5/6", 3)  # the refusal changed nothing
    last = ask(world, "1/6")
    assert last.charge.number == 4 and last.charge.spent_after == "1"
    assert Fraction(Ledger.objects.get(pk=ledger.pk).spent) == ledger_budget
    with pytest.raises(LedgerRefusal):
        ask(world, "0.000001")
    assert Charge.objects.filter(ledger=ledger).count() == 4


def test_fourteen_fourteenths_land_exactly_on_the_budget(world):
    for _ in range(14):
        ask(world, "1/14")
    ledger = Ledger.objects.get(team=world.teams["a"], level="eps-1")
    assert ledger.spent == "1" and ledger.charges_count == 14
    with pytest.raises(LedgerRefusal):
        ask(world, "1/1000000000000")


def test_replayed_request_id_returns_the_stored_answer_free(world):
    first = ask(world, "0.5", request_id="q-17")
    again = ask(world, "0.5", request_id="q-17")
    assert again.replayed and not first.replayed
    assert again.charge.pk == first.charge.pk
    assert again.charge.reply["answer"] == first.charge.reply["answer"]
    assert Ledger.objects.get(team=world.teams["a"], level="eps-1").spent == "0.5"
    # A replay is free even when the budget is spent.
    ask(world, "0.5")
    assert ask(world, "0.5", request_id="q-17").replayed


def test_levels_and_teams_have_separate_ledgers(world):
    ask(world, "1", level="eps-1")
    ask(world, "4", level="eps-4")
    ask(world, "1", letter="b")
    with pytest.raises(LedgerRefusal):
        ask(world, "0.1", level="eps-1")
    assert Ledger.objects.filter(dp_round=world.dp_round).count() == 3


def test_bad_requests_name_what_is_wrong_and_charge_nothing(world):
    with pytest.raises(DPRequestError, match="epsilon '1e-3x' is not a decimal"):
        ask(world, "1e-3x")
    with pytest.raises(DPRequestError, match=r"epsilon must be > 0 \(got 0\)"):
        ask(world, "0")
    with pytest.raises(DPRequestError, match="Level 'eps-2' does not exist; levels: eps-1, eps-4"):
        ask(world, "0.1", level="eps-2")
    with pytest.raises(DPRequestError, match="sexx"):
        ask(world, "0.1", attributes=["sexx"])
    assert not Charge.objects.exists()


def test_a_failure_while_answering_charges_nothing(world, monkeypatch):
    from pwscup.dp import engine

    def broken(values, scale):
        raise RuntimeError("sampler down")

    monkeypatch.setattr(engine, "laplace_answer", broken)
    with pytest.raises(RuntimeError):
        ask(world, "0.5")
    ledger = Ledger.objects.get(team=world.teams["a"], level="eps-1")
    assert ledger.spent == "0" and not ledger.charges.exists()


def test_a_release_shares_the_ledger_with_queries(world):
    ask(world, "0.5")
    release = dp_release_request(
        dp_round=world.dp_round,
        team=world.teams["a"],
        user=world.users["a"],
        level="eps-1",
        payload={"groups": [{"attributes": ["gender", "age"], "epsilon": "1/2"}]},
    )
    assert release.charge.kind == "release" and release.charge.spent_after == "1"
    with pytest.raises(LedgerRefusal, match="refused: release 3"):
        dp_release_request(
            dp_round=world.dp_round,
            team=world.teams["a"],
            user=world.users["a"],
            level="eps-1",
            payload={"groups": [{"attributes": ["gender", "age"], "rho": 0.1}]},
        )


@pytest.mark.django_db(transaction=True)
def test_parallel_queries_never_overspend():
    """Eight threads, each with its own PostgreSQL connection, ask 0.3 of a budget of 1 at
    the same moment: exactly three are answered, the ledger holds exactly 0.9."""
    world = build_dp_world(slug="dpconc")
    barrier = threading.Barrier(8)
    outcomes = []

    def worker(k):
        try:
            barrier.wait()
            result = ask(world, "0.3", request_id=f"par-{k}")
            outcomes.append(("ok", result.charge.number))
        except LedgerRefusal:
            outcomes.append(("refused", None))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(o[0] for o in outcomes) == ["ok"] * 3 + ["refused"] * 5
    assert sorted(o[1] for o in outcomes if o[0] == "ok") == [1, 2, 3]
    ledger = Ledger.objects.get(team=world.teams["a"], level="eps-1")
    assert ledger.spent == "0.9" and ledger.charges_count == 3
    assert Charge.objects.filter(ledger=ledger).count() == 3


@pytest.mark.django_db(transaction=True)
def test_parallel_retries_of_one_request_id_are_charged_once():
    world = build_dp_world(slug="dpretry")
    barrier = threading.Barrier(6)
    answers = []

    def worker():
        try:
            barrier.wait()
            result = ask(world, "0.25", request_id="same")
            answers.append(tuple(result.charge.reply["answer"]))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 6 and len(set(answers)) == 1
    assert Ledger.objects.get(team=world.teams["a"], level="eps-1").spent == "0.25"


def test_the_charge_limit_of_a_level(db):
    from tests.pwscup.dp_world import TOY_CONFIG

    world = build_dp_world(slug="dplimit", config={**TOY_CONFIG, "max_charges_per_level": 2})
    ask(world, "0.1")
    ask(world, "0.1")
    with pytest.raises(LedgerRefusal, match="Level 'eps-1' allows at most 2 charges"):
        ask(world, "0.1")
    assert Ledger.objects.get(team=world.teams["a"], level="eps-1").charges_count == 2
