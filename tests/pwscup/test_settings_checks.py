"""Settings read from the environment are checked when they load: a malformed one stops every
start (``manage.py check``, the web, the workers) with a message naming the variable and the
form it expects, never a 500 on the first request that reads it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pwscup.settings.rates import rate_parse

ROOT = Path(__file__).resolve().parents[2]
RATE_VARIABLES = [
    "PWSCUP_SIGNUP_RATE",
    "PWSCUP_PASSWORD_RESET_RATE",
    "PWSCUP_API_ANON_RATE",
    "PWSCUP_API_USER_RATE",
    "PWSCUP_API_TOKEN_RATE",
]


def _check(**environment) -> subprocess.CompletedProcess:
    """``manage.py check`` in a fresh interpreter, the test settings read with ``environment``."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        env={**env, **environment, "DJANGO_SETTINGS_MODULE": "pwscup.settings.test"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("50/h", (50, 3600)),
        ("20/hour", (20, 3600)),
        ("120/min", (120, 60)),
        ("3/m", (3, 60)),
        ("1/s", (1, 1)),
        ("7/sec", (7, 1)),
        ("1000/d", (1000, 86400)),
        ("2/day", (2, 86400)),
        (" 5/h ", (5, 3600)),
    ],
)
def test_a_rate_reads_as_requests_per_seconds(text, expected):
    assert rate_parse(text) == expected


@pytest.mark.parametrize(
    "text", ["lots", "often", "", "50", "50/", "/h", "50/x", "-1/h", "1.5/h", "50/hours", None]
)
def test_anything_else_is_not_a_rate(text):
    with pytest.raises(ValueError, match="is not a rate: write N/s, N/m, N/h or N/d"):
        rate_parse(text)


@pytest.mark.parametrize("variable", RATE_VARIABLES)
def test_a_malformed_rate_stops_the_start_naming_the_variable_and_the_form(variable):
    result = _check(**{variable: "lots"})
    assert result.returncode != 0
    assert (
        f"ImproperlyConfigured: {variable}='lots' is not a rate: write N/s, N/m, N/h or N/d"
        in result.stderr
    )


def test_well_formed_rates_pass_the_check():
    result = _check(**dict.fromkeys(RATE_VARIABLES, "30/min"))
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_a_malformed_trusted_proxy_stops_the_start_naming_the_variable():
    result = _check(PWSCUP_TRUSTED_PROXIES="127.0.0.0/8,proxy.local")
    assert result.returncode != 0
    assert (
        "ImproperlyConfigured: PWSCUP_TRUSTED_PROXIES: 'proxy.local' is not an IP address or "
        "network: write addresses or CIDR networks separated by commas" in result.stderr
    )
