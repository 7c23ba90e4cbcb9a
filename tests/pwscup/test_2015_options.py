"""The 2015 kind's options the later editions need (issue 50 point 6): the range rule of a
column, a published random sample of each target, and the utility gates typed in fields;
through the worker, the freeze, the downloads, the console's forms as a browser posts them,
the Rules tab and the bundles."""

import io
import json

import numpy as np
import pandas as pd
import pytest
from django.urls import reverse

import scoring
from pwscup.bundles import services as bundle_services
from pwscup.bundles.selectors import competition_bundle
from pwscup.competitions.models import Round
from pwscup.kinds.tabs import tab_url
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.services.freeze import derived_seed
from pwscup.submissions.models import Status
from tests.pwscup.bundle_helpers import START, creator, rebuilt
from tests.pwscup.factories import freeze as freeze_round
from tests.pwscup.factories import (
    read_csv_text,
    read_field,
    score,
    scored,
    scored_attack,
    truth_of,
    upload,
)
from tests.pwscup.rendered_forms import form_fields_of, post_data
from tests.support import adult_config, adult_head, csv_upload, noisy_copy

pytestmark = pytest.mark.django_db


def _ages(world) -> pd.Series:
    return read_csv_text(world.original)["age"].astype(int)


def _with_age(world, row: int, value: str) -> bytes:
    """A valid copy of the original whose 1-based data row ``row`` has age ``value``."""
    table = read_csv_text(noisy_copy(world.original, seed=1))
    table.loc[row - 1, "age"] = value
    return table.to_csv(index=False, lineterminator="\n").encode()


# --- 1. The range rule -------------------------------------------------------------------


def test_a_value_outside_the_range_is_refused_naming_column_row_and_value(make_world):
    probe = make_world(slug="probe")
    low, high = int(_ages(probe).min()), int(_ages(probe).max()) + 5
    world = make_world(slug="ranged", value_ranges={"age": {"min": low, "max": high}})
    outside = score(upload(world, "a", _with_age(world, 7, str(high + 0.5))))
    assert outside.status == Status.FAILED
    assert "'age'" in outside.message and f"row 7 ('{high + 0.5}')" in outside.message
    assert f"from {low} to {high}" in outside.message
    word = score(upload(world, "b", _with_age(world, 3, "old")))
    assert word.status == Status.FAILED and "row 3 ('old')" in word.message


def test_a_value_on_the_bound_is_accepted_where_the_default_rule_refuses_it(make_world):
    probe = make_world(slug="probe")
    low, high = int(_ages(probe).min()), int(_ages(probe).max()) + 5
    assert high not in set(_ages(probe)), "the bound is no value of the original"
    content = _with_age(probe, 4, str(high))
    # Without the rule the new value is refused: it is no value of the original column.
    plain = score(upload(probe, "a", content))
    assert plain.status == Status.FAILED and "'age'" in plain.message
    world = make_world(slug="ranged", value_ranges={"age": {"min": low, "max": high}})
    on_bound = score(upload(world, "a", content))
    assert on_bound.status == Status.FINISHED, on_bound.message
    assert on_bound.scores["rows"] == len(_ages(world))
    # A column without a range keeps the default rule.
    other = read_csv_text(content)
    other.loc[0, "sex"] = "Robot"
    refused = score(upload(world, "b", other.to_csv(index=False, lineterminator="\n").encode()))
    assert refused.status == Status.FAILED and "'sex'" in refused.message


# --- 2. The published sample -------------------------------------------------------------


def test_the_published_sample_has_n_rows_and_attacks_are_scored_against_it(client, make_world):
    world = make_world(published_rows=50)
    submission = scored(world, "a", seed=1, delete=5)
    scored(world, "b", seed=2)
    targets = freeze_round(world)
    target = targets["a"]
    assert (target.rows, target.reference_rows) == (50, 200)
    truth = truth_of(target)
    assert truth.size == 50 and len(set(truth.tolist())) == 50
    # The sample is the first 50 rows of the target's own shuffle (its seed is kept per round,
    # team and version): drawn again, it is the same.
    anonymized = scoring.read_table(read_field(submission.file))
    whole = scoring.publish_target(
        anonymized, seed=derived_seed(world.round, world.teams["a"].pk, "permutation", 1)
    )
    assert np.array_equal(truth, whole.truth[:50])
    published = read_csv_text(read_field(target.published_file))
    expected = read_csv_text(read_field(submission.file)).iloc[truth - 1].reset_index(drop=True)
    pd.testing.assert_frame_equal(published, expected)
    # The built-in attacks ran on the sample.
    assert target.builtin.status == Status.FINISHED, target.builtin.message
    # Team B downloads A's target: the 50 published rows, nothing of the truth.
    client.force_login(world.users["b"])
    args = [world.competition.slug, world.round.slug, "teamA"]
    response = client.get(reverse("target_download", args=args))
    assert response.status_code == 200
    body = b"".join(response.streaming_content)
    assert body == read_field(target.published_file)
    downloaded = read_csv_text(body)
    assert len(downloaded) == 50 and list(downloaded.columns) == list(published.columns)
    assert "row" not in downloaded.columns
    # An attack is one guess per published row, scored against the sample's truth.
    perfect = scored_attack(world, "b", target, truth)
    assert perfect.status == Status.FINISHED, perfect.message
    assert (perfect.rate, perfect.correct, perfect.rows) == (1.0, 50, 50)
    half = truth.copy()
    half[:25] = 0
    assert scored_attack(world, "b", target, half).rate == 0.5
    whole_table = scored_attack(world, "b", target, whole.truth)  # every kept row: refused
    assert whole_table.status == Status.FAILED and "50" in whole_table.message
    # Without the setting every kept row is published, as before.
    plain = make_world(slug="plain")
    scored(plain, "a", seed=1, delete=5)
    assert freeze_round(plain)["a"].rows == 195


# --- 3. The console's forms, as the browser posts them -----------------------------------


ALLOW = {"allow_attack_before_close": True}  # the world's phases overlap (both open now)


def _edit_url(world) -> str:
    return reverse("pwscup2015_console:round_edit", args=[world.competition.slug, world.round.slug])


def _age_row(world) -> int:
    return world.round.config["columns"].index("age")


def test_the_edit_page_takes_gates_ranges_and_sample_in_typed_fields(client, world):
    client.force_login(world.organizer)
    page = client.get(_edit_url(world)).content.decode()
    assert 'name="utility_gates"' not in page and "Utility gates (JSON)" not in page
    # Each number has its label, read by screen readers, in a positioned cell.
    assert '<label class="sr-only" for="id_gate_U1_max">U1 at most</label>' in page
    assert (
        f'<label class="sr-only" for="id_range_{_age_row(world)}_min">age lower bound</label>'
        in page
    )
    assert 'class="scroll choice-rows bounds-table"' in page
    age = _age_row(world)
    fill = {
        "gate_U1_max": "2000",
        "gate_U4_max": "0.1",
        "gate_S1_min": "2",
        f"range_{age}_min": "13",
        f"range_{age}_max": "95",
        "published_rows": "300",
        **ALLOW,
    }
    fields = form_fields_of(page, "round-edit-form")
    response = client.post(_edit_url(world), post_data(fields, fill))
    assert response.status_code == 302, response.context["form"].errors
    game = Pwscup2015Round.objects.get(pk=world.round.pk)
    assert game.utility_gates == {"U1": 2000, "U4": 0.1, "S1": {"min": 2}}
    assert game.value_ranges == {"age": {"min": 13, "max": 95}}
    assert game.published_rows == 300
    # The page shows them again, and saving it unchanged keeps them.
    again = client.get(_edit_url(world)).content.decode()
    unchanged = post_data(form_fields_of(again, "round-edit-form"), ALLOW)
    assert unchanged["gate_U1_max"] == ["2000"] and unchanged[f"range_{age}_max"] == ["95"]
    assert client.post(_edit_url(world), unchanged).status_code == 302
    game.refresh_from_db()
    assert game.utility_gates == {"U1": 2000, "U4": 0.1, "S1": {"min": 2}}
    assert game.value_ranges == {"age": {"min": 13, "max": 95}}
    # Emptying the fields removes the gates, the range and the sample.
    cleared = post_data(
        form_fields_of(again, "round-edit-form"),
        {**{name: "" for name in fill}, **ALLOW},
    )
    assert client.post(_edit_url(world), cleared).status_code == 302
    game.refresh_from_db()
    assert (game.utility_gates, game.value_ranges, game.published_rows) == ({}, {}, None)


@pytest.mark.parametrize(
    "fill, field, expected",
    [
        ({"range_{age}_min": "13"}, "range_{age}_max", "Give both bounds of age"),
        ({"range_{age}_min": "90", "range_{age}_max": "13"}, None, "lower bound 90 is above"),
        ({"gate_S1_min": "5", "gate_S1_max": "2"}, None, "min 5 is above max 2"),
        ({"gate_U1_max": "lots"}, "gate_U1_max", "Enter a number"),
        ({"published_rows": "0"}, "published_rows", "greater than or equal to 1"),
    ],
)
def test_the_edit_page_refuses_bad_bounds_with_a_message(client, world, fill, field, expected):
    client.force_login(world.organizer)
    age = _age_row(world)
    fill = {key.format(age=age): value for key, value in fill.items()} | ALLOW
    fields = form_fields_of(client.get(_edit_url(world)).content.decode(), "round-edit-form")
    response = client.post(_edit_url(world), post_data(fields, fill))
    assert response.status_code == 200
    form = response.context["form"]
    errors = form.non_field_errors() if field is None else form.errors[field.format(age=age)]
    assert expected in " ".join(errors), form.errors
    assert "attack_opens_at" not in form.errors
    assert expected.split(" ")[0] in response.content.decode()
    assert Pwscup2015Round.objects.get(pk=world.round.pk).value_ranges == {}


def _wizard(competition, step):
    return reverse(f"pwscup2015_console:wizard_{step}", args=[competition.slug])


def test_the_wizard_rules_step_posts_its_typed_fields(client, world):
    competition = world.competition
    client.force_login(world.organizer)
    upload_ = csv_upload(adult_head(60), "adult.csv")
    assert client.post(_wizard(competition, "upload"), {"original": upload_}).status_code == 302
    config = csv_upload(json.dumps(adult_config()).encode(), "c.json")
    assert client.post(_wizard(competition, "roles"), {"config_file": config}).status_code == 302
    assert client.post(_wizard(competition, "data"), {"data_mode": "shared"}).status_code == 302
    phases = {
        "name": "Round two",
        "slug": "r2",
        "timezone": "Asia/Tokyo",
        "anonymization_opens_at": "2030-01-10T09:00",
        "anonymization_closes_at": "2030-01-20T18:00",
        "attack_opens_at": "2030-01-21T09:00",
        "attack_closes_at": "2030-01-31T18:00",
    }
    assert client.post(_wizard(competition, "phases"), phases).status_code == 302
    page = client.get(_wizard(competition, "rules")).content.decode()
    assert 'data-testid="gate-row-U1"' in page and 'data-testid="range-fields"' in page
    age = adult_config()["qi"].index("age")  # the first column of Adult
    fill = {
        "gate_U1_max": "1000",
        f"range_{age}_min": "13",
        f"range_{age}_max": "85",
        "published_rows": "300",
    }
    fields = form_fields_of(page, "wizard-rules")
    response = client.post(_wizard(competition, "rules"), post_data(fields, fill))
    assert response.status_code == 302, response.context["form"].errors
    review = client.get(_wizard(competition, "review")).content.decode()
    assert "U1 ≤ 1,000" in review and "13 ≤ age ≤ 85" in review and "300" in review
    assert client.post(_wizard(competition, "review")).status_code == 302
    game = Round.objects.get(competition=competition, slug="r2").pwscup2015
    assert game.utility_gates == {"U1": 1000}
    assert game.value_ranges == {"age": {"min": 13, "max": 85}}
    assert game.published_rows == 300


# --- The Rules tab and the bundles -------------------------------------------------------


def test_the_rules_tab_states_the_ranges_and_the_sample(client, make_world):
    world = make_world(value_ranges={"age": {"min": 13, "max": 85}}, published_rows=300)
    client.force_login(world.users["a"])
    page = client.get(tab_url(world.round, "rules")).content.decode()
    assert "13 ≤ age ≤ 85" in page
    assert "random sample of 300 kept rows" in page
    # The command that reproduces the scores locally passes the same rule.
    assert "--config r1_config.json --range age=13:85</pre>" in page
    plain = make_world(slug="plain")
    client.force_login(plain.users["a"])
    page = client.get(tab_url(plain.round, "rules")).content.decode()
    assert "every kept row of each team" in page and "≤ age ≤" not in page


def _import(data: bytes, user, *, slug: str):
    return bundle_services.competition_import(
        bundle_file=io.BytesIO(data), name="", slug=slug, start=START, user=user
    )


def test_a_bundle_keeps_the_three_settings_and_an_old_one_imports_without_them(make_world):
    world = make_world(
        utility_gates={"U1": 2000, "S1": {"min": 2}},
        value_ranges={"age": {"min": 13, "max": 85}},
        published_rows=300,
    )
    data = competition_bundle(competition=world.competition).data
    copied = _import(data, creator(world.organizer), slug="copy").rounds.get().pwscup2015
    assert copied.utility_gates == {"U1": 2000, "S1": {"min": 2}}
    assert copied.value_ranges == {"age": {"min": 13, "max": 85}}
    assert copied.published_rows == 300

    def older(manifest):
        settings = manifest["rounds"][0]["settings"]
        settings.pop("value_ranges")
        settings.pop("published_rows")

    old = _import(rebuilt(data, change=older), creator(world.organizer), slug="old")
    game = old.rounds.get().pwscup2015
    assert (game.value_ranges, game.published_rows) == ({}, None)
    assert game.utility_gates == {"U1": 2000, "S1": {"min": 2}}


@pytest.mark.parametrize(
    "key, value, expected",
    [
        ("value_ranges", {"height": {"min": 1, "max": 2}}, "no such column"),
        ("value_ranges", {"age": {"min": 13}}, "give both bounds"),
        ("value_ranges", [13, 85], "value_ranges"),
        ("published_rows", 0, "published_rows"),
        ("published_rows", "300", "published_rows"),
    ],
)
def test_a_bundle_with_bad_options_is_refused_naming_them(make_world, key, value, expected):
    world = make_world()
    data = rebuilt(
        competition_bundle(competition=world.competition).data,
        change=lambda m: m["rounds"][0]["settings"].update({key: value}),
    )
    with pytest.raises(Exception) as caught:
        _import(data, creator(world.organizer), slug="bad")
    assert expected in str(caught.value)


def test_the_sample_submission_keeps_the_range_and_a_new_range_offers_a_rescore(client, make_world):
    # A range narrower than the original's ages: the sample moves the others to the bounds.
    world = make_world(value_ranges={"age": {"min": 25, "max": 60}})
    assert not _ages(world).between(25, 60).all()
    client.force_login(world.users["a"])
    response = client.get(reverse("sample_download", args=[world.competition.slug, "r1"]))
    assert response.status_code == 200
    content = b"".join(response.streaming_content) if response.streaming else response.content
    sample = read_csv_text(content)
    kept = sample[sample["age"] != ""]["age"].astype(float)
    assert kept.between(25, 60).all()
    assert score(upload(world, "a", content)).status == Status.FINISHED
    # The organizer changes the range: the uploads may no longer be valid, a rescore is offered.
    client.force_login(world.organizer)
    age = _age_row(world)
    fields = form_fields_of(client.get(_edit_url(world)).content.decode(), "round-edit-form")
    response = client.post(_edit_url(world), post_data(fields, {f"range_{age}_max": "50", **ALLOW}))
    assert response.status_code == 302 and response["Location"].endswith("?rescore=offer")
