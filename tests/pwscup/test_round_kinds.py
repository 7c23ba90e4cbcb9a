"""Round kinds in the registry: the first kind is registered and owns the existing rounds,
the round service refuses an unknown kind, a key cannot be taken twice, and the first kind
checks a configuration against its round's original.

How the core serves a round through its kind (the round page, the kind's pages in its
namespace, the console, the admin, the commands) is tested with the toy game, the tests'
one test-only kind, in its own folder of the conformance suite (a test-only kind is named
nowhere else)."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from pwscup.competitions.models import Round
from pwscup.competitions.services import round_of_kind_create
from pwscup.kinds import RoundKind, get_kind, kind_of, register
from pwscup.kinds.layout import KIND_MODULES
from pwscup.kinds.registry import all_kinds, kind_choices
from pwscup.kinds.round_basics import RoundBasics
from tests.support import adult_config


def test_the_first_kind_is_registered_and_existing_rounds_belong_to_it(world):
    assert world.round.kind == "pwscup2015"
    assert kind_of(world.round) is get_kind("pwscup2015")
    assert all_kinds()[0].key == "pwscup2015"
    assert ("pwscup2015", get_kind("pwscup2015").label) in kind_choices()


def test_the_round_service_refuses_an_unknown_kind(world):
    with pytest.raises(ValidationError) as raised:
        round_of_kind_create(
            basics=RoundBasics(competition=world.competition, name="X", slug="x"),
            kind="nope",
            config={},
        )
    assert "Unknown round kind 'nope'" in raised.value.message_dict["kind"][0]
    assert "pwscup2015" in raised.value.message_dict["kind"][0]
    assert not Round.objects.filter(slug="x").exists()


def test_a_key_cannot_be_taken_twice_by_different_kinds():
    first = get_kind("pwscup2015")

    class Other(RoundKind):
        key = "pwscup2015"

    with pytest.raises(ValueError, match="already registered"):
        register(Other())
    assert get_kind("pwscup2015") is first


def test_the_first_kind_checks_a_configuration_against_the_round_s_original(world):
    kind = get_kind("pwscup2015")
    checked = kind.validate_config(adult_config(), round=world.round)
    assert checked == world.round.config  # normalised as at creation (integer columns decided)
    bad = {**adult_config(), "qi": [*adult_config()["qi"], "shoe-size"]}
    with pytest.raises(ValidationError) as raised:
        kind.validate_config(bad, round=world.round)
    assert "shoe-size" in raised.value.message_dict["config"][0]
    with pytest.raises(ValidationError) as raised:
        kind.validate_config(["not", "an", "object"])
    assert raised.value.message_dict == {
        "config": ["The round configuration must be a JSON object."]
    }


def test_a_declared_module_wins_and_a_kind_outside_a_kind_module_finds_none():
    sequential = get_kind("sequential")
    assert sequential.api_module.__name__ == "pwscup.sequential.api.round_status"  # declared
    assert sequential.standings_module.__name__ == "pwscup.sequential.standings"  # found
    assert get_kind("pwscup2015").api_module.__name__ == "pwscup.pwscup2015.api"  # found

    class Elsewhere(RoundKind):  # in a test module, not in a package's ``kind.py``
        key = "elsewhere"

    elsewhere = Elsewhere()
    assert [getattr(elsewhere, name) for name in KIND_MODULES] == [None] * len(KIND_MODULES)


@pytest.mark.parametrize("key", ["dp", "sequential"])
def test_a_kind_s_configuration_error_is_in_the_reader_s_language(key):
    kind = get_kind(key)
    with translation.override("ja"), pytest.raises(ValidationError) as raised:
        kind.validate_config({"m": 1})
    message = " ".join(raised.value.messages)
    assert message and not message.isascii(), message  # not the scoring library's English
