"""Three hosts, no shared folder, one of them lost mid-job: every upload is still scored.

The hosts are network namespaces on one LAN (``tests/hosts.py``): a web host (gunicorn and
the single Celery beat) and two worker hosts (``celery worker --concurrency 1``, named w1
and w2), each with a folder of its own. They reach PostgreSQL through a forwarder, a Redis
of the test's own (broker and cache) and moto's S3 server on the root side of the LAN; every
file lives in the bucket. Teams upload 60 anonymizations through the REST API of the web
host; while w1 is scoring one, its whole host is killed (SIGKILL of every process). The
reaper (run every second) finds w1 silent and puts its job back in the queue; w2 scores it.
Every file is an object of the bucket; no host keeps an upload on its disk, and each worker
host keeps its own prepared original there.

Slow (over 20 s on its own, so its module is scheduled first): three hosts' servers boot
Django (gunicorn, beat, two workers), 60 uploads are scored one at a time per worker, and
the reaper must see w1 silent before w2 takes its job; the fault is the point, so nothing
of it can be shared with another test.
"""

import concurrent.futures
import sys
import time

import pytest
import requests
from django.db import connection
from django.urls import reverse

import scoring
from pwscup.api.services import api_token_create
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from tests.hosts import HostNetwork, unavailable_reason
from tests.pwscup.brokers import RedisServer, broker_at
from tests.s3 import S3Server
from tests.support import (
    child_env,
    gunicorn_command,
    http_status,
    noisy_copy,
    wait_for,
    worker_command,
)

pytestmark = [pytest.mark.slow, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

UPLOADS = 60
UPLOADERS = 3  # one per team, at the same time
REAPER_INTERVAL = 1  # seconds between two runs of the reaper
RESEND_SECONDS = 3  # a QUEUED job's message is sent again after this long
CLAIM_GRACE_SECONDS = 3  # a dead host's RUNNING job is requeued once its claim is this old
WEB_PORT = 8000  # inside the web host's own network namespace
DONE = (Status.FINISHED, Status.FAILED)
IN_FLIGHT_SECONDS = 0.5  # a frozen host's last write reaches PostgreSQL within this
W1_FINISHES = 5  # w1 dies during a job after scoring this many: its scores stay


@pytest.fixture
def network(tmp_path):
    reason = unavailable_reason()
    if reason:
        pytest.fail(reason)
    with HostNetwork(folder=tmp_path / "hosts") as lan:
        yield lan


@pytest.fixture
def lan_servers(network, settings):
    """Redis (broker and cache) and moto's S3 on the LAN's root side, a forwarder to
    PostgreSQL; this process's default storage is the bucket (the world is built there)."""
    redis = RedisServer(host=network.gateway).start()
    s3 = S3Server(log_path=network.log_folder / "moto.log", host=network.gateway)
    try:
        s3.start()
        bucket = s3.new_bucket()
        settings.STORAGES = {**settings.STORAGES, "default": s3.storage(bucket)}
        yield {
            "redis": redis,
            "s3": s3,
            "bucket": bucket,
            "database_port": network.forward(int(connection.settings_dict.get("PORT") or 5432)),
        }
    finally:
        s3.stop()
        redis.kill()


def _host_env(host, network, servers, **extra) -> dict:
    """A platform process on ``host``: the test settings, every server through the LAN."""
    db = connection.settings_dict
    redis_url = servers["redis"].url
    env = child_env(
        broker_url=redis_url,
        TEST_CACHE_URL=redis_url,
        PWSCUP_REAPER_INTERVAL=str(REAPER_INTERVAL),
        PWSCUP_QUEUED_RESEND_SECONDS=str(RESEND_SECONDS),
        PWSCUP_REAPER_CLAIM_GRACE_SECONDS=str(CLAIM_GRACE_SECONDS),
        **servers["s3"].env(servers["bucket"]),
        **extra,
    )
    env["TEST_DATABASE_URL"] = (
        f"postgres://{db.get('USER') or 'postgres'}@{network.gateway}:"
        f"{servers['database_port']}/{db['NAME']}"
    )
    return host.env(env)


@pytest.fixture
def world(lan_servers, make_world):
    """The round of the other tests, built once the default storage is the bucket: its
    original is an object there."""
    return make_world()


@pytest.fixture
def site(network, lan_servers, world):
    """The web host (gunicorn, beat) and worker hosts w1, w2, all answering."""
    web = network.add_host("web")
    workers = {name: network.add_host(name) for name in ("w1", "w2")}
    names = {name: f"{name}@pwscup-{network.tag}" for name in workers}
    base = f"http://{web.address}:{WEB_PORT}"
    web_env = _host_env(
        web,
        network,
        lan_servers,
        GUNICORN_BIND=f"{web.address}:{WEB_PORT}",
        GUNICORN_WORKERS="1",
        GUNICORN_THREADS=str(UPLOADERS + 1),
        DJANGO_ALLOWED_HOSTS=web.address,
        # This test is about a worker host dying. Its bucket (moto) shares two busy cores with
        # every host, so a write can take over the default second; the default would read three
        # teams' uploads at once as a stalled storage and refuse one (503), which CI saw.
        # test_storage_faults.py tests the slots themselves.
        PWSCUP_STORAGE_SLOT_WAIT="30",
    )
    schedule = web.folder / "var" / "celerybeat-schedule"
    web.start(gunicorn_command(), env=web_env, label="gunicorn")
    web.start(
        [sys.executable, "-m", "celery", "-A", "pwscup", "beat", "--schedule", str(schedule)],
        env=web_env,
        label="beat",
    )
    for name, host in workers.items():
        host.start(
            worker_command(names[name]),
            env=_host_env(host, network, lan_servers),
            label="worker",
        )
    with broker_at(lan_servers["redis"].url) as celery_app:

        def everyone_answers() -> bool:
            # Addressed to both: the ping returns with their answers, not after the 0.5 s.
            replies = celery_app.control.ping(destination=list(names.values()), timeout=0.5) or []
            answering = {name for reply in replies for name in reply}
            return set(names.values()) <= answering and http_status(base + "/healthz") is not None

        wait_for(everyone_answers, timeout=90, what="both worker hosts and the web host")
        yield {"base": base, "web": web, "workers": workers, "names": names, **lan_servers}
    # Done with: every host killed at once, as tests.support.stop_at_once stops a process
    # (the graceful stops, one host after the other, cost 7 s of waiting).
    for host in (web, *workers.values()):
        host.kill()


def _upload(base: str, url: str, secret: str, content: bytes) -> tuple[int, dict]:
    answer = requests.post(
        base + url,
        headers={"Authorization": f"Bearer {secret}"},
        files={"file": ("anonymized.csv", content, "text/csv")},
        timeout=60,
    )
    return answer.status_code, answer.json()


def _kill_mid_job(host, worker: str, uploads_sent) -> int:
    """Kill ``host`` while its worker is RUNNING a job, once it has finished a few; that
    job's primary key.

    A RUNNING row may finish between the read and the kill: the host is frozen first
    (SIGSTOP, every process seen stopped), its writes already sent are let land, the row
    read again, and the host killed only if the same run is still in progress (else thawed,
    and the next run waited for). Without that wait a run seen RUNNING was once recorded
    finished by the dead host under load: its last UPDATE was already on the wire."""
    jobs = AnonymizationSubmission.objects.filter(worker=worker)
    running = jobs.filter(status=Status.RUNNING)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        run = running.values_list("pk", "started_at").first()
        if run is not None and jobs.filter(status=Status.FINISHED).count() >= W1_FINISHES:
            host.freeze()
            # A write the worker sent just before it stopped may still be on its way
            # (socket buffers, the forwarder on the LAN's root side): it lands within
            # milliseconds, so the row is read again once that has had time to happen,
            # and the job is only killed if it is still running then.
            time.sleep(IN_FLIGHT_SECONDS)
            if running.filter(pk=run[0], started_at=run[1]).exists():
                host.kill()
                return run[0]
            host.thaw()
        elif (
            uploads_sent() and not AnonymizationSubmission.objects.exclude(status__in=DONE).exists()
        ):
            break
        time.sleep(0.01)
    pytest.fail(f"{worker} was never caught running a job")


def test_a_worker_host_dies_mid_job_and_no_upload_is_lost(world, site):
    url = reverse("api:submissions", args=[world.competition.slug, world.round.slug])
    secrets = {
        letter: api_token_create(user=world.users[letter], name="script").secret
        for letter in world.teams
    }
    letters = sorted(world.teams)
    contents = [noisy_copy(world.original, seed=k) for k in range(UPLOADS)]
    w1, w2 = site["names"]["w1"], site["names"]["w2"]

    def team_uploads(letter: str) -> list[tuple[int, dict, bytes]]:
        mine = contents[letters.index(letter) :: len(letters)]
        return [(*_upload(site["base"], url, secrets[letter], c), c) for c in mine]

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(UPLOADERS) as pool:
        futures = [pool.submit(team_uploads, letter) for letter in letters]
        killed = _kill_mid_job(
            site["workers"]["w1"], w1, lambda: all(future.done() for future in futures)
        )
        answers = [answer for future in futures for answer in future.result()]
    assert [status for status, _body, _content in answers] == [202] * UPLOADS, answers[:3]
    sent = {body["id"]: content for _status, body, content in answers}
    assert site["workers"]["w1"].pids() == []  # the host is gone for good

    jobs = AnonymizationSubmission.objects.filter(pk__in=sent)
    wait_for(
        lambda: jobs.filter(status__in=DONE).count() == UPLOADS,
        timeout=180,
        what=f"every upload scored after {w1} died",
    )
    print(f"{UPLOADS} uploads scored in {time.monotonic() - started:.1f} s; killed #{killed}")

    # 0 lost, 0 failed; the job w1 died with was taken over and finished by w2.
    finished = list(jobs.order_by("pk"))
    assert [job.status for job in finished] == [Status.FINISHED] * UPLOADS
    assert {job.worker for job in finished} <= {w1, w2}
    taken_over = jobs.get(pk=killed)
    assert taken_over.worker == w2 and taken_over.attempts >= 2
    original = scoring.read_table(world.original)
    expected = scoring.evaluate(
        original,
        scoring.read_table(sent[killed]),
        scoring.load_config(world.round.config, original),
    )
    assert taken_over.scores["U1"] == pytest.approx(expected["U1"])
    assert taken_over.scores["EUC2"] == pytest.approx(expected["EUC2"])
    by_worker = {name: jobs.filter(worker=name).count() for name in (w1, w2)}
    print(f"finished by w1 (before its death): {by_worker[w1]}, by w2: {by_worker[w2]}")
    assert by_worker[w1] >= W1_FINISHES and by_worker[w2] > 0

    # Every file is an object of the bucket, byte for byte; no host keeps one on its disk.
    objects = site["s3"].objects(site["bucket"])
    assert world.round.original_file.name in objects
    for job in finished:
        assert objects[job.file.name] == sent[job.pk], job.file.name
    uploaded_names = {job.file.name.rsplit("/", 1)[-1] for job in finished}
    uploaded_contents = set(sent.values()) | {world.original}
    for host in (site["web"], *site["workers"].values()):
        kept = host.files()
        assert not [path for path in kept if path.is_relative_to(host.media)], host.name
        assert not {path.name for path in kept} & uploaded_names, host.name
        assert not [path for path in kept if path.read_bytes() in uploaded_contents], host.name
    # Each worker host prepared the original once for itself, on its own disk.
    for host in site["workers"].values():
        assert [path for path in host.files() if path.name == "output.pkl"], host.name
    assert not [path for path in site["web"].files() if path.name == "output.pkl"]
