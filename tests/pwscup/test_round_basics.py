"""A round's basics written once: every kind's creation form starts with the core's fields
(``RoundBasicsForm``), reads its windows in the round's time zone, and every entry point
hands the kind's service one ``RoundBasics``, checked by ``round_basics_errors``."""

import datetime as dt
import zoneinfo

import pytest

from pwscup.competitions.round_create import RoundBasicsForm, round_basics, round_identity
from pwscup.competitions.services import (
    competition_create,
    quota_reset_hour_check,
    round_basics_errors,
)
from pwscup.core.form_fields import local_datetime_field
from pwscup.dp.admin import DPRoundCreateForm
from pwscup.dp.round_form import DPRoundForm
from pwscup.kinds.bundles import RoundEntry
from pwscup.kinds.round_basics import RoundBasics
from pwscup.pwscup2015.console.phase_forms import PhasesForm
from pwscup.scorer.forms import ScorerRoundForm
from pwscup.sequential.round_form import SequentialRoundForm
from pwscup.synthetic.forms import SettingsForm

BASICS = {"name": "Name", "slug": "Address (slug)", "timezone": "Time zone of the round"}


def _creation_forms():
    return {
        "dp console": DPRoundForm(),
        "sequential console": SequentialRoundForm(),
        "scorer console": ScorerRoundForm(),
        "synthetic console": SettingsForm(columns=["age"]),
        "2015 wizard": PhasesForm(),
    }


def test_every_kinds_creation_form_starts_with_the_round_s_basics():
    for name, form in _creation_forms().items():
        assert isinstance(form, RoundBasicsForm), name
        first = list(form.fields)[:3]
        assert {key: str(form.fields[key].label) for key in first} == BASICS, name
    assert issubclass(DPRoundCreateForm, RoundBasicsForm)


class _WindowForm(RoundBasicsForm):
    opens_at = local_datetime_field("Opens")
    LOCAL_DATES = ("opens_at",)


def test_a_form_s_windows_are_read_in_the_round_s_time_zone():
    data = {"name": "R", "slug": "r", "timezone": "Asia/Tokyo", "opens_at": "2030-01-02T09:00"}
    form = _WindowForm(data)
    assert form.is_valid(), form.errors
    tokyo = zoneinfo.ZoneInfo("Asia/Tokyo")
    assert form.cleaned_data["opens_at"] == dt.datetime(2030, 1, 2, 9, 0, tzinfo=tokyo)
    refused = _WindowForm({**data, "opens_at": "1800-01-01T00:00"})
    assert not refused.is_valid() and "opens_at" in refused.errors


@pytest.mark.django_db
def test_every_entry_point_makes_the_same_basics():
    competition = competition_create(name="Cup", slug="cup")
    posted = {"name": "R", "slug": "r", "timezone": ""}
    from_form = round_basics(posted, competition=competition)
    assert from_form == RoundBasics(competition=competition, name="R", slug="r")
    assert round_identity(posted, competition=competition, user=None) == {
        "basics": from_form,
        "user": None,
    }
    entry = RoundEntry(name="R", slug="r", order=3, timezone="Europe/Paris", settings={}, files={})
    assert entry.basics(competition) == RoundBasics(
        competition=competition, name="R", slug="r", timezone="Europe/Paris", order=3
    )
    assert from_form.time_zone() != "" and entry.basics(competition).time_zone() == "Europe/Paris"


@pytest.mark.django_db
def test_the_one_check_of_a_round_s_address_and_zone():
    competition = competition_create(name="Cup", slug="cup")
    errors = round_basics_errors(competition=competition, slug="team", timezone="Mars/Base")
    assert set(errors) == {"slug", "timezone"}
    assert round_basics_errors(competition=competition, slug=None, timezone="UTC") == {}
    hour = round_basics_errors(
        competition=competition,
        slug="r",
        timezone="UTC",
        more=[("quota_reset_hour", lambda: quota_reset_hour_check(24))],
    )
    assert list(hour) == ["quota_reset_hour"]
