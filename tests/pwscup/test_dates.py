"""Dates the platform accepts: 1900-01-01 to 9000-12-31, in UTC and in the round's time zone.

Every entry point that takes a date (the console's wizard and round edit, the admin's phases,
the DP round's console page and admin, the sequential round's console page and admin) refuses
one outside that window with a message naming the field, never a 500; and a date stored
outside it (before the check existed, or written in SQL) breaks no page and no scheduled job.
"""

import datetime as dt
import html
import json
import re
import zoneinfo

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from pwscup.competitions.dates import AFTER_WINDOW, BEFORE_WINDOW, dates_check
from pwscup.competitions.models import Phase
from pwscup.competitions.services import phase_set
from pwscup.dp.models import DPRound
from pwscup.dp.services import dp_rounds_score_closed
from pwscup.pwscup2015.services.maintenance import rounds_auto_freeze
from pwscup.sequential.models import SequentialRound
from pwscup.sequential.services import steps_auto_freeze
from tests.pwscup.dp_world import TOY_CONFIG, build_dp_world, toy_csv
from tests.pwscup.seq_web_world import fixture, seq_world, upload_file
from tests.support import adult_head, csv_upload

pytestmark = pytest.mark.django_db

# The two dates of the report: their UTC value falls outside years 1 … 9999.
OUT_OF_RANGE = [
    pytest.param("Asia/Tokyo", "0001-01-01T00:00", id="year-1-in-tokyo"),
    pytest.param("America/New_York", "9999-12-31T23:59", id="year-9999-in-new-york"),
]
REFUSED = "is outside the dates the platform accepts (1900-01-01 to 9000-12-31)"


def aware(text: str, zone: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).replace(tzinfo=zoneinfo.ZoneInfo(zone))


def page(response) -> str:
    return html.unescape(response.content.decode())


# --- the check ----------------------------------------------------------------------------


@pytest.mark.parametrize("zone, text", OUT_OF_RANGE)
def test_the_check_refuses_a_date_beyond_python_and_names_the_field(zone, text):
    with pytest.raises(ValidationError) as refused:
        dates_check({"closes_at": aware(text, zone)}, labels={"closes_at": "Closes"})
    (message,) = refused.value.message_dict["closes_at"]
    assert message.startswith(f"Closes: {text.replace('T', ' ')} {REFUSED}")


def test_the_window_holds_from_1900_to_9000_in_utc_and_in_the_round_zone():
    utc = zoneinfo.ZoneInfo("UTC")
    dates_check({"a": dt.datetime(1900, 1, 1, tzinfo=utc), "b": dt.datetime(9000, 12, 31, 23, 59)})
    for value, zone in (
        (dt.datetime(1899, 12, 31, 23, 59, tzinfo=utc), "UTC"),
        (dt.datetime(9001, 1, 1, tzinfo=utc), "UTC"),
        # 9000-12-31 20:00 in New York is 9001-01-01 01:00 UTC.
        (aware("9000-12-31T20:00", "America/New_York"), "America/New_York"),
        # In UTC 1900-01-01 00:30, but in the round's zone (Los Angeles) still 1899.
        (dt.datetime(1900, 1, 1, 0, 30, tzinfo=utc), "America/Los_Angeles"),
    ):
        with pytest.raises(ValidationError):
            dates_check({"at": value}, time_zone=zone)


@pytest.mark.parametrize("zone, text", OUT_OF_RANGE)
def test_the_phase_service_refuses_it(world, zone, text):
    with pytest.raises(ValidationError) as refused:
        phase_set(
            round=world.round,
            kind=Phase.Kind.ATTACK,
            opens_at=timezone.now(),
            closes_at=aware(text, zone),
        )
    assert "closes at" in refused.value.message_dict["closes_at"][0]


# --- every entry point --------------------------------------------------------------------


def _round_edit_data(client, world, **changes) -> dict:
    c, r = world.competition.slug, world.round.slug
    form = client.get(reverse("pwscup2015_console:round_edit", args=[c, r])).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    for key in ("opens_at", "closes_at"):
        for kind in ("anonymization", "attack"):
            data[f"{kind}_{key}"] = form.initial[f"{kind}_{key}"].strftime("%Y-%m-%dT%H:%M")
    data["allow_attack_before_close"] = "on"  # the test world's phases overlap
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    data.update(changes)
    return data


@pytest.mark.parametrize("field", ["anonymization_opens_at", "attack_closes_at"])
@pytest.mark.parametrize("zone, text", OUT_OF_RANGE)
def test_the_console_round_edit_refuses_it_next_to_the_field(client, world, zone, text, field):
    client.force_login(world.organizer)
    url = reverse("pwscup2015_console:round_edit", args=[world.competition.slug, world.round.slug])
    before = list(Phase.objects.order_by("pk").values_list("opens_at", "closes_at"))
    response = client.post(url, _round_edit_data(client, world, timezone=zone, **{field: text}))
    assert response.status_code == 200
    errors = response.context["form"].errors[field]
    label = response.context["form"].fields[field].label
    assert any(e.startswith(f"{label}: {text.replace('T', ' ')} {REFUSED}") for e in errors)
    assert list(Phase.objects.order_by("pk").values_list("opens_at", "closes_at")) == before


def test_the_first_and_last_accepted_dates_work_on_every_page(client, world):
    """Kiritimati is UTC+14 today (UTC-10:29 in 1900): the edges of the window, in a zone far
    from UTC, are kept and shown."""
    client.force_login(world.organizer)
    c, r = world.competition.slug, world.round.slug
    data = _round_edit_data(
        client,
        world,
        timezone="Pacific/Kiritimati",
        anonymization_opens_at="1900-01-01T00:00",
        attack_closes_at="9000-12-31T23:59",
    )
    response = client.post(reverse("pwscup2015_console:round_edit", args=[c, r]), data)
    assert response.status_code == 302, response.context["form"].errors
    world.attack.refresh_from_db()
    assert world.attack.closes_at.isoformat() == "9000-12-31T09:59:00+00:00"
    for url in (
        reverse("competition_detail", args=[c]),
        reverse("round_detail", args=[c, r]),
        reverse("console:round", args=[c, r]),
        reverse("pwscup2015_console:round_edit", args=[c, r]),
        reverse("api:round-detail", args=[c, r]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
    listed = page(client.get(reverse("competition_detail", args=[c])))
    words = re.sub(r"<[^>]+>", "", listed)  # a date and its time are two spans
    assert "9000-12-31 23:59" in words and "1900-01-01 00:00" in words


@pytest.mark.parametrize("zone, text", OUT_OF_RANGE)
def test_the_wizard_refuses_it_at_the_phases_step(client, world, zone, text):
    client.force_login(world.organizer)
    c = world.competition.slug
    upload = client.post(
        reverse("pwscup2015_console:wizard_upload", args=[c]),
        {"original": csv_upload(adult_head(60), "adult.csv")},
    )
    assert upload.status_code == 302
    roles = client.get(reverse("pwscup2015_console:wizard_roles", args=[c])).context["form"]
    defaults = {k: v for k, v in roles.initial.items() if v}
    assert (
        client.post(reverse("pwscup2015_console:wizard_roles", args=[c]), defaults).status_code
        == 302
    )
    data_step = client.post(
        reverse("pwscup2015_console:wizard_data", args=[c]), {"data_mode": "shared"}
    )
    assert data_step.status_code == 302
    response = client.post(
        reverse("pwscup2015_console:wizard_phases", args=[c]),
        {
            "name": "Round two",
            "slug": "r2",
            "timezone": zone,
            "anonymization_opens_at": text,
            "anonymization_closes_at": "2030-01-20T18:00",
            "attack_opens_at": "2030-01-21T09:00",
            "attack_closes_at": text,
        },
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert REFUSED in " ".join(errors["anonymization_opens_at"])
    assert REFUSED in " ".join(errors["attack_closes_at"])
    # The review step stays closed: nothing was kept.
    review = client.get(reverse("pwscup2015_console:wizard_review", args=[c]))
    assert review.status_code == 302


@pytest.fixture
def superuser_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root-c", password="pw"))
    return client


@pytest.mark.parametrize("zone, text", OUT_OF_RANGE)
def test_the_admin_phase_inline_refuses_it(superuser_client, world, zone, text):
    world.round.timezone = zone
    world.round.save(update_fields=["timezone"])
    url = reverse("admin:competitions_round_change", args=[world.round.pk])
    phases = list(world.round.phases.order_by("pk"))
    data = {
        "competition": world.competition.pk,
        "name": world.round.name,
        "slug": world.round.slug,
        "order": 1,
        "data_mode": "shared",
        "config": json.dumps(world.round.config),
        "timezone": zone,
        "tie_break_metric": "U1",
        "ranking_rule": world.round.pwscup2015.ranking_rule,
        "selection_rule": world.round.pwscup2015.selection_rule,
        "attack_visibility": world.round.pwscup2015.attack_visibility,
        "phases-TOTAL_FORMS": str(len(phases)),
        "phases-INITIAL_FORMS": str(len(phases)),
        "phases-MIN_NUM_FORMS": "0",
        "phases-MAX_NUM_FORMS": "1000",
    }
    day, time = text.split("T")
    for i, phase in enumerate(phases):
        closes = timezone.localtime(phase.closes_at)
        data.update(
            {
                f"phases-{i}-id": phase.pk,
                f"phases-{i}-round": world.round.pk,
                f"phases-{i}-kind": phase.kind,
                f"phases-{i}-opens_at_0": day,
                f"phases-{i}-opens_at_1": time,
                f"phases-{i}-closes_at_0": closes.strftime("%Y-%m-%d"),
                f"phases-{i}-closes_at_1": closes.strftime("%H:%M:%S"),
            }
        )
    response = superuser_client.post(url, data)
    assert response.status_code == 200
    assert REFUSED in page(response)
    assert [p.opens_at for p in world.round.phases.order_by("pk")] == [p.opens_at for p in phases]


@pytest.mark.parametrize("zone, text", OUT_OF_RANGE)
def test_the_dp_console_page_refuses_it(client, zone, text):
    world = build_dp_world(slug="dpdates")
    client.force_login(world.organizer)
    response = client.post(
        reverse("dp_console:create", args=[world.competition.slug]),
        {
            "name": "Second DP",
            "slug": "dp2",
            "table": SimpleUploadedFile("hidden.csv", toy_csv()),
            "config": json.dumps(TOY_CONFIG),
            "opens_at": "2030-01-01 00:00",
            "closes_at": text.replace("T", " "),
            "timezone": zone,
        },
    )
    assert response.status_code == 200
    assert REFUSED in " ".join(response.context["form"].errors["closes_at"])
    assert not DPRound.objects.filter(round__slug="dp2").exists()


@pytest.mark.parametrize("zone, text", OUT_OF_RANGE)
def test_the_dp_admin_refuses_it_on_creation_and_on_change(superuser_client, zone, text):
    world = build_dp_world(slug="dpadmindates")
    day, time = text.split("T")
    data = {
        "competition": world.competition.pk,
        "name": "Admin DP",
        "slug": "admin-dp",
        "config_json": json.dumps(TOY_CONFIG),
        "timezone": zone,
        "opens_at": f"{day} {time}",
        "closes_at": "2030-12-01 00:00",
        "table": SimpleUploadedFile("hidden.csv", toy_csv()),
    }
    response = superuser_client.post(reverse("admin:dp_dpround_add"), data)
    assert response.status_code == 200
    assert REFUSED in page(response)
    assert not DPRound.objects.filter(round__slug="admin-dp").exists()
    change = reverse("admin:dp_dpround_change", args=[world.dp_round.pk])
    response = superuser_client.post(
        change,
        {
            "opens_at_0": "2030-01-01",
            "opens_at_1": "00:00",
            "closes_at_0": day,
            "closes_at_1": time,
        },
    )
    assert response.status_code == 200
    assert REFUSED in page(response)
    # The window's order is checked there too, as a form error (it was a 500).
    response = superuser_client.post(
        change,
        {
            "opens_at_0": "2030-01-02", "opens_at_1": "00:00",
            "closes_at_0": "2030-01-01", "closes_at_1": "00:00",
        },
    )  # fmt: skip
    assert response.status_code == 200
    assert "must close after it opens" in page(response)
    world.dp_round.refresh_from_db()
    assert world.dp_round.closes_at > timezone.now()


def _sequential_form(world, **fields) -> dict:
    return {
        "name": "Scheduled",
        "slug": "s2",
        "config": json.dumps(world.sequential.config),
        "master": upload_file(fixture("zhang_master.csv"), "master.csv"),
        **fields,
    }


@pytest.mark.parametrize("zone, text", OUT_OF_RANGE)
def test_the_sequential_console_page_refuses_it(client, zone, text):
    world = seq_world(slug="seqdates")
    client.force_login(world.organizer)
    create = reverse("sequential_console:create", args=[world.competition.slug])
    typed = text.replace("T", " ")
    for fields, field in (
        ({"step_closes": f"2030-12-01 18:00\n{typed}\n"}, "step_closes"),
        ({"first_close": typed, "step_hours": "24"}, "first_close"),
        # Each close is within the window only if the step length allows it.
        ({"first_close": "2030-12-01 18:00", "step_hours": "100000000000"}, "step_hours"),
        ({"first_close": "8999-12-01 18:00", "step_hours": "87600"}, "step_hours"),
    ):
        response = client.post(create, _sequential_form(world, **fields))
        assert response.status_code == 200, fields
        assert REFUSED in " ".join(response.context["form"].errors[field]), fields
    assert not SequentialRound.objects.filter(round__slug="s2").exists()


@pytest.mark.parametrize("zone, text", OUT_OF_RANGE)
def test_the_sequential_admin_refuses_it(superuser_client, zone, text):
    world = seq_world(slug="seqadmindates")
    world.sequential.round.timezone = zone
    world.sequential.round.save(update_fields=["timezone"])
    change = reverse("admin:sequential_sequentialround_change", args=[world.sequential.pk])
    closes = ["2030-12-01T09:00:00+00:00", aware(text, zone).isoformat()]
    response = superuser_client.post(
        change,
        {
            "config": json.dumps(world.sequential.config),
            "step_closes": json.dumps(closes),
            "auto_freeze": "on",
        },
    )
    assert response.status_code == 200
    assert f"Close of release 2: {text.replace('T', ' ')} {REFUSED}" in page(response)
    world.sequential.refresh_from_db()
    assert world.sequential.step_closes == []


# --- a date stored outside the window -----------------------------------------------------

# What PostgreSQL kept of the two dates when they were accepted, and its infinities.
STORED = [
    pytest.param("0001-12-31 14:41:01+00 BC", BEFORE_WINDOW, id="year-1-bc"),
    pytest.param("10000-01-01 04:59:00+00", AFTER_WINDOW, id="year-10000"),
    pytest.param("9999-12-31 23:59:00+00", AFTER_WINDOW, id="utc-9999"),
    pytest.param("-infinity", BEFORE_WINDOW, id="minus-infinity"),
    pytest.param("infinity", AFTER_WINDOW, id="infinity"),
]


def _store(table: str, column: str, value: str, pk: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET {column} = %s WHERE id = %s", [value, pk])


def _pages_answer(client, urls, *, visitors, organizer) -> None:
    """No page answers 500 to anyone; the organizer opens every one."""
    for user in visitors:
        if user is None:
            client.logout()
        else:
            client.force_login(user)
        for url in urls:
            response = client.get(url)
            assert response.status_code < 500, (url, user, response.status_code)
    client.force_login(organizer)
    for url in urls:
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("stored, read_as", STORED)
def test_a_stored_phase_date_outside_the_window_breaks_no_page_and_no_freeze(
    client, world, stored, read_as
):
    _store("competitions_phase", "opens_at", stored, world.anonymization.pk)
    _store("competitions_phase", "closes_at", stored, world.anonymization.pk)
    assert Phase.objects.get(pk=world.anonymization.pk).closes_at == read_as
    client.raise_request_exception = False
    c, r = world.competition.slug, world.round.slug
    urls = [
        reverse("competition_detail", args=[c]),
        reverse("round_detail", args=[c, r]),
        reverse("console:round", args=[c, r]),
        reverse("pwscup2015_console:round_edit", args=[c, r]),
        reverse("api:round-detail", args=[c, r]),
    ]
    _pages_answer(client, urls, visitors=[None, world.users["a"]], organizer=world.organizer)
    client.force_login(world.organizer)
    listed = page(client.get(reverse("competition_detail", args=[c])))
    assert re.search(r"<td[^>]*>—</td>", listed)  # shown as "—", not as the stand-in date
    api = client.get(reverse("api:round-detail", args=[c, r]))
    assert api.status_code == 200
    rounds_auto_freeze()  # the scheduled freeze reads the phase without failing


@pytest.mark.parametrize("stored, read_as", STORED)
def test_a_stored_dp_window_outside_the_window_breaks_no_page(client, stored, read_as):
    world = build_dp_world(slug="dpstored")
    _store("dp_dpround", "closes_at", stored, world.dp_round.pk)
    assert DPRound.objects.get(pk=world.dp_round.pk).closes_at == read_as
    client.raise_request_exception = False
    c, r = world.competition.slug, world.round.slug
    urls = [
        reverse("competition_detail", args=[c]),
        reverse("round_detail", args=[c, r]),
        reverse("console:round", args=[c, r]),
        reverse("dp:leaderboard", args=[c, r]),
    ]
    _pages_answer(client, urls, visitors=[None, world.users["a"]], organizer=world.organizer)
    dp_rounds_score_closed()


@pytest.mark.parametrize("zone, text", OUT_OF_RANGE)
def test_a_stored_release_close_outside_the_window_breaks_no_page_and_no_freeze(client, zone, text):
    world = seq_world(slug="seqstored")
    world.sequential.step_closes = ["2030-12-01T09:00:00+00:00", aware(text, zone).isoformat()]
    world.sequential.save(update_fields=["step_closes"])
    client.raise_request_exception = False
    c, r = world.competition.slug, world.round.slug
    urls = [
        reverse("competition_detail", args=[c]),
        reverse("round_detail", args=[c, r]),
        reverse("console:round", args=[c, r]),
        reverse("sequential:leaderboard", args=[c, r]),
    ]
    _pages_answer(client, urls, visitors=[None, world.users["a"]], organizer=world.organizer)
    assert "2: —" in page(client.get(reverse("console:round", args=[c, r])))
    steps_auto_freeze()
