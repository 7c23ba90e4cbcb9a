"""Fixtures for the platform tests: a small round on the first rows of the Adult fixture."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.pwscup.brokers import RedisServer
from tests.support import (  # noqa: F401 - re-exported for the tests
    DOCKER,
    adult_config,
    adult_head,
    build_world,
    csv_upload,
    free_port,
    noisy_copy,
    port_answers,
    table_bytes,
    wait_for,
)


@pytest.fixture
def make_world(db):
    return build_world


@pytest.fixture
def world(make_world):
    return make_world()


NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PROXY_ADDRESS = "127.0.0.2"  # the test nginx's source address towards gunicorn


@pytest.fixture
def nginx_port(gunicorn_port, tmp_path):
    """Debian's nginx with scripts/docker/nginx.conf in front of the requesting module's
    ``gunicorn_port`` (its upstream and listen address changed to free local ports). It connects
    to gunicorn from ``PROXY_ADDRESS``, so gunicorn can tell its proxy (trusted with
    PWSCUP_TRUSTED_PROXIES) from a client on 127.0.0.1 reaching it directly."""
    if not Path(NGINX).exists():
        pytest.fail("nginx is missing: install Debian's nginx-light (scripts/test does as root)")
    port = free_port()
    site = (DOCKER / "nginx.conf").read_text()
    for production, here, count in (
        ("server web:8000 ", f"server 127.0.0.1:{gunicorn_port} ", 3),  # reads, writes, log-ins
        ("listen 80;", f"listen 127.0.0.1:{port};", 1),
        (
            "proxy_pass http://$pwscup_upstream;",
            f"proxy_bind {PROXY_ADDRESS};\n proxy_pass http://$pwscup_upstream;",
            1,
        ),
    ):
        assert site.count(production) == count, production
        site = site.replace(production, here)
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    (prefix / "site.conf").write_text(site)
    temp = "\n".join(
        f"  {kind}_temp_path {prefix / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers must reach the temp folders
    (prefix / "nginx.conf").write_text(
        f"{user}worker_processes 1;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} warn;\nevents {{ worker_connections 1024; }}\n"
        f"http {{\n  access_log off;\n{temp}\n"
        f"  uwsgi_temp_path {prefix / 'uwsgi'};\n  scgi_temp_path {prefix / 'scgi'};\n"
        f"  include {prefix / 'site.conf'};\n}}\n"
    )
    command = [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen([*command, "-g", "daemon off;"])
    try:
        wait_for(lambda: port_answers(port), timeout=20, what="nginx to listen")
        yield port
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture
def redis_server():
    """A Redis server of the test's own, started (tests kill and restart it at will)."""
    server = RedisServer().start()
    yield server
    server.kill()
