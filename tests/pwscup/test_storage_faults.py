"""A storage that is full, refuses or stalls never takes the site down nor keeps half an upload.

* A full disk, for real: a 1 MB tmpfs mounted as MEDIA_ROOT (the tests run as root), so the
  write fails with the kernel's ENOSPC. The upload is refused 503 (``Retry-After``) in the
  API's ``{code, message}`` and on the page in its language; no row, no file is left.
* A bucket that refuses (deleted) or cannot be reached: the same 503, nothing kept.
* A bucket that stalls, for real: moto's S3 server stopped with SIGSTOP (it accepts
  connections and never answers) under gunicorn with fewer threads than uploads. A visitor's
  page keeps answering, /healthz answers 503 at once, every upload is refused 503, and once the
  server runs again (SIGCONT) nothing was kept for them: no row, no object.

Slow (over 20 s on its own, so its module is scheduled first): the stalled-bucket test starts
moto's server and gunicorn for each of the two servers, and its uploads wait out the storage's
timeouts (two tries of 2 s, three times in a row) while the bucket is stopped.
"""

import contextlib
import os
import signal
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests
from django.urls import reverse

from pwscup import celery_app
from pwscup.api.services import api_token_create
from pwscup.pwscup2015.models import AnonymizationSubmission
from tests.s3 import S3Server
from tests.support import (
    child_env,
    csv_upload,
    demo_gunicorn_command,
    free_port,
    gunicorn_command,
    running,
    wait_for,
)

MESSAGE_EN = "The platform cannot store files right now"
MESSAGE_JA = "現在、ファイルを保存できません"
# A team's upload while its other upload's write holds the team's row.
PENDING_EN = "Another upload of your team is still being written"


class OnePing:
    """Stands in for ``celery_app.control.ping``: one worker answers."""

    def __call__(self, *args, **kwargs):
        return [{"worker@host": {"ok": "pong"}}]


def _body(megabytes: int) -> bytes:
    """A CSV of about ``megabytes`` MB: more than the tmpfs holds."""
    line = b"39,State-gov,77516,Bachelors,13,Never-married,Adm-clerical,White,Male,40\n"
    return line * (megabytes * 1024 * 1024 // len(line) + 1)


def _files_under(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file() or path.is_symlink()]


def _api_upload(client, world, letter: str, content: bytes, **extra):
    token = api_token_create(user=world.users[letter], name="script").secret
    url = reverse("api:submissions", args=[world.competition.slug, world.round.slug])
    return client.post(
        url, {"file": csv_upload(content)}, HTTP_AUTHORIZATION=f"Bearer {token}", **extra
    )


def _page_upload(client, world, letter: str, content: bytes, **extra):
    client.force_login(world.users[letter])
    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    try:
        return client.post(
            url, {"file": csv_upload(content)}, HTTP_ACCEPT="application/json", **extra
        )
    finally:
        client.logout()


def _assert_refused_503(response, *, message: str, json_key: str = "message"):
    assert response.status_code == 503, response.content[:300]
    assert int(response["Retry-After"]) >= 1
    assert message in response.json()[json_key]


@pytest.fixture
def full_disk(tmp_path, settings):
    """A 1 MB tmpfs as MEDIA_ROOT: writing more fails with ENOSPC, as on a full disk."""
    media = tmp_path / "media"
    media.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(media)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.fail(f"a tmpfs is needed (run as root): {mounted.stderr}")
    try:
        settings.MEDIA_ROOT = media
        yield media
    finally:
        subprocess.run(["umount", "-l", str(media)], check=False)


@pytest.mark.django_db
@pytest.mark.parametrize("megabytes", [2, 6], ids=["in-memory", "temporary-file"])
def test_a_full_disk_refuses_the_upload_and_leaves_no_file(world, client, full_disk, megabytes):
    # 2 MB arrives in memory (Django's storage streams it), 6 MB as a temporary file (Django
    # copies it across file systems): both leave a partial file when the disk fills up.
    content = _body(megabytes)
    api = _api_upload(client, world, "a", content)
    _assert_refused_503(api, message=MESSAGE_EN)
    assert api.json()["code"] == "storage_unavailable"
    page = _page_upload(client, world, "b", content, HTTP_ACCEPT_LANGUAGE="ja")
    _assert_refused_503(page, message=MESSAGE_JA, json_key="error")
    assert not AnonymizationSubmission.objects.exists()
    assert _files_under(full_disk) == []
    # A file the disk has room for is kept.
    small = _api_upload(client, world, "a", _body(1)[: 200 * 1024])
    assert small.status_code == 202, small.content[:300]
    assert len(_files_under(full_disk)) == 1


@pytest.mark.django_db
def test_healthz_reports_a_local_storage_short_of_space(client, full_disk, settings, monkeypatch):
    monkeypatch.setattr(celery_app.control, "ping", OnePing())
    settings.PWSCUP_MIN_FREE_BYTES = 512 * 1024  # half the tmpfs
    # Healthy first (a precondition: on a loaded machine a check may once run past its
    # timeout, which is another test's subject), then the disk fills.
    wait_for(lambda: client.get("/healthz").status_code == 200, timeout=30, what="/healthz 200")
    (full_disk / "filler").write_bytes(b"x" * 700 * 1024)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["storage"].startswith("error: ")
    assert "PWSCUP_MIN_FREE_BYTES" in response.json()["storage"]
    assert response.json()["database"] == "ok"


@pytest.mark.django_db
def test_a_deleted_bucket_refuses_the_upload_and_nothing_is_kept(
    world, client, s3_server, s3_bucket
):
    s3 = s3_server.client()
    s3.delete_bucket(Bucket=s3_bucket)
    response = _api_upload(client, world, "a", _body(1))
    _assert_refused_503(response, message=MESSAGE_EN)
    assert not AnonymizationSubmission.objects.exists()
    assert s3_bucket not in {bucket["Name"] for bucket in s3.list_buckets()["Buckets"]}


@pytest.mark.django_db
def test_an_unreachable_bucket_refuses_the_upload_and_nothing_is_kept(
    world, client, settings, s3_server, s3_bucket
):
    unreachable = s3_server.storage(s3_bucket, retries=0)
    unreachable["OPTIONS"]["endpoint_url"] = f"http://127.0.0.1:{free_port()}"
    settings.STORAGES = {**settings.STORAGES, "default": unreachable}
    page = _page_upload(client, world, "a", _body(1))
    _assert_refused_503(page, message=MESSAGE_EN, json_key="error")
    assert not AnonymizationSubmission.objects.exists()
    assert s3_server.objects(s3_bucket) == {}


def _hold_write_slots(count: int, release: threading.Event) -> list[threading.Thread]:
    """``count`` threads that each hold a write slot until ``release`` (a slow storage)."""
    from pwscup.core import storage

    holders = []
    for _ in range(count):
        entered = threading.Event()

        def hold(entered=entered):
            with storage.storage_write_slot():
                entered.set()
                release.wait(30)

        holders.append(threading.Thread(target=hold, daemon=True))
        holders[-1].start()
        assert entered.wait(10)
    return holders


@pytest.mark.django_db
def test_uploads_past_the_write_slots_are_refused_after_the_slot_wait(world, client, settings):
    # Both slots are held by writes that wait (a slow storage): a third upload waits
    # PWSCUP_STORAGE_SLOT_WAIT for a slot, not for them, is refused, and nothing is kept for it.
    settings.PWSCUP_STORAGE_WRITE_SLOTS = 2
    settings.PWSCUP_STORAGE_SLOT_WAIT = 0.2
    release = threading.Event()
    holders = _hold_write_slots(2, release)
    try:
        response = _api_upload(client, world, "a", _body(1))
        _assert_refused_503(response, message=MESSAGE_EN)
        assert response.json()["code"] == "storage_unavailable"
        assert not AnonymizationSubmission.objects.exists()
    finally:
        release.set()
        for holder in holders:
            holder.join(10)
    assert _api_upload(client, world, "a", _body(1)).status_code == 202


@pytest.mark.django_db
def test_an_upload_waits_for_a_slot_a_healthy_storage_frees(world, client, settings):
    # A burst on a healthy storage: both slots busy for a moment, then one is freed while the
    # third upload waits for it. It is kept, not refused.
    settings.PWSCUP_STORAGE_WRITE_SLOTS = 2
    settings.PWSCUP_STORAGE_SLOT_WAIT = 30
    release = threading.Event()
    holders = _hold_write_slots(2, release)
    threading.Timer(0.3, release.set).start()
    try:
        assert _api_upload(client, world, "a", _body(1)).status_code == 202
        assert AnonymizationSubmission.objects.count() == 1
    finally:
        release.set()
        for holder in holders:
            holder.join(10)


# --- a bucket that stalls, under gunicorn -------------------------------------------------

THREADS = 4  # gunicorn's threads
UPLOADS = 8  # more uploads than threads, as in the field test (14 on 12)


@contextlib.contextmanager
def frozen(server: S3Server):
    """moto's server stopped: the kernel still accepts its connections, nothing answers."""
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.process.pid, signal.SIGCONT)


def _timed_get(url: str, timeout: float) -> tuple[int | None, float, dict]:
    started = time.monotonic()
    try:
        response = requests.get(url, timeout=timeout)
    except requests.RequestException:
        return None, time.monotonic() - started, {}
    body = response.json() if "json" in response.headers.get("Content-Type", "") else {}
    return response.status_code, time.monotonic() - started, body


# The production server (one process of THREADS threads, as behind nginx) and the demo's
# (scripts/demo_gunicorn.conf.py, facing the browsers itself: with two sync workers, two
# stalled uploads held it whole, field test 4).
SERVERS = {
    "production": (gunicorn_command, {"GUNICORN_WORKERS": "1", "GUNICORN_THREADS": str(THREADS)}),
    "demo": (demo_gunicorn_command, {}),
}


@pytest.mark.slow
@pytest.mark.parametrize("server", sorted(SERVERS))
@pytest.mark.django_db(transaction=True)
def test_a_stalled_bucket_leaves_the_site_answering_and_keeps_no_upload(
    make_world, tmp_path, capsys, server, s3_server
):
    # The run's moto server (``s3_server``), stopped and started again here: both cases and
    # the bucket tests above share its start (2 s of CPU each), and every case waits below
    # for it to answer again before it ends.
    s3 = s3_server
    bucket = s3.new_bucket()
    world = make_world(slug="stall")
    tokens = [api_token_create(user=world.users[letter], name="stall").secret for letter in "abc"]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = child_env(GUNICORN_BIND=f"127.0.0.1:{port}", **s3.env(bucket))
    command, server_env = SERVERS[server]
    env.update(
        **server_env,
        PWSCUP_STORAGE_WRITE_SLOTS="2",
        # A stalled call fails after (1 + 1 retry) x 2 s here (production: 3 x 10 s). The
        # further uploads of a team whose stalled write holds its row wait for it no longer
        # than for a slot (PWSCUP_STORAGE_SLOT_WAIT) and are refused, saying so. A healthy
        # moto answers in milliseconds, far within 2 s.
        PWSCUP_STORAGE_READ_TIMEOUT="2",
        PWSCUP_STORAGE_RETRIES="1",
    )
    upload_url = base + reverse("api:submissions", args=[world.competition.slug, world.round.slug])
    with running(
        command(),
        env=env,
        log_path=tmp_path / "gunicorn.log",
        ready=lambda: _timed_get(base + "/healthz", 5)[0] is not None,
        what="gunicorn to answer",
    ):
        assert _timed_get(base + "/healthz", 10)[2]["storage"] == "ok"
        answers = []

        def upload(number: int):
            token = tokens[number % len(tokens)]
            try:
                response = requests.post(
                    upload_url,
                    files={"file": ("anonymized.csv", _body(1)[:100_000], "text/csv")},
                    headers={"Authorization": f"Bearer {token}"},
                    timeout=120,
                )
                answers.append((response.status_code, response.headers, response.json()))
            except requests.RequestException as error:
                answers.append((None, {}, {"error": repr(error)}))

        with frozen(s3):
            uploads = [threading.Thread(target=upload, args=(n,)) for n in range(UPLOADS)]
            for thread in uploads:
                thread.start()
            time.sleep(1.0)  # the uploads have reached gunicorn and the bucket
            # A visitor and the health probe at the same moment, as they come (one after
            # the other, the probe waited for the visitor's answer: 4 s more per case).
            with ThreadPoolExecutor(2) as pool:
                visiting = pool.submit(_timed_get, base + "/", timeout=15)
                probing = pool.submit(_timed_get, base + "/healthz", timeout=15)
                visitor, health = visiting.result(), probing.result()
            for thread in uploads:
                thread.join(timeout=120)
            pending = sum(PENDING_EN in body.get("message", "") for _, _, body in answers)
            with capsys.disabled():
                print(
                    f"\n[stalled bucket, {server}] visitor's page: {visitor[0]} in {visitor[1]:.2f} s; "
                    f"/healthz: {health[0]} in {health[1]:.2f} s ({health[2].get('storage')}); "
                    f"uploads refused for their team's row: {pending} of {len(answers)}"
                )
            assert visitor[0] == 200
            assert health[0] == 503
            assert health[2]["storage"].startswith("error: ")
            assert health[2]["database"] == "ok"
        assert len(answers) == UPLOADS
        for status, headers, body in answers:
            assert status == 503, body
            assert body["code"] == "storage_unavailable"
            assert MESSAGE_EN in body["message"] or PENDING_EN in body["message"]
            assert int(headers["Retry-After"]) >= 1
        # The server runs again and answers what it had been sent: nothing is kept.
        wait_for(
            lambda: _timed_get(base + "/healthz", 10)[2].get("storage") == "ok",
            timeout=60,
            what="the bucket to answer /healthz again",
        )
        assert s3.objects(bucket) == {}
        assert not AnonymizationSubmission.objects.exists()


def test_write_slots_wait_for_young_holders_and_refuse_stalled_ones_at_once(monkeypatch):
    from pwscup.core import storage

    # A holder that has just taken the slot (a healthy write): the next one waits for it.
    slots = storage.WriteSlots(1)
    held = slots.acquire(5)
    threading.Timer(0.3, slots.release, args=(held,)).start()
    second = slots.acquire(5)
    assert second is not None
    # A holder writing for a minute (a stalled storage): the next one is refused without
    # waiting; had it waited, it would have got the slot released half a second later.
    real = time.monotonic
    monkeypatch.setattr(storage.time, "monotonic", lambda: real() + 60)
    threading.Timer(0.5, slots.release, args=(second,)).start()
    assert slots.acquire(5) is None
