"""The organizer's admin: the Round form checks data and configuration with ``scoring``."""

import hashlib
import json

import pytest
from django.urls import reverse
from django.utils.timezone import localtime

import scoring
from pwscup.competitions.models import AuditEntry, Round
from pwscup.pwscup2015.models import AnonymizationSubmission, Pwscup2015Round, Target
from pwscup.submissions.models import Status
from tests.pwscup.factories import run_operations, scored
from tests.support import adult_config, adult_head, csv_upload

pytestmark = pytest.mark.django_db

ADD_URL = reverse("admin:competitions_round_add")


@pytest.fixture
def organizer(client, django_user_model):
    admin = django_user_model.objects.create_superuser("boss", "boss@example.org", "pw")
    client.force_login(admin)
    return client


def round_form(competition, *, original: bytes, config, config_file: bytes | None = None):
    data = {
        "competition": competition.pk,
        "name": "Second round",
        "slug": "r2",
        "order": 2,
        "data_mode": Pwscup2015Round.DataMode.SHARED,
        "original_file": csv_upload(original, "original.csv"),
        "config": json.dumps(config),
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
    if config_file is not None:
        data["config_file"] = csv_upload(config_file, "round.json")
    return data


def form_errors(response) -> dict:
    assert response.status_code == 200, "the form is shown again, not saved"
    form = response.context["adminform"].form
    return {field: " ".join(errors) for field, errors in form.errors.items()}


def test_a_good_round_is_saved_with_rows_digest_and_normalised_config(world, organizer):
    original = adult_head(50)
    response = organizer.post(
        ADD_URL, round_form(world.competition, original=original, config=adult_config())
    )
    assert response.status_code == 302, form_errors(response)
    saved = Round.objects.get(competition=world.competition, slug="r2")
    assert saved.original_rows == 50
    assert saved.original_sha256 == hashlib.sha256(original).hexdigest()
    table = scoring.read_table(original)
    assert saved.config == scoring.load_config(adult_config(), table).to_dict()
    saved.original_file.open("rb")
    assert saved.original_file.read() == original
    saved.original_file.close()


def _with_phases(data: dict, attack_opens: str) -> dict:
    """``data`` with both phases typed into the page's inline rows (in Asia/Tokyo):
    anonymization 2030-05-01 10:00 to 2030-05-10 10:00, attack from ``attack_opens``."""
    rows = (
        ("anonymization", ("2030-05-01", "10:00:00"), ("2030-05-10", "10:00:00")),
        ("attack", ("2030-05-05", attack_opens), ("2030-05-20", "10:00:00")),
    )
    data = {**data, "phases-TOTAL_FORMS": "2"}
    for i, (kind, opens, closes) in enumerate(rows):
        data[f"phases-{i}-kind"] = kind
        data[f"phases-{i}-opens_at_0"], data[f"phases-{i}-opens_at_1"] = opens
        data[f"phases-{i}-closes_at_0"], data[f"phases-{i}-closes_at_1"] = closes
        data[f"phases-{i}-daily_limit"] = "5"
    return data


def test_a_round_added_in_the_admin_is_created_as_the_console_creates_it(world, organizer):
    """*Add round* goes through the console's creation: the audit line *Created the round*,
    its phases, and the phase order checked as the console checks it (the attack phase may
    open before the anonymization phase closes only with the box ticked)."""

    def data():
        form = round_form(world.competition, original=adult_head(30), config=adult_config())
        return _with_phases(form, "10:00:00")

    refused = organizer.post(ADD_URL, data())
    assert refused.status_code == 200
    (formset,) = [f.formset for f in refused.context["inline_admin_formsets"]]
    assert "before the anonymization phase closes" in formset.forms[1].errors["opens_at"][0]
    assert not Round.objects.filter(slug="r2").exists()
    response = organizer.post(ADD_URL, {**data(), "allow_attack_before_close": "on"})
    assert response.status_code == 302, form_errors(response)
    saved = Round.objects.get(competition=world.competition, slug="r2")
    (line,) = AuditEntry.objects.filter(round=saved, action=AuditEntry.Action.ROUND_CREATED)
    assert line.user.username == "boss"
    assert line.detail == {"name": "Second round", "rows": 30}
    assert {p.kind: p.daily_limit for p in saved.phases.all()} == {
        "anonymization": 5,
        "attack": 5,
    }
    assert saved.pwscup2015.tie_break_metric == "U1"
    assert saved.quota_reset_hour == Round._meta.get_field("quota_reset_hour").default


def test_a_bad_original_csv_shows_the_scoring_message_and_saves_nothing(world, organizer):
    lines = adult_head(20).split(b"\n")
    lines[5] += b",surplus"  # data row 5 has one field too many
    response = organizer.post(
        ADD_URL,
        round_form(world.competition, original=b"\n".join(lines), config=adult_config()),
    )
    errors = form_errors(response)
    assert "row 5 has 16 fields" in errors.get("original_file", ""), errors
    assert not Round.objects.filter(slug="r2").exists()


def test_a_bad_configuration_names_the_key_and_saves_nothing(world, organizer):
    config = adult_config()
    config["qi"] = config["qi"] + ["shoe-size"]
    response = organizer.post(
        ADD_URL, round_form(world.competition, original=adult_head(20), config=config)
    )
    errors = form_errors(response)
    assert "config" in errors and "qi" in errors["config"] and "shoe-size" in errors["config"]
    assert not Round.objects.filter(slug="r2").exists()


def test_a_configuration_file_replaces_the_field_and_is_checked(world, organizer):
    data = round_form(
        world.competition, original=adult_head(20), config={}, config_file=b"{not json"
    )
    errors = form_errors(organizer.post(ADD_URL, data))
    assert "config_file" in errors and "JSON" in errors["config_file"]
    config = adult_config()
    config["e2_column"] = "age"  # not a sensitive attribute
    data = round_form(
        world.competition,
        original=adult_head(20),
        config={},
        config_file=json.dumps(config).encode(),
    )
    errors = form_errors(organizer.post(ADD_URL, data))
    assert "e2_column" in errors.get("config", ""), errors
    data = round_form(
        world.competition,
        original=adult_head(20),
        config={},
        config_file=json.dumps(adult_config()).encode(),
    )
    assert organizer.post(ADD_URL, data).status_code == 302
    assert Round.objects.get(slug="r2").config["e2_column"] == "fnlwgt"


def run_action(client, action: str, round_: Round):
    url = reverse("admin:competitions_round_changelist")
    return client.post(url, {"action": action, "_selected_action": [round_.pk]}, follow=True)


def test_admin_actions_freeze_rescore_and_publish(world, organizer):
    sub_a = scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    response = run_action(organizer, "freeze", world.round)
    assert response.status_code == 200
    assert f"{world.round}: freeze started." in response.content.decode()
    assert not Target.objects.exists()  # the request returned at once; a worker freezes
    (operation,) = run_operations()
    assert operation.result == {"targets": 2, "published": 2, "unchanged": 0}
    world.round.refresh_from_db()
    assert world.round.pwscup2015.frozen_at is not None
    assert Target.objects.filter(round=world.round).count() == 2

    run_action(organizer, "rescore_all", world.round)
    run_operations()
    assert set(AnonymizationSubmission.objects.values_list("status", flat=True)) == {Status.QUEUED}
    assert set(Target.objects.values_list("builtin__status", flat=True)) == {Status.QUEUED}
    assert AnonymizationSubmission.objects.get(pk=sub_a.pk).attempts == 0

    assert not world.round.pwscup2015.results_published
    run_action(organizer, "publish_results", world.round)
    run_operations()
    world.round.refresh_from_db()
    assert world.round.pwscup2015.results_published
    run_action(organizer, "unpublish_results", world.round)
    world.round.refresh_from_db()
    assert not world.round.pwscup2015.results_published


def test_a_team_member_cannot_use_the_admin(world, client):
    client.force_login(world.users["a"])
    response = client.get(ADD_URL)
    assert response.status_code == 302 and "login" in response["Location"]


def test_an_empty_configuration_gets_the_scoring_message(world, organizer):
    response = organizer.post(
        ADD_URL, round_form(world.competition, original=adult_head(20), config={})
    )
    errors = form_errors(response)
    assert "qi" in errors.get("config", ""), errors
    assert "required" not in errors.get("config", "")


def test_editing_a_round_without_a_new_file_rechecks_the_stored_one(world, organizer):
    url = reverse("admin:competitions_round_change", args=[world.round.pk])
    assert organizer.get(url).status_code == 200
    data = round_form(world.competition, original=b"", config=world.round.config)
    del data["original_file"]
    data.update(slug=world.round.slug, name=world.round.name, tie_break_metric="U4")
    phases = list(world.round.phases.order_by("opens_at"))
    data.update({"phases-TOTAL_FORMS": str(len(phases)), "phases-INITIAL_FORMS": str(len(phases))})
    for i, phase in enumerate(phases):
        data.update(
            {
                f"phases-{i}-id": phase.pk,
                f"phases-{i}-round": world.round.pk,
                f"phases-{i}-kind": phase.kind,
                f"phases-{i}-opens_at_0": localtime(phase.opens_at).strftime("%Y-%m-%d"),
                f"phases-{i}-opens_at_1": localtime(phase.opens_at).strftime("%H:%M:%S"),
                f"phases-{i}-closes_at_0": localtime(phase.closes_at).strftime("%Y-%m-%d"),
                f"phases-{i}-closes_at_1": localtime(phase.closes_at).strftime("%H:%M:%S"),
            }
        )
    response = organizer.post(url, data)
    assert response.status_code == 302, form_errors(response)
    world.round.refresh_from_db()
    assert world.round.pwscup2015.tie_break_metric == "U4"
    assert world.round.original_rows == 200
    for phase in phases:
        kept = world.round.phases.get(pk=phase.pk)
        assert abs(kept.opens_at - phase.opens_at).total_seconds() < 1
        assert abs(kept.closes_at - phase.closes_at).total_seconds() < 1
