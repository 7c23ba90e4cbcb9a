"""One service checks a round's settings (gates, tie-break, time zone, phases); every path
(admin, services, demo) goes through it, and an incomplete round is shown as such."""

import datetime as dt
import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.models import Phase, Round
from pwscup.competitions.services import phase_set
from pwscup.kinds.round_basics import RoundBasics
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.ranking import parse_gates, passes_gates
from pwscup.pwscup2015.services.rounds import round_create, round_settings_check
from tests.support import adult_config, adult_head, csv_upload

pytestmark = pytest.mark.django_db

ADD_URL = reverse("admin:competitions_round_add")
GOOD = {"timezone": "Asia/Tokyo", "utility_gates": {"U1": 100}, "tie_break_metric": "U1"}


def settings_errors(**changes) -> dict:
    with pytest.raises(ValidationError) as caught:
        round_settings_check(**{**GOOD, **changes})
    return {field: " ".join(messages) for field, messages in caught.value.message_dict.items()}


def test_good_settings_pass():
    round_settings_check(**GOOD)
    round_settings_check(**{**GOOD, "utility_gates": {"S1": {"min": 5}, "U4": {"max": 0.05}}})
    round_settings_check(**{**GOOD, "utility_gates": {}})


def test_a_bare_bound_on_a_metric_other_than_u1_u6_is_rejected_with_both_directions():
    errors = settings_errors(utility_gates={"S1": 5})
    assert list(errors) == ["utility_gates"]
    assert '{"S1": {"min": 5}} (at least)' in errors["utility_gates"]
    assert '{"S1": {"max": 5}} (at most)' in errors["utility_gates"]


@pytest.mark.parametrize(
    ("gates", "phrase"),
    [
        ({"K9": 1}, "Unknown metric 'K9' in the gates"),
        ({"U1": "100"}, "Gate U1: the bound must be a number, not '100'."),
        ({"S1": {"least": 5}}, 'Gate S1: use {"min": …} and/or {"max": …}'),
        ({"U4": {"min": 0.5, "max": 0.1}}, "Gate U4: min 0.5 is above max 0.1."),
        ([["U1", 100]], "Utility gates must be a JSON object"),
    ],
)
def test_malformed_gates_are_rejected_by_name(gates, phrase):
    assert phrase in settings_errors(utility_gates=gates)["utility_gates"]


def test_an_unknown_time_zone_and_tie_break_are_rejected():
    errors = settings_errors(timezone="Tokyo", tie_break_metric="U9")
    assert "Unknown time zone 'Tokyo'" in errors["timezone"]
    assert "Unknown tie-break metric 'U9'" in errors["tie_break_metric"]


def test_gates_with_a_direction_decide_who_passes():
    round_ = Pwscup2015Round(round=Round(), utility_gates={"S1": {"min": 5}, "U1": 100}).round
    assert passes_gates({"S1": 5, "U1": 99.0}, round_)
    assert not passes_gates({"S1": 4, "U1": 99.0}, round_)
    assert not passes_gates({"S1": 7, "U1": 101.0}, round_)
    assert [str(g) for g in parse_gates(round_.pwscup2015.utility_gates)] == ["S1 ≥ 5", "U1 ≤ 100"]


def test_round_create_the_path_of_the_demo_and_commands_refuses_bad_settings(world):
    with pytest.raises(ValidationError) as caught:
        round_create(
            basics=RoundBasics(
                competition=world.competition, name="Bad", slug="bad", timezone="Tokyo"
            ),
            original=adult_head(20),
            original_filename="o.csv",
            config_raw=adult_config(),
            utility_gates={"S1": 5},
        )
    assert set(caught.value.message_dict) == {"timezone", "utility_gates"}
    assert not Round.objects.filter(slug="bad").exists()


def test_a_phase_closing_before_it_opens_is_refused_by_the_service(world):
    now = timezone.now()
    with pytest.raises(ValidationError) as caught:
        phase_set(
            round=world.round,
            kind=Phase.Kind.ATTACK,
            opens_at=now,
            closes_at=now - dt.timedelta(hours=1),
        )
    assert "A phase must close after it opens" in " ".join(caught.value.message_dict["closes_at"])


@pytest.fixture
def organizer(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", "b@example.org", "pw"))
    return client


def admin_round_form(competition, **changes):
    data = {
        "competition": competition.pk,
        "name": "Second round",
        "slug": "r2",
        "order": 2,
        "data_mode": Pwscup2015Round.DataMode.SHARED,
        "original_file": csv_upload(adult_head(20), "original.csv"),
        "config": json.dumps(adult_config()),
        "sample_size": "",
        "decoy_count": "",
        "timezone": "Asia/Tokyo",
        "utility_gates": json.dumps({"U1": 100}),
        "tie_break_metric": "U1",
        "ranking_rule": Pwscup2015Round.RankingRule.WORST_ATTACK,
        "selection_rule": Pwscup2015Round.SelectionRule.SELECTED_OR_LAST,
        "attack_visibility": Pwscup2015Round.AttackVisibility.LIVE,
        "auto_freeze": "on",
        "phases-TOTAL_FORMS": "0",
        "phases-INITIAL_FORMS": "0",
        "phases-MIN_NUM_FORMS": "0",
        "phases-MAX_NUM_FORMS": "1000",
    }
    data.update(changes)
    return data


def admin_errors(response) -> dict:
    assert response.status_code == 200, "the form is shown again, not saved"
    errors = {f: " ".join(e) for f, e in response.context["adminform"].form.errors.items()}
    for formset in response.context["inline_admin_formsets"]:
        for form_errors in formset.formset.errors:
            errors.update({f"phase.{f}": " ".join(e) for f, e in form_errors.items()})
    return errors


def test_the_admin_refuses_tokyo_and_a_bare_s1_gate_and_saves_nothing(world, organizer):
    response = organizer.post(
        ADD_URL,
        admin_round_form(world.competition, timezone="Tokyo", utility_gates=json.dumps({"S1": 5})),
    )
    errors = admin_errors(response)
    assert "Unknown time zone 'Tokyo'" in errors["timezone"]
    assert '{"S1": {"min": 5}} (at least)' in errors["utility_gates"]
    assert not Round.objects.filter(slug="r2").exists()


def test_the_admin_refuses_a_phase_that_closes_before_it_opens(world, organizer):
    data = admin_round_form(world.competition)
    data.update(
        {
            "phases-TOTAL_FORMS": "1",
            "phases-0-kind": Phase.Kind.ANONYMIZATION,
            "phases-0-opens_at_0": "2030-05-02",
            "phases-0-opens_at_1": "10:00:00",
            "phases-0-closes_at_0": "2030-05-01",
            "phases-0-closes_at_1": "10:00:00",
        }
    )
    errors = admin_errors(organizer.post(ADD_URL, data))
    assert "A phase must close after it opens" in errors["phase.closes_at"]
    assert not Round.objects.filter(slug="r2").exists()


def test_the_admin_saves_a_gate_with_an_explicit_direction(world, organizer):
    data = admin_round_form(world.competition, utility_gates=json.dumps({"S1": {"min": 2}}))
    response = organizer.post(ADD_URL, data)
    assert response.status_code == 302, admin_errors(response)
    assert Pwscup2015Round.objects.get(round__slug="r2").utility_gates == {"S1": {"min": 2}}


def test_an_incomplete_round_is_a_notice_for_its_organizer_and_not_open_for_teams(world, client):
    world.attack.delete()
    client.force_login(world.organizer)
    page = client.get(world.round_url()).content.decode()
    assert "This round is incomplete: it has no Attack phase yet." in page
    competition_page = client.get(f"/c/{world.competition.slug}/").content.decode()
    assert "This round is incomplete: it has no Attack phase yet." in competition_page

    client.force_login(world.users["a"])
    page = client.get(world.round_url()).content.decode()
    assert "This round is not open yet." in page
    assert 'data-testid="upload-form"' not in page
    assert "incomplete" not in page
    competition_page = client.get(f"/c/{world.competition.slug}/").content.decode()
    assert "This round is not open yet." in competition_page


def test_a_round_without_any_phase_shows_its_organizer_both_missing(world, client):
    world.round.phases.all().delete()
    client.force_login(world.organizer)
    response = client.get(world.round_url())
    assert response.status_code == 200
    assert (
        "This round is incomplete: it has no Anonymization phase, Attack phase yet."
        in response.content.decode()
    )
