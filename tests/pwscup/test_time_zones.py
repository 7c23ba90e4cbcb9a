"""One time-zone owner: ``PWSCUP_DEFAULT_TIME_ZONE`` (default ``TIME_ZONE``, itself
``DJANGO_TIME_ZONE``) is every new round's and window's zone and every creation form's first
choice, and one check (``time_zone_check``, one message) refuses an unknown name at every
entry point."""

import datetime as dt
import json
import os
import subprocess
import sys
import zoneinfo
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.test import override_settings
from django.utils import timezone, translation

from pwscup.bundles.forms import CloneForm, ImportForm, NewCompetitionForm
from pwscup.competitions.models import Round
from pwscup.competitions.services import competition_create
from pwscup.core.time_zones import (
    TimeZoneField,
    TimeZoneSelect,
    default_time_zone,
    default_time_zone_known,
    time_zone_check,
    time_zone_choices,
    time_zone_error,
    time_zone_valid,
    zone_or_default,
)
from pwscup.dp.admin import DPRoundCreateForm
from pwscup.dp.console import DPRoundForm
from pwscup.dp.services import dp_round_create
from pwscup.kinds.round_basics import RoundBasics
from pwscup.presentations.forms import WindowForm
from pwscup.presentations.models import PresentationWindow
from pwscup.presentations.services import presentation_window_create
from pwscup.pwscup2015.admin.rounds import RoundAdminForm
from pwscup.pwscup2015.console.phase_forms import PhasesForm
from pwscup.pwscup2015.services.rounds import round_create, round_settings_check
from pwscup.sequential.round_form import SequentialRoundForm
from pwscup.sequential.services import sequential_round_create
from tests.pwscup.dp_world import TOY_CONFIG, toy_csv
from tests.pwscup.seq_web_world import fixture, fixture_config, upload_file
from tests.support import adult_config, adult_head

ROOT = Path(__file__).resolve().parents[2]
ELSEWHERE = "America/Argentina/Buenos_Aires"  # neither the test settings' zone nor UTC
LITERAL = "Asia/" + "Tokyo"  # spelled in two parts, so that this file does not name it


def test_no_time_zone_is_written_outside_the_settings():
    """The zone the site runs in is the settings' (one ``env`` default), not the code's."""
    found = []
    for folder in ("pwscup", "scoring", "templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            relative = path.relative_to(ROOT)
            if (
                not path.is_file()
                or path.suffix not in {".py", ".html", ".txt", ".js", ".md", ".json"}
                or "migrations" in relative.parts
                or relative.parts[:2] == ("pwscup", "settings")
            ):
                continue
            if LITERAL in path.read_text(encoding="utf-8", errors="replace"):
                found.append(str(relative))
    assert found == []
    assert LITERAL in (ROOT / "pwscup/settings/i18n.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({}, LITERAL),
        ({"DJANGO_TIME_ZONE": "Europe/Paris"}, "Europe/Paris"),
        ({"DJANGO_TIME_ZONE": "Europe/Paris", "PWSCUP_DEFAULT_TIME_ZONE": "UTC"}, "UTC"),
    ],
    ids=["laptop-default", "server-zone", "own-setting"],
)
def test_the_default_comes_from_the_environment(environment, expected):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DJANGO_TIME_ZONE", "PWSCUP_DEFAULT_TIME_ZONE", "DJANGO_SETTINGS_MODULE"}
    }
    # The settings, read in a process of their own (no django.setup(): the app registry is
    # not what is read, and its start is 1.3 s of CPU a case).
    code = "from pwscup.core.time_zones import default_time_zone; print(default_time_zone())"
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, **environment, "DJANGO_SETTINGS_MODULE": "pwscup.settings.test"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert result.stdout.strip() == expected


def test_the_system_check_refuses_a_default_no_round_could_use():
    assert default_time_zone_known() == []
    with override_settings(PWSCUP_DEFAULT_TIME_ZONE="Mars/Base"):
        errors = default_time_zone_known()
    assert [error.id for error in errors] == ["pwscup.E001"]
    assert "'Mars/Base'" in errors[0].msg


@pytest.mark.parametrize("name", ["UTC", "Europe/Paris", LITERAL, ELSEWHERE])
def test_the_check_accepts_iana_names(name):
    assert time_zone_check(name) == name
    assert zone_or_default(name).key == name


@pytest.mark.parametrize("name", ["Mars/Base", "", None, 9, "Tokyo", "../../etc/passwd", "/UTC"])
def test_the_check_refuses_anything_else_with_one_message(name):
    with pytest.raises(ValidationError) as refused:
        time_zone_check(name, field="tz")
    assert refused.value.message_dict == {"tz": [time_zone_error(name)]}
    assert zone_or_default(name).key == default_time_zone()


@override_settings(PWSCUP_DEFAULT_TIME_ZONE=ELSEWHERE)
def test_the_message_names_the_value_and_the_site_default_in_both_languages():
    with translation.override("en"):
        assert time_zone_error("Mars/Base") == (
            f"Unknown time zone 'Mars/Base': use an IANA name such as {ELSEWHERE} (this "
            "site's default) or UTC."
        )
    with translation.override("ja"):
        assert time_zone_error("Mars/Base") == (
            f"タイムゾーン 'Mars/Base' は不明です。{ELSEWHERE}（このサイトの既定）や UTC "
            "などの IANA 名を使ってください。"
        )


# --- every creation form starts from the setting -------------------------------------------


def _forms(competition):
    return {
        "bundle new": (NewCompetitionForm(), "timezone"),
        "bundle clone": (CloneForm(competition=competition), "timezone"),
        "bundle import": (ImportForm(), "timezone"),
        "presentation window": (WindowForm(competition=competition), "time_zone"),
        "2015 wizard phases": (PhasesForm(), "timezone"),
        "2015 admin": (RoundAdminForm(), "timezone"),
        "dp console": (DPRoundForm(), "timezone"),
        "dp admin": (DPRoundCreateForm(), "timezone"),
        "sequential console": (SequentialRoundForm(), "timezone"),
    }


@pytest.mark.django_db
def test_every_creation_form_starts_from_the_setting():
    competition = competition_create(name="Zones", slug="zones")
    for zone in (ELSEWHERE, "UTC"):
        with override_settings(PWSCUP_DEFAULT_TIME_ZONE=zone):
            initial = {
                name: form[field].initial for name, (form, field) in _forms(competition).items()
            }
            assert initial == dict.fromkeys(initial, zone)
            rendered = str(DPRoundForm()["timezone"])
            assert f'<option value="{zone}" selected>' in rendered


@pytest.mark.django_db
def test_every_creation_form_refuses_an_unknown_zone_with_the_one_message():
    competition = competition_create(name="Zones", slug="zones")
    for name, (form, field) in _forms(competition).items():
        assert isinstance(form.fields[field], TimeZoneField), name
        bound = type(form)(
            data={field: "Mars/Base"},
            **({"competition": competition} if isinstance(form, WindowForm | CloneForm) else {}),
        )
        assert not bound.is_valid()
        assert bound.errors[field] == [time_zone_error("Mars/Base")], name


# --- every new round and window takes the setting's zone ------------------------------------


@pytest.mark.django_db
@override_settings(PWSCUP_DEFAULT_TIME_ZONE=ELSEWHERE)
def test_a_new_round_of_every_kind_takes_the_setting(django_user_model):
    assert Round().timezone == ELSEWHERE
    assert PresentationWindow().time_zone == ELSEWHERE
    organizer = django_user_model.objects.create_user(username="zones-organizer")
    competition = competition_create(name="Zones", slug="zones", organizers=[organizer])
    now = timezone.now()
    first = round_create(
        basics=RoundBasics(competition=competition, name="2015", slug="r2015"),
        original=adult_head(),
        original_filename="adult.csv",
        config_raw=adult_config(),
    )
    dp = dp_round_create(
        basics=RoundBasics(competition=competition, name="DP", slug="dp"),
        table=toy_csv(),
        table_filename="hidden.csv",
        config_raw=TOY_CONFIG,
        opens_at=now,
        closes_at=now + dt.timedelta(days=1),
    )
    sequential = sequential_round_create(
        basics=RoundBasics(competition=competition, name="Sequential", slug="seq"),
        config=fixture_config("zhang_config.json"),
        master_file=upload_file(fixture("zhang_master.csv"), "master.csv"),
    )
    window = presentation_window_create(
        competition=competition,
        user=organizer,
        opens_at=now,
        closes_at=now + dt.timedelta(days=1),
        max_bytes=settings.PWSCUP_SLIDES_MAX_BYTES,
    )
    stored = Round.objects.filter(competition=competition).values_list("slug", "kind", "timezone")
    assert sorted(stored) == [
        ("dp", "dp", ELSEWHERE),
        ("r2015", "pwscup2015", ELSEWHERE),
        ("seq", "sequential", ELSEWHERE),
    ]
    assert {first.pk, dp.round.pk, sequential.round.pk} == set(
        Round.objects.filter(competition=competition).values_list("pk", flat=True)
    )
    window.refresh_from_db()
    assert window.time_zone == ELSEWHERE


# --- every service refuses an unknown zone with the one message -----------------------------


@pytest.mark.django_db
def test_every_service_refuses_an_unknown_zone_with_the_one_message(django_user_model):
    organizer = django_user_model.objects.create_user(username="zones-organizer")
    competition = competition_create(name="Zones", slug="zones", organizers=[organizer])
    now = timezone.now()
    expected = [time_zone_error("Mars/Base")]
    attempts = {
        "2015 settings": lambda: round_settings_check(
            timezone="Mars/Base", utility_gates={}, tie_break_metric="U1"
        ),
        "2015 create": lambda: round_create(
            basics=RoundBasics(
                competition=competition, name="2015", slug="r2015", timezone="Mars/Base"
            ),
            original=adult_head(),
            original_filename="adult.csv",
            config_raw=adult_config(),
        ),
        "dp": lambda: dp_round_create(
            basics=RoundBasics(competition=competition, name="DP", slug="dp", timezone="Mars/Base"),
            table=toy_csv(),
            table_filename="hidden.csv",
            config_raw=json.dumps(TOY_CONFIG),
            opens_at=now,
            closes_at=now + dt.timedelta(days=1),
        ),
        "sequential": lambda: sequential_round_create(
            basics=RoundBasics(
                competition=competition, name="Sequential", slug="seq", timezone="Mars/Base"
            ),
            config=fixture_config("zhang_config.json"),
        ),
    }
    for name, attempt in attempts.items():
        with pytest.raises(ValidationError) as refused:
            attempt()
        assert refused.value.message_dict["timezone"] == expected, name
    with pytest.raises(ValidationError) as refused:
        presentation_window_create(
            competition=competition,
            user=organizer,
            opens_at=now,
            closes_at=now + dt.timedelta(days=1),
            max_bytes=settings.PWSCUP_SLIDES_MAX_BYTES,
            time_zone="Mars/Base",
        )
    assert refused.value.message_dict["time_zone"] == expected
    assert not Round.objects.filter(competition=competition).exists()


class _Markup(HTMLParser):
    """A page's elements in order, each with its attributes (whitespace between them left
    out): what a browser builds from the markup."""

    def __init__(self, html):
        super().__init__()
        self.elements = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, sorted(attrs)))

    def handle_data(self, data):
        if data.strip():
            self.elements.append(("text", data.strip()))


@pytest.mark.parametrize(
    "data", [None, {"zone": "UTC"}, {"zone": ELSEWHERE}, {"zone": "Nowhere/<b>"}, {"zone": ""}]
)
def test_the_time_zone_select_draws_the_markup_of_django_s_select(data):
    """The one-loop template (``TimeZoneSelect``) draws what Django's ``Select`` draws: the
    select's attributes, every zone in order, the current one selected, markup escaped."""

    class Zones(forms.Form):
        zone = TimeZoneField(required=False, widget=TimeZoneSelect(attrs={"class": "wide"}))
        django = TimeZoneField(required=False, widget=forms.Select(attrs={"class": "wide"}))

    form = Zones({"django": data["zone"], **data} if data else None)
    ours = _Markup(str(form["zone"])).elements
    theirs = _Markup(str(form["django"]).replace('"django"', '"zone"').replace("_django", "_zone"))
    assert ours == theirs.elements
    assert ours[0][0] == "select"
    assert {("class", "wide"), ("id", "id_zone"), ("name", "zone")} <= set(ours[0][1])
    options = [attrs for tag, attrs in ours if tag == "option"]
    assert len(options) == len(time_zone_choices()) > 300
    selected = [dict(attrs)["value"] for attrs in options if ("selected", None) in attrs]
    expected = data["zone"] if data else default_time_zone()
    assert selected == ([expected] if expected in dict(time_zone_choices()) else [])


def test_the_zones_are_read_once_and_are_every_zone_this_host_knows():
    assert time_zone_choices() is time_zone_choices()
    offered = [zone for zone, _label in time_zone_choices()]
    assert offered == sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})
    assert all(time_zone_valid(zone) for zone in offered)


@pytest.mark.parametrize("name", ["localtime", "Factory", "posixrules"])
def test_files_of_the_zone_database_that_are_no_place_are_neither_offered_nor_taken(name):
    # On Debian zoneinfo loads them and available_timezones() lists the first two: the host's
    # own setting (a link to /etc/localtime) and tzdata's "zone unknown" placeholder.
    assert name not in dict(time_zone_choices())
    assert not time_zone_valid(name)
    with pytest.raises(ValidationError):
        time_zone_check(name)


@pytest.mark.parametrize("name", ["Mars/Base", "localtime"])
def test_an_unknown_server_zone_stops_the_start_naming_the_variable(name):
    # Django's own refusal comes at set-up, before any system check, as "Incorrect timezone
    # setting": the settings refuse it first, by the rule of every zone.
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        env={**env, "DJANGO_TIME_ZONE": name, "DJANGO_SETTINGS_MODULE": "pwscup.settings.test"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert (
        f"ImproperlyConfigured: DJANGO_TIME_ZONE={name!r} is not a time zone this host knows"
        in result.stderr
    )
    assert "Incorrect timezone setting" not in result.stderr
