"""The console's sequential round form: releases, m, QI columns, the sensitive column, the
rules, the pool's draw (size, turnover, seed) and the attack phase in fields (no JSON); the
fields build the configuration ``sequential_round_create`` checks, its errors are shown next
to the field they name, and the JSON view (when filled) is the configuration."""

import datetime as dt
import json

import pytest
from django.urls import reverse

from pwscup.competitions.models import Round
from pwscup.sequential.models import SequentialRound
from tests.pwscup.rendered_forms import form_fields_of, post_data
from tests.pwscup.seq_web_world import fixture, fixture_config, upload_file

pytestmark = pytest.mark.django_db


def _qi_rows(rows: list[dict]) -> dict:
    data = {
        "qi-TOTAL_FORMS": str(len(rows)),
        "qi-INITIAL_FORMS": "0",
        "qi-MIN_NUM_FORMS": "0",
        "qi-MAX_NUM_FORMS": "1000",
    }
    for k, row in enumerate(rows):
        data.update({f"qi-{k}-{name}": value for name, value in row.items()})
    return data


def fields_post(slug="seq", **overrides) -> dict:
    data = {
        "name": "Seq by fields",
        "slug": slug,
        "timezone": "Asia/Tokyo",
        "n_releases": "2",
        "m": "2",
        "sa": "Disease",
        "sa_domain": "",
        "mode": "batch",
        "require": "m-invariant",
        "require_m_eligible": "on",
        "counterfeit_disclosure": "per-group",
        "allow_suppression": "on",
        "gate_IL": "0.5",
        "config": "",
        "master": upload_file(fixture("zhang_master.csv"), "master.csv"),
        **_qi_rows(
            [
                {"column": "Age", "kind": "num"},
                {"column": "Zip", "kind": "cat"},
                {"column": "", "kind": "num"},
            ]
        ),
    }
    data.update(overrides)
    return data


def _post(client, world, data, **headers):
    client.force_login(world.organizer)  # an organizer, not a superuser
    assert not world.organizer.is_superuser
    url = reverse("sequential_console:create", args=[world.competition.slug])
    return client.post(url, data, **headers)


def test_the_page_offers_fields_and_keeps_json_as_an_advanced_view(world, client):
    client.force_login(world.organizer)
    page = client.get(reverse("sequential_console:create", args=[world.competition.slug]))
    html = page.content.decode()
    assert 'name="qi-0-column"' in html and 'value="Age"' in html
    assert 'name="n_releases"' in html and 'name="per_team_turnover"' in html
    assert 'name="attack_target_limit"' in html
    assert '<details class="advanced-json" data-testid="seq-advanced">' in html
    assert "spec §" not in html and "docs/sequential.md" in html


def test_a_round_created_from_the_fields_alone(world, client):
    response = _post(client, world, fields_post())
    assert response.status_code == 302, response.context["form"].errors
    config = SequentialRound.objects.get(round__slug="seq").config
    assert config["qi"] == {"Age": "num", "Zip": "cat"}
    assert (config["n_releases"], config["m"], config["sa"]) == (2, 2, "Disease")
    assert config["mode"] == "batch" and config["counterfeit_disclosure"] == "per-group"
    assert config["allow_suppression"] is True and config["allow_tampering"] is False
    assert config["utility_gates"] == {"IL": 0.5}
    assert config["per_team"] is None and config["attack_phase"] is False
    assert SequentialRound.objects.get(round__slug="seq").opens_at is None  # open at once


def test_a_round_created_to_open_later_and_not_after_its_first_close(world, client):
    """*Release 1 opens at*, typed in the round's time zone (Asia/Tokyo): kept; one after
    release 1's close is refused next to the field, nothing created."""
    opening = {"opens_at": "2031-04-01 09:00", "first_close": "2031-04-08 09:00"}
    created = _post(client, world, fields_post(slug="seqlate", **opening, step_hours="24"))
    assert created.status_code == 302, created.context["form"].errors
    opens_at = SequentialRound.objects.get(round__slug="seqlate").opens_at
    assert opens_at == dt.datetime(2031, 4, 1, 0, 0, tzinfo=dt.UTC)
    after = {"opens_at": "2031-04-09 09:00", "first_close": "2031-04-08 09:00"}
    refused = _post(client, world, fields_post(slug="seqlater", **after, step_hours="24"))
    assert refused.status_code == 200
    assert refused.context["form"].errors["opens_at"] == [
        "Release 1 must open before it closes (at 2031-04-08 09:00 JST)."
    ]
    assert not SequentialRound.objects.filter(round__slug="seqlater").exists()


def test_a_pool_with_turnover_and_an_attack_phase_from_the_fields(world, client):
    pool = "pid,Age,Zip,Disease\n" + "".join(
        f"p{k},{20 + k % 30},{10000 + k % 7},{['flu', 'gastritis', 'dyspepsia'][k % 3]}\n"
        for k in range(60)
    )
    data = fields_post(
        master="",
        pool=upload_file(pool.encode(), "pool.csv"),
        per_team_size="8",
        per_team_turnover="0.25",
        per_team_seed="11",
        attack_phase="on",
        attack_daily_limit="3",
        attack_total_limit="",
        attack_target_limit="2",
    )
    response = _post(client, world, data)
    assert response.status_code == 302, response.context["form"].errors
    sequential = SequentialRound.objects.get(round__slug="seq")
    config = sequential.config
    assert config["per_team"] == {"pool": "pool.csv", "size": 8, "turnover": 0.25, "seed": 11}
    assert config["attack_phase"] is True
    limits = (
        sequential.attack_daily_limit,
        sequential.attack_total_limit,
        sequential.attack_target_limit,
    )
    assert limits == (3, None, 2)


def test_an_attack_limit_below_one_is_refused_next_to_its_field(world, client):
    response = _post(client, world, fields_post(attack_target_limit="0"))
    assert response.status_code == 200
    assert response.context["form"].errors["attack_target_limit"]
    assert not Round.objects.filter(slug="seq").exists()


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"m": "1"}, "m", "configuration key 'm' must be an integer ≥ 2, got 1"),
        # A field left empty: its own message, not the service's about a null key.
        ({"n_releases": ""}, "n_releases", "This field is required."),
        ({"sa": "Age"}, "sa", "configuration key 'sa' must be a column name other than"),
        ({"gate_IL": "-1"}, "gate_IL", "configuration key 'utility_gates'"),
        # An attack phase on one shared master: the master is at fault.
        ({"attack_phase": "on"}, "master", "an attack phase needs per-team masters"),
        (
            {"master": "", "pool": upload_file(b"pid,Age,Zip,Disease\n", "pool.csv")},
            "per_team_size",
            "This field is required.",
        ),
    ],
)
def test_a_configuration_error_is_shown_next_to_its_field(world, client, overrides, field, message):
    response = _post(client, world, fields_post(**overrides))
    assert response.status_code == 200
    form = response.context["form"]
    assert any(message in m for m in form.errors.get(field, [])), form.errors
    assert "__all__" not in form.errors
    assert not Round.objects.filter(slug="seq").exists()


def test_every_configuration_error_is_shown_at_once_next_to_its_field(world, client):
    """An organizer sees all that is wrong in one try, not one error per post."""
    overrides = {"m": "1", "n_releases": "", "gate_IL": "-1", "qi-1-column": "pid", "sa": ""}
    response = _post(client, world, fields_post(**overrides), headers={"accept-language": "ja"})
    form = response.context["form"]
    assert "2 以上の整数" in form.errors["m"][0]
    # The empty sensitive column is named too, although a QI row is at fault.
    assert set(form.errors) == {"m", "n_releases", "gate_IL", "sa"}, form.errors
    assert form.errors["sa"] == ["この項目は必須です。"]
    assert form.qi_rows[1].errors["column"]
    assert not Round.objects.filter(slug="seq").exists()


def test_the_checks_against_the_master_come_after_the_configuration_one_at_a_time(world, client):
    """As docs/sequential.md says: a QI column the master lacks, then the releases against
    the master's largest lsb, under the master table's field once the configuration itself
    is right."""
    zipp = {"qi-1-column": "Zipp", "n_releases": "1"}

    def errors(**overrides):
        fresh = {"master": upload_file(fixture("zhang_master.csv"), "master.csv")}
        return (
            _post(client, world, fields_post(**{**fresh, **zipp, **overrides}))
            .context["form"]
            .errors
        )

    assert set(errors(m="1")) == {"m"}
    assert errors() == {
        "master": ["configuration key 'qi': 'Zipp' is not a column of the master table"]
    }
    assert errors(**{"qi-1-column": "Zip"}) == {
        "master": [
            "configuration key 'n_releases' (1) must be at least the largest lsb of the"
            " master table (2)"
        ]
    }
    assert not Round.objects.filter(slug="seq").exists()


def test_after_an_error_the_page_names_the_file_to_choose_again(world, client):
    """A browser does not keep a chosen file: the page says which one to choose again."""
    master = upload_file(fixture("zhang_master.csv"), "my_master.csv")
    page = _post(client, world, fields_post(m="1", master=master)).content.decode()
    assert 'data-testid="seq-choose-again"' in page and "Choose my_master.csv again" in page
    blank = client.get(reverse("sequential_console:create", args=[world.competition.slug]))
    assert 'data-testid="seq-choose-again"' not in blank.content.decode()


def test_a_qi_column_error_is_shown_on_its_row(world, client):
    response = _post(client, world, fields_post(**{"qi-1-column": "pid"}))
    rows = response.context["form"].qi_rows
    assert "configuration key 'qi'" in rows[1].errors["column"][0]
    assert not rows[0].errors


def test_the_errors_are_in_japanese_for_a_japanese_reader(world, client):
    response = _post(client, world, fields_post(m="1"), headers={"accept-language": "ja"})
    assert "2 以上の整数" in response.context["form"].errors["m"][0]


def test_an_attack_phase_on_a_shared_master_is_refused_in_japanese_for_a_japanese_reader(
    world, client
):
    """The message came from the English ``str`` of the scoring error on a Japanese form."""
    response = _post(
        client, world, fields_post(attack_phase="on"), headers={"accept-language": "ja"}
    )
    message = response.context["form"].errors["master"][0]
    assert "攻撃フェーズにはチームごとのマスター表が必要です" in message
    assert "attack phase needs" not in message
    assert not Round.objects.filter(slug="seq").exists()


def test_the_json_view_when_filled_is_the_configuration(world, client):
    data = fields_post(config=json.dumps(fixture_config("zhang_config.json")), m="")
    response = _post(client, world, data)
    assert response.status_code == 302, response.context["form"].errors
    config = SequentialRound.objects.get(round__slug="seq").config
    assert config["qi"] == {"Age": "num", "Zip": "num"} and config["mode"] == "online"


def test_an_error_of_the_json_view_stays_on_it(world, client):
    config = dict(fixture_config("zhang_config.json"), m=1)
    response = _post(client, world, fields_post(config=json.dumps(config)))
    assert response.context["form"].errors["config"] == [
        "configuration key 'm' must be an integer ≥ 2, got 1"
    ]
    assert 'data-testid="seq-advanced" open>' in response.content.decode()


@pytest.mark.parametrize(
    ("language", "required"), [("en", "This field is required."), ("ja", "この項目は必須です。")]
)
@pytest.mark.parametrize("field", ["m", "n_releases"])
def test_a_setting_left_empty_is_refused_on_its_field_in_the_reader_s_words(
    world, client, language, required, field
):
    """Posted as the page renders it: the service's message names the configuration's key
    ("configuration key 'm' … got null"); the organizer, who filled no JSON, sees the
    field's own message."""
    client.force_login(world.organizer)
    url = reverse("sequential_console:create", args=[world.competition.slug])
    headers = {"accept-language": language}
    page = client.get(url, headers=headers).content.decode()
    fill = {
        "name": "Seq left empty",
        "slug": "seq",
        field: "",
        "master": ("master.csv", fixture("zhang_master.csv")),
    }
    fields = form_fields_of(page, "seq-create")
    response = client.post(url, post_data(fields, fill), headers=headers)
    assert response.status_code == 200
    assert response.context["form"].errors == {field: [required]}
    assert "configuration key" not in response.content.decode()
    assert not Round.objects.filter(slug="seq").exists()
