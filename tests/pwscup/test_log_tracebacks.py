"""The log under the settings' own LOGGING: an expected 403 is one warning line without a
traceback; a 500 keeps its traceback."""

import logging

import pytest
from django.test import Client
from django.urls import path, reverse

from pwscup.accounts.services import user_create

pytestmark = pytest.mark.django_db


def _broken(request):
    raise RuntimeError("a fault of the code")


urlpatterns = [path("broken/", _broken)]


def _request_records(caplog):
    return [record for record in caplog.records if record.name == "django.request"]


@pytest.mark.parametrize("name", ["console:home", "console:competition_new"])
def test_a_team_opening_the_console_is_one_warning_line(client, caplog, name):
    user_create(username="member", password="pw-long-enough")
    client.login(username="member", password="pw-long-enough")
    with caplog.at_level(logging.INFO):
        assert client.get(reverse(name)).status_code == 403
    records = _request_records(caplog)
    assert [(record.levelname, record.status_code) for record in records] == [("WARNING", 403)]
    assert records[0].getMessage() == f"Forbidden (Permission denied): {reverse(name)}"
    assert records[0].exc_info is None
    assert "Traceback" not in caplog.text
    assert "PermissionDenied" not in caplog.text


@pytest.mark.urls(__name__)
def test_a_500_keeps_its_traceback(caplog):
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.INFO):
        assert client.get("/broken/").status_code == 500
    records = _request_records(caplog)
    assert [(record.levelname, record.status_code) for record in records] == [("ERROR", 500)]
    assert records[0].exc_info is not None
    assert "Traceback" in caplog.text
    assert "RuntimeError: a fault of the code" in caplog.text
