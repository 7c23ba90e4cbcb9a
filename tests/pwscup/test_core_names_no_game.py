"""The core does not name the first game: a round has no kind until its creation path gives
one, and the organizers' group gets each registered kind's models from the kind."""

from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError

from pwscup.accounts.services import (
    ORGANIZER_GROUP,
    ORGANIZER_PERMISSIONS,
    organizer_group_ensure,
    organizer_permissions,
)
from pwscup.competitions.models import Round
from pwscup.competitions.services import competition_create
from pwscup.dp.models import Charge, Ledger
from pwscup.kinds import RoundKind, register, unregister

ROOT = Path(__file__).resolve().parents[2]


def test_a_round_has_no_kind_by_default():
    assert not Round._meta.get_field("kind").has_default()
    assert Round().kind == ""


@pytest.mark.django_db
def test_a_round_without_a_kind_is_refused_by_the_model_check():
    competition = competition_create(name="No kind", slug="nokind")
    round_ = Round(competition=competition, name="R", slug="r", original_file="x.csv")
    with pytest.raises(ValidationError) as refused:
        round_.full_clean()
    assert "kind" in refused.value.message_dict


def test_the_core_permissions_name_no_kind():
    """The core's share is its own apps; the kinds' models come from the kinds."""
    assert set(ORGANIZER_PERMISSIONS) == {"competitions", "accounts"}
    for path in (ROOT / "pwscup/accounts/services").glob("*.py"):
        assert "pwscup2015" not in path.read_text(encoding="utf-8"), path


class LedgerKind(RoundKind):
    key = "ledger-toy"
    label = "Ledger toy"

    def organizer_permissions(self):
        return {Ledger: ("view",), Charge: ("view", "change")}


@pytest.fixture
def ledger_kind():
    register(LedgerKind())
    yield
    unregister(LedgerKind.key)


def _codenames(group) -> set[str]:
    return {
        f"{app}.{codename}"
        for app, codename in group.permissions.values_list("content_type__app_label", "codename")
    }


@pytest.mark.django_db
def test_the_organizers_group_gets_each_registered_kinds_models(ledger_kind):
    wanted = organizer_permissions()
    assert wanted["pwscup2015"] == {
        "anonymizationsubmission": ("view", "change"),
        "attacksubmission": ("view",),
        "target": ("view",),
        "teamdataset": ("view",),
    }
    # The DP kind's own: "view" on each model its admin shows (the core's default); the
    # toy's declaration replaces that for the models it names.
    assert wanted["dp"] == {
        "dpround": ("view",),
        "ledger": ("view",),
        "charge": ("view", "change"),
        "estimate": ("view",),
    }
    codenames = _codenames(organizer_group_ensure())
    assert {
        "pwscup2015.change_anonymizationsubmission",
        "pwscup2015.view_teamdataset",
        "competitions.add_round",
        "accounts.delete_membership",
        "dp.view_ledger",
        "dp.change_charge",
    } <= codenames
    assert "dp.change_ledger" not in codenames and "pwscup2015.delete_target" not in codenames


@pytest.mark.django_db
def test_a_kind_that_leaves_gives_its_permissions_back(ledger_kind):
    organizer_group_ensure()
    unregister(LedgerKind.key)
    codenames = _codenames(organizer_group_ensure())
    assert {name for name in codenames if name.startswith("dp.")} == {
        "dp.view_dpround",
        "dp.view_ledger",
        "dp.view_charge",
        "dp.view_estimate",
    }
    assert (
        Group.objects.get(name=ORGANIZER_GROUP)
        .permissions.filter(content_type__app_label="pwscup2015")
        .exists()
    )


def test_each_kind_s_scoped_admin_models_are_read_by_organizers():
    """The core's default, the same for every kind: "view" on what its admin shows scoped
    (the scorer's build log, an inline of a program's page, included); a model without an
    admin page gets nothing (nothing would show it)."""
    wanted = organizer_permissions()
    assert wanted["scorer"] == {
        name: ("view",)
        for name in (
            "scorerround",
            "programversion",
            "programbuild",
            "datapack",
            "teamslot",
            "slotsalt",
            "release",
            "target",
            "attack",
        )
    }
    assert wanted["sequential"] == {
        name: ("view",) for name in ("sequentialround", "master", "release", "seqattack")
    }
    assert wanted["synthetic"] == {
        name: ("view",)
        for name in ("syntheticround", "synpopulation", "synrelease", "syntarget", "synattack")
    }
