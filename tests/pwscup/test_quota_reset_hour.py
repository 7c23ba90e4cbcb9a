"""The hour a round's daily limits reset at (``Round.quota_reset_hour``): the quota day's
rule (``QuotaDay``) on exact times, across changes of clocks; the console's card, posted as
the page renders it; what the round's pages and the API say. Every kind's uploads under it:
``tests/kinds/test_uploads_conform.py``; its bundles: ``tests/kinds/test_lifecycle_conform.py``."""

import datetime as dt
import io
import zoneinfo

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone, translation

from pwscup.api.services import api_token_create
from pwscup.bundles.selectors import competition_bundle
from pwscup.bundles.services import competition_import
from pwscup.competitions.models import AuditEntry, Round
from pwscup.console.forms import QuotaResetForm
from pwscup.submissions.selectors import QuotaDay, quota_day_of
from tests.pwscup.bundle_helpers import START, creator, rebuilt
from tests.pwscup.rendered_forms import FormParser, form_fields_of, post_data

TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")
PARIS = zoneinfo.ZoneInfo("Europe/Paris")


def tokyo(*args) -> dt.datetime:
    return dt.datetime(*args, tzinfo=TOKYO)


@pytest.mark.parametrize(
    ("now", "start", "end"),
    [
        (tokyo(2025, 6, 3, 8, 59), tokyo(2025, 6, 2, 9), tokyo(2025, 6, 3, 9)),
        (tokyo(2025, 6, 3, 9, 0), tokyo(2025, 6, 3, 9), tokyo(2025, 6, 4, 9)),
        (tokyo(2025, 6, 3, 9, 1), tokyo(2025, 6, 3, 9), tokyo(2025, 6, 4, 9)),
        (tokyo(2025, 6, 3, 0, 30), tokyo(2025, 6, 2, 9), tokyo(2025, 6, 3, 9)),
        # The same instant written in UTC: 2025-06-03 00:01 UTC is 09:01 in Tokyo.
        (dt.datetime(2025, 6, 3, 0, 1, tzinfo=dt.UTC), tokyo(2025, 6, 3, 9), tokyo(2025, 6, 4, 9)),
    ],
)
def test_the_quota_day_runs_from_the_reset_hour_to_the_next(now, start, end):
    day = QuotaDay(time_zone="Asia/Tokyo", reset_hour=9)
    assert (day.start(now), day.resets_at(now)) == (start, end)


def test_the_default_day_runs_from_midnight_to_midnight():
    day = QuotaDay(time_zone="Asia/Tokyo")
    now = tokyo(2025, 6, 3, 8, 59)
    assert (day.start(now), day.resets_at(now)) == (tokyo(2025, 6, 3), tokyo(2025, 6, 4))


def length(day: QuotaDay, now: dt.datetime) -> dt.timedelta:
    """How long ``now``'s quota day lasts (in UTC: two times of one zone subtract by their
    wall clocks)."""
    return day.resets_at(now).astimezone(dt.UTC) - day.start(now).astimezone(dt.UTC)


def test_a_day_across_a_change_of_clocks_keeps_its_wall_clock_hour():
    """Paris: 2025-03-30 02:00 → 03:00 (a 23-hour day), 2025-10-26 03:00 → 02:00 (25)."""
    day = QuotaDay(time_zone="Europe/Paris", reset_hour=9)
    spring = dt.datetime(2025, 3, 30, 12, tzinfo=PARIS)
    assert day.start(spring) == dt.datetime(2025, 3, 30, 9, tzinfo=PARIS)
    before = dt.datetime(2025, 3, 30, 8, 59, tzinfo=PARIS)
    assert length(day, before) == dt.timedelta(hours=23)
    autumn = dt.datetime(2025, 10, 26, 8, 59, tzinfo=PARIS)
    assert length(day, autumn) == dt.timedelta(hours=25)
    assert day.resets_at(autumn).hour == day.start(autumn).hour == 9


def test_a_reset_hour_the_clocks_skip_starts_the_day_at_the_change():
    """Paris skips 02:00–03:00 on 2025-03-30: a 02:00 reset that day is at 03:00 CEST."""
    day = QuotaDay(time_zone="Europe/Paris", reset_hour=2)
    change = dt.datetime(2025, 3, 30, 1, 0, tzinfo=dt.UTC)  # 03:00 CEST
    just_before = change - dt.timedelta(minutes=1)  # 01:59 CET
    assert day.resets_at(just_before) == change
    assert day.start(change) == change
    assert day.start(just_before) == dt.datetime(2025, 3, 29, 2, tzinfo=PARIS)


def test_a_window_of_no_round_resets_at_midnight_of_its_zone():
    assert quota_day_of(None, time_zone="Asia/Tokyo") == QuotaDay("Asia/Tokyo", 0)


# --- the console, the pages, the API ---------------------------------------------------------


def _console(client, world):
    client.force_login(world.organizer)
    return reverse("console:round", args=[world.competition.slug, world.round.slug])


@pytest.mark.django_db
def test_the_console_sets_the_reset_hour_as_the_page_renders_it(client, world):
    url = _console(client, world)
    page = client.get(url).content.decode()
    fields = form_fields_of(page, "round-quota-form")
    select = next(field for field in fields if field["name"] == "quota_reset_hour")
    selected = [option["value"] for option in select["options"] if option["selected"]]
    assert selected == ["0"]  # the default, midnight, preselected
    action = reverse("console:round_quota", args=[world.competition.slug, world.round.slug])
    response = client.post(action, post_data(fields, {"quota_reset_hour": "9"}), follow=True)
    assert response.redirect_chain[-1][0] == url
    assert Round.objects.get(pk=world.round.pk).quota_reset_hour == 9
    text = response.content.decode()
    assert "The round&#x27;s daily limits now reset at 09:00" in text
    assert "every daily limit of this round resets at 09:00" in text
    entry = AuditEntry.objects.filter(round=world.round).latest("created_at")
    assert entry.action == AuditEntry.Action.ROUND_EDITED
    assert entry.detail == {"fields": ["quota_reset_hour"]}


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["24", "-1", "nine", ""])
def test_the_console_refuses_an_hour_outside_the_day(client, world, value):
    _console(client, world)
    action = reverse("console:round_quota", args=[world.competition.slug, world.round.slug])
    response = client.post(action, {"quota_reset_hour": value}, follow=True)
    assert response.status_code == 200
    assert Round.objects.get(pk=world.round.pk).quota_reset_hour == 0
    assert "Select a valid choice" in response.content.decode() or value == ""


@pytest.mark.django_db
def test_only_an_organizer_sets_the_reset_hour(client, world):
    client.force_login(world.users["a"])
    action = reverse("console:round_quota", args=[world.competition.slug, world.round.slug])
    assert client.post(action, {"quota_reset_hour": "9"}).status_code in (403, 404)
    assert Round.objects.get(pk=world.round.pk).quota_reset_hour == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "Daily limits reset at 09:00."), ("ja", "1 日の上限は 09:00 にリセットされます。")],
)
def test_every_round_page_says_when_the_daily_limits_reset(client, world, language, expected):
    Round.objects.filter(pk=world.round.pk).update(timezone="Asia/Tokyo", quota_reset_hour=9)
    client.force_login(world.users["a"])
    args = [world.competition.slug, world.round.slug]
    urls = [reverse("round_detail", args=args)] + [
        reverse("round_tab", args=[*args, tab]) for tab in ("data", "rules", "submit", "results")
    ]
    for url in urls:
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert expected in page, url


@pytest.mark.django_db
def test_the_api_round_status_gives_the_reset(client, world, monkeypatch):
    Round.objects.filter(pk=world.round.pk).update(timezone="Asia/Tokyo", quota_reset_hour=9)
    frozen = tokyo(2030, 6, 3, 8, 59)
    monkeypatch.setattr(timezone, "now", lambda: frozen)
    token = api_token_create(user=world.users["a"], name="script").secret
    url = reverse("api:round-status", args=[world.competition.slug, world.round.slug])
    body = client.get(url, HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert (body["timezone"], body["quota_reset_time"]) == ("Asia/Tokyo", "09:00")
    assert dt.datetime.fromisoformat(body["quota_resets_at"]) == tokyo(2030, 6, 3, 9)


def test_the_form_lists_every_hour_of_the_day():
    with translation.override("en"):
        choices = QuotaResetForm().fields["quota_reset_hour"].choices
    assert [label for _value, label in choices] == [f"{h:02d}:00" for h in range(24)]


@pytest.mark.django_db
@pytest.mark.parametrize("value", [24, -1, "9", True])
def test_a_bundle_with_an_hour_outside_the_day_is_refused(world, value):
    data = rebuilt(
        competition_bundle(competition=world.competition).data,
        change=lambda manifest: manifest["rounds"][0].update(quota_reset_hour=value),
    )
    with pytest.raises(ValidationError) as caught:
        competition_import(
            bundle_file=io.BytesIO(data),
            name="",
            slug="copy",
            start=START,
            user=creator(world.organizer),
        )
    assert any(
        message.startswith("manifest.json: rounds[0].quota_reset_hour:")
        for message in caught.value.messages
    ), caught.value.messages
    assert Round.objects.count() == 1


@pytest.mark.django_db
def test_a_superuser_sets_the_reset_hour_on_a_2015_round_s_admin_page(client, world):
    # docs/organizers.md: every kind's admin round page edits the name, address, order, time
    # zone and reset hour, recorded in the audit log like a console edit (round_core_update).
    client.force_login(
        get_user_model().objects.create_superuser("root-reset", "root-reset@example.org", "pw")
    )
    url = reverse("admin:competitions_round_change", args=[world.round.pk])
    parser = FormParser()
    parser.feed(client.get(url).content.decode())
    (fields,) = [form["fields"] for form in parser.forms if form["attrs"].get("id") == "round_form"]
    assert "quota_reset_hour" in [field["name"] for field in fields]
    changes = {"quota_reset_hour": "9", "name": "Round renamed"}
    response = client.post(url, post_data(fields, changes))
    assert response.status_code == 302
    stored = Round.objects.get(pk=world.round.pk)
    assert (stored.quota_reset_hour, stored.name) == (9, "Round renamed")
    entry = AuditEntry.objects.filter(round=world.round).latest("created_at")
    assert entry.action == AuditEntry.Action.ROUND_EDITED
    assert sorted(entry.detail["fields"]) == ["name", "quota_reset_hour"]
