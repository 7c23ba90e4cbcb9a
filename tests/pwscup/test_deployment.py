"""Production settings and docker-compose.yml: secure by default, no secret shipped."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _manage(tmp_path, *args, **env_overrides) -> subprocess.CompletedProcess:
    """``manage.py`` in a fresh interpreter with the production settings."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(
            ("DJANGO_", "PWSCUP_", "DATABASE_URL", "REDIS_URL", "CACHE_URL", "CELERY_BROKER_URL")
        )
    }
    env.update(
        DJANGO_SETTINGS_MODULE="pwscup.settings.production",
        PWSCUP_VAR_DIR=str(tmp_path),
        **env_overrides,
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_check_deploy_without_a_warning(tmp_path):
    result = _manage(
        tmp_path,
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (None, "Set the DJANGO_SECRET_KEY environment variable"),
        ("", "DJANGO_SECRET_KEY is empty or a placeholder"),
        ("change-me-in-production", "DJANGO_SECRET_KEY is empty or a placeholder"),
        ("insecure-local-development-key-change-me", "DJANGO_SECRET_KEY is empty or a placeholder"),
    ],
    ids=["unset", "empty", "old-compose-default", "development-default"],
)
def test_production_refuses_to_start_without_a_real_secret_key(tmp_path, key, message):
    overrides = {} if key is None else {"DJANGO_SECRET_KEY": key}
    result = _manage(tmp_path, "check", **overrides)
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {message}" in result.stderr


def test_compose_ships_no_secret_key_and_refuses_to_start_without_one():
    environment = COMPOSE["x-app"]["environment"]
    # ${VAR:?message}: compose stops with the message when the variable is unset or empty.
    assert environment["DJANGO_SECRET_KEY"] == (
        "${DJANGO_SECRET_KEY:?set DJANGO_SECRET_KEY to a long random secret}"
    )
    assert environment["DJANGO_SETTINGS_MODULE"] == "pwscup.settings.production"


def test_compose_serves_the_site_through_the_buffering_proxy_only():
    services = COMPOSE["services"]
    assert "ports" not in services["web"]  # gunicorn is never exposed to clients directly
    assert "scripts/docker/gunicorn.conf.py" in services["web"]["command"]
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert "./scripts/docker/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
    assert proxy["ports"] == ["${PWSCUP_HTTP_PORT:-8000}:80"]
    site = (ROOT / "scripts" / "docker" / "nginx.conf").read_text()
    for directive in (
        "server web:8000;",
        "client_max_body_size 64m;",
        "client_body_timeout 20s;",
        "proxy_request_buffering on;",
        "proxy_set_header X-Real-IP $remote_addr;",
    ):
        assert directive in site


def test_compose_keeps_the_brokers_data_in_an_append_only_file_and_never_evicts():
    broker = COMPOSE["services"]["broker"]
    assert "--appendonly yes" in broker["command"]
    assert "--dir /data" in broker["command"]
    assert "--maxmemory-policy noeviction" in broker["command"]
    assert "redisdata:/data" in broker["volumes"]
    assert "redisdata" in COMPOSE["volumes"]


def test_compose_bounds_the_cache_and_points_each_role_at_its_own_redis():
    cache = COMPOSE["services"]["cache"]
    assert "--maxmemory " in cache["command"]
    assert "--maxmemory-policy allkeys-lru" in cache["command"]
    assert "volumes" not in cache  # nothing of it is worth keeping
    environment = COMPOSE["x-app"]["environment"]
    assert environment["CELERY_BROKER_URL"].startswith("redis://broker:")
    assert environment["CACHE_URL"].startswith("redis://cache:")
    assert "REDIS_URL" not in environment
