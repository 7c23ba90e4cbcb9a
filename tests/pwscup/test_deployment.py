"""Production settings and docker-compose.yml: secure by default, no secret shipped."""

import json
import os
import re
import runpy
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
    # A realistic environment: compose's, with HTTPS left on (the production default).
    result = _manage(
        tmp_path,
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="pwscup.example.org",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://pwscup.example.org",
        DATABASE_URL="postgres://pwscup:pwscup@127.0.0.1:5432/pwscup",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        CACHE_URL="redis://127.0.0.1:6380/0",
        PWSCUP_CLIENT_IP_HEADER="HTTP_X_REAL_IP",
        PWSCUP_TRUSTED_PROXIES="127.0.0.0/8,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16",
        **COMPOSE_S3,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stderr == ""
    assert result.stdout == "System check identified no issues (0 silenced).\n"


@pytest.mark.parametrize(
    "key",
    [
        "abc",
        secrets.token_urlsafe(50)[:49],
        "ab" * 40,  # long, but two different characters
    ],
    ids=["short", "49-characters", "4-unique-characters"],
)
def test_production_refuses_to_start_with_a_weak_secret_key(tmp_path, key):
    result = _manage(tmp_path, "check", DJANGO_SECRET_KEY=key)
    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY is too weak" in result.stderr
    assert "at least 50 characters" in result.stderr
    assert key not in result.stderr  # the message never shows the key


def test_production_names_the_development_prefix_as_the_reason_it_refuses_a_key(tmp_path):
    key = "django-insecure-" + secrets.token_urlsafe(50)  # long and varied: weak by its mark
    result = _manage(tmp_path, "check", DJANGO_SECRET_KEY=key)
    assert result.returncode != 0
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY starts with 'django-insecure-'" in (
        result.stderr
    )
    assert "too weak" not in result.stderr
    assert key not in result.stderr


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
    # Only the proxy publishes a port: gunicorn (and every server) is reached on the compose
    # network only.
    assert [name for name, service in services.items() if "ports" in service] == ["proxy"]
    assert services["web"]["expose"] == ["8000"]
    assert services["web"]["environment"]["GUNICORN_BIND"] == "0.0.0.0:8000"
    assert "scripts/docker/gunicorn.conf.py" in services["web"]["command"]
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:")
    assert "./scripts/docker/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
    assert proxy["ports"] == ["${PWSCUP_HTTP_PORT:-8000}:80"]
    site = (ROOT / "scripts" / "docker" / "nginx.conf").read_text()
    for directive in (
        "server web:8000 max_fails=0 max_conns=32;",
        "server web:8000 max_fails=0 max_conns=16;",
        "server web:8000 max_fails=0 max_conns=8;",  # log-ins: places of their own
        "client_max_body_size 64m;",
        "client_body_timeout 20s;",
        "proxy_request_buffering on;",
        "proxy_set_header X-Real-IP $remote_addr;",
        "proxy_set_header Host $http_host;",  # the port too: links and CSRF origin checks
        "server_tokens off;",
        "limit_conn pwscup_per_address 512;",
        "limit_conn_status 429;",
        "limit_req zone=pwscup_logins_per_address burst=40;",
    ):
        assert directive in site
    assert "proxy_set_header Host $host;" not in site


def test_the_client_address_is_believed_from_the_compose_network_only():
    environment = COMPOSE["x-app"]["environment"]
    assert environment["PWSCUP_CLIENT_IP_HEADER"] == "HTTP_X_REAL_IP"
    assert environment["PWSCUP_TRUSTED_PROXIES"] == (
        "${PWSCUP_TRUSTED_PROXIES:-127.0.0.0/8,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16}"
    )
    # The web service's own environment extends the common one (YAML merge), not replaces it.
    assert (
        COMPOSE["services"]["web"]["environment"]["PWSCUP_TRUSTED_PROXIES"]
        == (environment["PWSCUP_TRUSTED_PROXIES"])
    )


def test_the_image_alone_never_offers_gunicorn_to_clients(monkeypatch):
    # Without compose's GUNICORN_BIND, gunicorn listens on the container's loopback only, and
    # the image exposes no port (docker run -P publishes nothing).
    monkeypatch.delenv("GUNICORN_BIND", raising=False)
    config = runpy.run_path(str(ROOT / "scripts" / "docker" / "gunicorn.conf.py"))
    assert config["bind"] == "127.0.0.1:8000"
    dockerfile = (ROOT / "scripts" / "docker" / "Dockerfile").read_text()
    assert "\nEXPOSE" not in dockerfile
    assert "DJANGO_SECRET_KEY=build-only" not in dockerfile  # refused now: too short


def test_every_long_running_service_restarts_unless_stopped():
    services = COMPOSE["services"]
    for name in ("web", "worker", "beat", "proxy", "broker", "cache", "postgres"):
        assert services[name]["restart"] == "unless-stopped", name
    assert services["migrate"]["restart"] == "no"  # runs once per start


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


COMPOSE_S3 = {
    "AWS_STORAGE_BUCKET_NAME": "pwscup",
    "AWS_S3_ENDPOINT_URL": "http://minio:9000",
    "AWS_S3_REGION_NAME": "us-east-1",
    "AWS_ACCESS_KEY_ID": "pwscup",
    "AWS_SECRET_ACCESS_KEY": "a-random-secret",
}


def _default_storage(tmp_path, **env) -> dict:
    """STORAGES["default"] of the production settings in this environment."""
    result = _manage(
        tmp_path,
        "shell",
        "-c",
        "import json; from django.conf import settings; "
        "print(json.dumps(settings.STORAGES['default'], default=lambda config: "
        "{'connect_timeout': config.connect_timeout, 'retries': config.retries}))",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        **env,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])  # after the shell's banner


def test_the_bucket_variables_choose_private_object_storage_and_nothing_else_does(tmp_path):
    storage = _default_storage(tmp_path, **COMPOSE_S3)
    assert storage["BACKEND"] == "storages.backends.s3.S3Storage"
    options = storage["OPTIONS"]
    assert (options["bucket_name"], options["endpoint_url"], options["region_name"]) == (
        "pwscup",
        "http://minio:9000",
        "us-east-1",
    )
    assert (options["access_key"], options["secret_key"]) == ("pwscup", "a-random-secret")
    # No public-read ACL, a name never overwritten, any URL signed and short-lived.
    assert options["default_acl"] is None and options["file_overwrite"] is False
    assert options["querystring_auth"] is True and options["querystring_expire"] <= 300
    assert 0 < options["max_memory_size"] <= 10 * 1024 * 1024  # larger reads spill to disk
    # An unreachable server fails in seconds, not minutes.
    assert options["client_config"]["connect_timeout"] <= 10
    # Unset: the local folder, as the embedded demo needs.
    assert _default_storage(tmp_path) == {"BACKEND": "django.core.files.storage.FileSystemStorage"}


def test_compose_keeps_files_in_a_private_minio_bucket_and_ships_no_storage_secret():
    environment = COMPOSE["x-app"]["environment"]
    assert environment["AWS_S3_ENDPOINT_URL"] == "${AWS_S3_ENDPOINT_URL:-http://minio:9000}"
    assert environment["AWS_STORAGE_BUCKET_NAME"] == "${AWS_STORAGE_BUCKET_NAME:-pwscup}"
    assert environment["AWS_SECRET_ACCESS_KEY"].startswith("${AWS_SECRET_ACCESS_KEY:?")
    services = COMPOSE["services"]
    minio = services["minio"]
    assert minio["environment"]["MINIO_ROOT_PASSWORD"] == environment["AWS_SECRET_ACCESS_KEY"]
    assert minio["restart"] == "unless-stopped" and "ports" not in minio
    assert "miniodata:/data" in minio["volumes"] and "miniodata" in COMPOSE["volumes"]
    # The bucket exists, private, before the platform migrates or starts.
    job = " ".join(services["bucket"]["command"])
    assert 'mc mb --ignore-existing "store/$$AWS_STORAGE_BUCKET_NAME"' in job
    assert 'mc anonymous set none "store/$$AWS_STORAGE_BUCKET_NAME"' in job
    assert services["bucket"]["depends_on"] == {"minio": {"condition": "service_healthy"}}
    assert services["migrate"]["depends_on"]["bucket"] == {
        "condition": "service_completed_successfully"
    }
    for name in ("web", "worker", "beat"):
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }


def manual_compose_services() -> list[tuple[str, str]]:
    """``(page, service)`` of every ``docker compose exec|run|restart|logs SERVICE`` the
    README and docs/ tell an operator to type (options before the service skipped, with the
    value of ``-v``/``-e``/``-w``/``-u``)."""
    command = re.compile(r"docker compose (?:exec|run|restart|logs|stop|start)((?: [^\s`]+)+)")
    with_value = {"-v", "--volume", "-e", "--env", "-w", "--workdir", "-u", "--user"}
    named = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for match in command.finditer(page.read_text(encoding="utf-8")):
            words = iter(match.group(1).split())
            for word in words:
                if word in with_value:
                    next(words, None)
                elif not word.startswith("-"):
                    named.append((page.name, word))
                    break
    return named


def test_every_compose_command_of_the_manual_names_a_service_of_compose():
    named = manual_compose_services()
    unknown = [(page, name) for page, name in named if name not in COMPOSE["services"]]
    assert not unknown, unknown
    # The commands are read at all: the backup's cache flush, the proxy's restart.
    assert {("operations.md", "cache"), ("operations.md", "proxy")} <= set(named)
