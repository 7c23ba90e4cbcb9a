"""Which errors are outages (503 in the reader's language) and which stay a 500: the site's
URLconf with one more page that raises what each case names (the real outages, a database
or a Redis server stopped, are tests/pwscup/test_database_outage.py)."""

import pytest
import redis
from django.db import ProgrammingError
from django.test import Client
from django.urls import path
from django_redis.exceptions import ConnectionInterrupted

from pwscup import urls as site_urls


def _interrupted(cause: Exception) -> ConnectionInterrupted:
    try:
        raise ConnectionInterrupted(connection=None) from cause
    except ConnectionInterrupted as error:
        return error


ERRORS = {
    "redis-down": lambda: redis.exceptions.ConnectionError("Connection refused"),
    "redis-slow": lambda: redis.exceptions.TimeoutError("Timeout reading from socket"),
    "cache-down": lambda: _interrupted(redis.exceptions.ConnectionError("Connection refused")),
    "cache-refused": lambda: _interrupted(redis.exceptions.ResponseError("WRONGTYPE")),
    "bad-sql": lambda: ProgrammingError("relation does not exist"),
}


def failing_page(request, case):
    raise ERRORS[case]()


urlpatterns = [path("failing/<str:case>/", failing_page), *site_urls.urlpatterns]
handler500 = site_urls.handler500

pytestmark = pytest.mark.urls(__name__)


@pytest.mark.parametrize("case", ["redis-down", "redis-slow", "cache-down"])
def test_redis_unreachable_answers_503_in_the_readers_language(case):
    client = Client(raise_request_exception=False)
    japanese = client.get(f"/failing/{case}/", HTTP_ACCEPT_LANGUAGE="ja")
    assert japanese.status_code == 503
    assert japanese["Retry-After"].isdigit() and japanese["Content-Language"] == "ja"
    assert "no-store" in japanese["Cache-Control"] and "Accept-Language" in japanese["Vary"]
    page = japanese.content.decode()
    assert 'lang="ja"' in page and "一時的にご利用いただけません" in page
    english = client.get(f"/failing/{case}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="error-503"' in english and "Temporarily unavailable" in english


@pytest.mark.parametrize("case", ["cache-refused", "bad-sql"])
def test_an_error_that_is_no_outage_stays_the_500_page(case):
    answer = Client(raise_request_exception=False).get(f"/failing/{case}/")
    assert answer.status_code == 500
    assert 'data-testid="error-500"' in answer.content.decode()
    assert "Retry-After" not in answer
