"""Files on an S3-compatible bucket, for real: a web server (gunicorn) and a Celery worker
configured only by the standard ``AWS_*`` variables, on moto's S3 server over HTTP and a
Redis of their own. Uploads of every kind land as objects in the bucket (no copy under
MEDIA_ROOT), the worker scores them reading the bucket, a freeze publishes its targets
there, and every download and export streams the bucket's bytes through a view that checks
who is asking, never an object URL. The objects carry no public grant.

One site (server, worker, bucket) serves the whole module; each test switches its own
process's storage to the same bucket (it builds its worlds there).

Slow (over 20 s on its own, so its module is scheduled first): the module's first test pays
the site's start (moto's S3 server, a Redis, gunicorn and a Celery worker each booting), once
for the module's tests.
"""

import csv
import hashlib
import io
import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import numpy as np
import pandas as pd
import pytest
import requests
from django.conf import settings
from django.urls import reverse

import scoring
from pwscup.accounts.services import user_create
from pwscup.api.services import api_token_create
from pwscup.dp.models import Charge, DPRound, Estimate
from pwscup.pwscup2015.console.selectors import round_archive_members
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    BuiltinAttack,
    Pwscup2015Round,
    RoundOperation,
    Target,
)
from pwscup.pwscup2015.scoring_guide import original_download_name
from pwscup.pwscup2015.selectors import target_truth
from pwscup.submissions.models import Status
from tests.pwscup.brokers import (
    RedisServer,
    broker_at,
    start_worker,
    stop_worker,
    wait_for_worker,
)
from tests.pwscup.dp_world import TOY_Z, build_dp_world, close_now, toy_csv
from tests.pwscup.factories import answer_bytes, evaluate_bytes, team_original
from tests.s3 import LateAnswers
from tests.support import (
    child_env,
    csv_upload,
    free_port,
    gunicorn_command,
    http_status,
    noisy_copy,
    running,
    table_bytes,
    wait_for,
)

pytestmark = [pytest.mark.slow, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

DONE = (Status.FINISHED, Status.FAILED)
PUBLIC_GROUPS = {
    "http://acs.amazonaws.com/groups/global/AllUsers",
    "http://acs.amazonaws.com/groups/global/AuthenticatedUsers",
}


@dataclass
class Site:
    """gunicorn at ``base`` and a worker, both on ``bucket`` of ``s3`` and on ``redis``."""

    base: str
    bucket: str
    s3: object
    redis: RedisServer

    def objects(self) -> dict[str, bytes]:
        return self.s3.objects(self.bucket)

    def traces(self) -> tuple[str, ...]:
        """What a response would hold if it pointed at the storage: an object URL (signed
        or not), the server's address, the bucket's name."""
        endpoint = f"{self.s3.host}:{self.s3.port}"
        return ("X-Amz-", "Signature=", "AWSAccessKeyId", endpoint, self.bucket)


@pytest.fixture(scope="module")
def s3_site(django_db_setup, s3_server, tmp_path_factory):
    """One bucket, and gunicorn and a worker set to it by the variables alone, as on a host
    of a deployment; their broker is a Redis of the module's own (this process sends its
    jobs there too), so no job mixes with the session worker's queue."""
    logs = tmp_path_factory.mktemp("s3-site")
    bucket = s3_server.new_bucket()
    storage = s3_server.env(bucket)
    redis = RedisServer().start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    name = f"s3-{port}@pwscup-test"
    try:
        with broker_at(redis.url):
            worker = start_worker(
                broker_url=redis.url,
                name=name,
                log_path=logs / "worker.log",
                # A refused write's late object: its second delete 10 s after the first (the
                # first may come before a loaded bucket has stored it).
                extra_env={**storage, "PWSCUP_STORAGE_DISCARD_AGAIN_AFTER": "10"},
            )
            try:
                wait_for_worker(worker, name, logs / "worker.log")
                env = child_env(broker_url=redis.url, GUNICORN_BIND=f"127.0.0.1:{port}", **storage)
                env.update(GUNICORN_WORKERS="1", GUNICORN_THREADS="4")
                with running(
                    gunicorn_command(),
                    env=env,
                    log_path=logs / "gunicorn.log",
                    ready=lambda: http_status(base + "/healthz") == 200,
                    what="gunicorn to answer /healthz",
                ):
                    yield Site(base=base, bucket=bucket, s3=s3_server, redis=redis)
            finally:
                stop_worker(worker)
    finally:
        redis.kill()


@pytest.fixture(autouse=True)
def on_the_bucket(s3_site, settings):
    """This process keeps its files (the worlds' originals, samples) in the site's bucket."""
    settings.STORAGES = {**settings.STORAGES, "default": s3_site.s3.storage(s3_site.bucket)}


# --- helpers -------------------------------------------------------------------------------


def _media_files() -> dict[str, tuple[int, int]]:
    """Every file under MEDIA_ROOT (its size and modification time), but the test run's
    cache folder and the logs of the processes the tests start."""
    root = Path(settings.MEDIA_ROOT)
    found = {}
    for folder, subfolders, files in os.walk(root):
        if Path(folder) == root and ".cache" in subfolders:
            subfolders.remove(".cache")
        for name in files:
            path = Path(folder) / name
            if path.suffix == ".log":
                continue
            stat = path.stat()
            found[str(path.relative_to(root))] = (stat.st_size, stat.st_mtime_ns)
    return found


def _assert_nowhere_on_disk(site: Site, names: list[str], *, before: dict) -> None:
    """The objects ``names`` are in the bucket, none at its name under MEDIA_ROOT, and no
    file under MEDIA_ROOT was written since ``before`` (``_media_files()`` then): the
    bytes went to the bucket only. (Files of earlier tests may hold the same bytes, e.g.
    the same original: those are not copies of these objects.)"""
    objects = site.objects()
    root = Path(settings.MEDIA_ROOT)
    for name in names:
        assert name in objects, name
        assert not (root / name).exists(), name
    now = _media_files()
    written = sorted(name for name, stamp in now.items() if before.get(name) != stamp)
    copies = [
        name
        for name in written
        if any((root / name).read_bytes() == objects[kept] for kept in names)
    ]
    assert written == [], f"written under MEDIA_ROOT: {written}; copies of objects: {copies}"


def _assert_no_trace(site: Site, *responses: requests.Response) -> None:
    """No response (nor a redirect on its way) sends the reader to the storage or names it."""
    for response in responses:
        for hop in (*response.history, response):
            location = hop.headers.get("Location", "")
            for trace in site.traces():
                assert trace not in location, (hop.url, location)
                assert trace.encode() not in hop.content, (hop.url, trace)


def _public_grants(site: Site, name: str) -> list[dict]:
    grants = site.s3.client().get_object_acl(Bucket=site.bucket, Key=name)["Grants"]
    return [g for g in grants if g["Grantee"].get("URI") in PUBLIC_GROUPS]


def _unsigned_get(site: Site, name: str) -> int:
    """The status of an anonymous GET of the object's URL on the server."""
    url = f"{site.s3.endpoint_url}/{site.bucket}/{quote(name)}"
    return requests.get(url, timeout=10).status_code


def _assert_private(site: Site, names: list[str]) -> None:
    for name in names:
        assert _public_grants(site, name) == [], name
        assert _unsigned_get(site, name) == 403, name


def _csrf(page: requests.Response) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)


def _logged_in(site: Site, username: str) -> requests.Session:
    browser = requests.Session()
    login = site.base + reverse("login")
    answer = browser.post(
        login,
        {"username": username, "password": "pw", "csrfmiddlewaretoken": _csrf(browser.get(login))},
        headers={"Referer": login},
        timeout=10,
    )
    assert answer.status_code == 200 and "sessionid" in browser.cookies, answer.url
    return browser


def _form_post(browser, site: Site, page_url: str, action_url: str, data: dict, files=None):
    """A form of ``page_url`` posted as the browser does (its CSRF token, its Referer), and
    asking for JSON where the view answers it."""
    page = browser.get(site.base + page_url, timeout=10)
    return browser.post(
        site.base + action_url,
        data={"csrfmiddlewaretoken": _csrf(page), **data},
        files=files,
        headers={"Referer": site.base + page_url, "Accept": "application/json"},
        timeout=30,
    )


def _bearer(user) -> dict:
    return {"Authorization": f"Bearer {api_token_create(user=user, name='s3').secret}"}


def _wait_done(model, pk: int, field: str = "status", done=DONE) -> str:
    return wait_for(
        lambda: (v := model.objects.values_list(field, flat=True).get(pk=pk)) in done and v,
        timeout=120,
        what=f"{model.__name__} #{pk} to be done by the S3 worker",
    )


def _zip_members(content: bytes) -> dict[str, bytes]:
    archive = zipfile.ZipFile(io.BytesIO(content))
    return {name: archive.read(name) for name in archive.namelist()}


# --- the 2015 game -------------------------------------------------------------------------


def test_an_upload_is_an_object_in_the_bucket_and_the_worker_scores_it_from_there(
    make_world, s3_site
):
    before = _media_files()
    world = make_world(slug="s3up")
    original = world.round.original_file.name
    assert s3_site.objects()[original] == world.original  # the organizer's original
    _assert_nowhere_on_disk(s3_site, [original], before=before)
    args = [world.competition.slug, world.round.slug]
    round_url = reverse("round_detail", args=args)
    # Team A uploads through the page's form; team B a table without a column, by the API.
    content = noisy_copy(world.original, seed=4017, delete=3)
    team = _logged_in(s3_site, world.users["a"].username)
    by_form = _form_post(
        team,
        s3_site,
        round_url + "submit/",
        reverse("anonymization_upload", args=args),
        {},
        files={"file": ("anonymized.csv", content, "text/csv")},
    )
    assert by_form.status_code == 202, by_form.text
    table = pd.read_csv(io.BytesIO(world.original), dtype=str, keep_default_na=False)
    broken = table_bytes(table.drop(columns=["occupation"]))
    by_api = requests.post(
        s3_site.base + reverse("api:submissions", args=args),
        headers=_bearer(world.users["b"]),
        files={"file": ("broken.csv", broken, "text/csv")},
        timeout=30,
    )
    assert by_api.status_code == 202, by_api.text
    accepted = by_form.json()["id"]
    rejected = by_api.json()["id"]
    assert _wait_done(AnonymizationSubmission, accepted) == Status.FINISHED
    assert _wait_done(AnonymizationSubmission, rejected) == Status.FAILED
    scored = AnonymizationSubmission.objects.get(pk=accepted)
    failed = AnonymizationSubmission.objects.get(pk=rejected)
    # Each upload is one object holding exactly the bytes sent, and no file on the host.
    objects = s3_site.objects()
    assert objects[scored.file.name] == content
    assert scored.sha256 == hashlib.sha256(content).hexdigest()
    assert objects[failed.file.name] == broken  # a rejected upload is kept as sent
    assert "occupation" in failed.message and failed.scores == {}
    _assert_nowhere_on_disk(s3_site, [scored.file.name, failed.file.name], before=before)
    # The worker read both objects: every score equals scoring's on the same bytes.
    expected = evaluate_bytes(world.original, content, world.round.config)
    assert scored.scores["U6"] == 3
    for metric in scoring.METRICS:
        if expected[metric] is None:
            assert scored.scores[metric] is None, metric
        else:
            assert scored.scores[metric] == pytest.approx(expected[metric]), metric
    # The team's status page and its file: the bucket's bytes, no trace of the storage.
    status = team.get(s3_site.base + reverse("status_json", args=args), timeout=10)
    assert [s["id"] for s in status.json()["submissions"]] == [accepted]
    own = team.get(s3_site.base + reverse("submission_file", args=[accepted]), timeout=10)
    assert own.status_code == 200 and own.content == content
    other = team.get(s3_site.base + reverse("submission_file", args=[rejected]), timeout=10)
    assert other.status_code == 404  # team B's upload
    _assert_no_trace(s3_site, by_form, by_api, status, own, other)
    _assert_private(s3_site, [original, scored.file.name, failed.file.name])


def test_freeze_attack_downloads_and_exports_on_the_bucket(make_world, s3_site):
    """Per-team samples, a freeze run by the worker (targets, truths and candidate tables
    as objects), an attack scored from the bucket, and what each reader may download."""
    before = _media_files()
    world = make_world(slug="s3frz", data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    args = [world.competition.slug, world.round.slug]
    samples = {d.team.slug: d for d in world.round.team_datasets.select_related("team")}
    _assert_nowhere_on_disk(s3_site, [d.file.name for d in samples.values()], before=before)
    uploads = {}
    for letter, seed in (("a", 4021), ("b", 4022)):
        content = noisy_copy(team_original(world, letter), seed=seed, delete=2)
        answer = requests.post(
            s3_site.base + reverse("api:submissions", args=args),
            headers=_bearer(world.users[letter]),
            files={"file": ("anonymized.csv", content, "text/csv")},
            timeout=30,
        )
        assert answer.status_code == 202, answer.text
        uploads[letter] = (answer.json()["id"], content)
    for pk, _content in uploads.values():
        assert _wait_done(AnonymizationSubmission, pk) == Status.FINISHED

    # The organizer freezes from the console; the worker publishes the targets.
    organizer = _logged_in(s3_site, world.organizer.username)
    action = reverse("console:round_action", args=[*args, "freeze"])
    frozen = _form_post(organizer, s3_site, action, action, {})
    assert frozen.status_code == 200 and "freeze started." in frozen.text
    operation = RoundOperation.objects.get(round=world.round, kind=RoundOperation.Kind.FREEZE)
    assert _wait_done(RoundOperation, operation.pk) == Status.FINISHED
    targets = {
        t.team.slug: t for t in Target.objects.filter(round=world.round).select_related("team")
    }
    assert set(targets) == {"teamA", "teamB"}
    for target in targets.values():
        assert _wait_done(BuiltinAttack, target.pk) == Status.FINISHED
    target_a = Target.objects.get(pk=targets["teamA"].pk)
    assert set(target_a.builtin.rates) >= set(scoring.ATTACK_METRICS)
    published = [
        name
        for t in targets.values()
        for name in (t.published_file.name, t.truth_file.name, t.candidate_file.name)
    ]
    _assert_nowhere_on_disk(s3_site, published, before=before)
    objects = s3_site.objects()
    assert len(scoring.read_table(objects[target_a.candidate_file.name])) == 100  # 60 + 40

    # Team B attacks A through the Submit tab's form; the worker reads answer and truth.
    truth = target_truth(target=target_a)
    answer = truth.copy()
    answer[: len(answer) // 2] = 0  # no guess on the first half
    attack_bytes = answer_bytes(answer)
    team_b = _logged_in(s3_site, world.users["b"].username)
    attacked = _form_post(
        team_b,
        s3_site,
        reverse("round_detail", args=args) + "submit/",
        reverse("attack_upload", args=args),
        {"target": str(target_a.pk)},
        files={"file": ("attack_teamA.csv", attack_bytes, "text/csv")},
    )
    assert attacked.status_code == 202, attacked.text
    attack_pk = attacked.json()["id"]
    assert _wait_done(AttackSubmission, attack_pk) == Status.FINISHED
    attack = AttackSubmission.objects.get(pk=attack_pk)
    assert attack.correct == np.count_nonzero(answer)
    assert attack.rate == pytest.approx(np.count_nonzero(answer) / len(answer))
    assert s3_site.objects()[attack.file.name] == attack_bytes
    _assert_nowhere_on_disk(s3_site, [attack.file.name], before=before)

    # Downloads: each reader gets the bucket's bytes of what it may see, 404 otherwise.
    objects = s3_site.objects()
    team_a = _logged_in(s3_site, world.users["a"].username)
    user_create(username="s3frz-stranger", password="pw")
    stranger = _logged_in(s3_site, "s3frz-stranger")
    sub_a, content_a = uploads["a"]
    file_a = reverse("submission_file", args=[sub_a])
    target_of_a = reverse("target_download", args=[*args, "teamA"])
    candidates_of_a = reverse("candidate_download", args=[*args, "teamA"])
    attack_file = reverse("attack_file", args=[attack_pk])
    kit = reverse("kit_download", args=args)
    responses = []

    def get(browser, url, status):
        response = browser.get(s3_site.base + url, timeout=30)
        assert response.status_code == status, (url, response.status_code)
        responses.append(response)
        return response.content

    assert get(team_a, file_a, 200) == content_a
    assert get(team_b, target_of_a, 200) == objects[target_a.published_file.name]
    assert get(team_b, candidates_of_a, 200) == objects[target_a.candidate_file.name]
    assert get(team_b, attack_file, 200) == attack_bytes
    kit_b = _zip_members(get(team_b, kit, 200))
    sample_name = original_download_name(round=world.round, team=world.teams["b"])
    assert kit_b[sample_name] == objects[samples["teamB"].file.name]
    assert kit_b["targets/teamA_anonymized.csv"] == objects[target_a.published_file.name]
    assert kit_b["targets/teamA_candidate.csv"] == objects[target_a.candidate_file.name]
    for browser, url in (
        (team_b, file_a),  # another team's upload
        (team_a, target_of_a),  # its own target
        (team_a, candidates_of_a),
        (team_a, attack_file),  # the attack on it
        (stranger, file_a),
        (stranger, target_of_a),
        (stranger, attack_file),
        (stranger, kit),
    ):
        get(browser, url, 404)

    # Exports: the console's archive holds every upload, attack and target as stored.
    archive = _zip_members(
        get(organizer, reverse("pwscup2015_console:round_archive", args=args), 200)
    )
    members = dict(round_archive_members(round=world.round))
    assert set(archive) == set(members)
    assert len(members) == 2 + 1 + 2 * 3  # two uploads, one attack, two targets of 3 files
    for name, field in members.items():
        assert archive[name] == objects[field.name], name
    board = get(organizer, reverse("leaderboard", args=args) + "?format=csv", 200).decode()
    assert "Team A" in board and "Team B" in board
    matrix = get(organizer, reverse("matrix", args=args) + "?format=csv", 200).decode()
    assert "Team A" in matrix and "Team B" in matrix
    _assert_no_trace(s3_site, frozen, attacked, *responses)
    _assert_nowhere_on_disk(s3_site, [f.name for f in members.values()], before=before)
    samples_and_original = [
        world.round.original_file.name,
        *(d.file.name for d in samples.values()),
    ]
    _assert_private(s3_site, [*samples_and_original, *(f.name for f in members.values())])


def test_the_server_refuses_an_unsigned_read_of_an_object_and_would_serve_a_public_one(
    make_world, s3_site
):
    """What ``_assert_private`` relies on, checked on this server: an object stored by the
    platform has no public grant and an anonymous GET of its URL is refused, while an
    object given a public-read ACL (which the platform never asks for) shows the grant
    and is served to anyone."""
    world = make_world(slug="s3acl")
    name = world.round.original_file.name
    assert _public_grants(s3_site, name) == []
    assert _unsigned_get(s3_site, name) == 403
    signed = s3_site.s3.client().generate_presigned_url(
        "get_object", Params={"Bucket": s3_site.bucket, "Key": name}, ExpiresIn=60
    )
    assert requests.get(signed, timeout=10).content == world.original  # the object is there
    control = f"control/{world.round.pk}-public.csv"
    s3_site.s3.client().put_object(
        Bucket=s3_site.bucket, Key=control, Body=b"a\n1\n", ACL="public-read"
    )
    assert [g["Grantee"]["URI"] for g in _public_grants(s3_site, control)] == [
        "http://acs.amazonaws.com/groups/global/AllUsers"
    ]
    assert _unsigned_get(s3_site, control) == 200


def test_a_write_the_bucket_stores_after_the_upload_was_refused_is_deleted(
    make_world, s3_site, client, settings
):
    # The bucket stores the upload's object but its answers come late (held by a forwarder):
    # the write passes its deadline and the upload is refused 503, yet the object is in the
    # bucket, under a name no row will ever hold. The site's worker deletes it.
    world = make_world(slug="s3late")
    content = noisy_copy(world.original, seed=4051)
    late = LateAnswers(s3_site.s3.host, s3_site.s3.port)
    # A read timeout a loaded bucket's HEAD (the name's check, answered at once) stays within:
    # only the held PUT passes it.
    storage = s3_site.s3.storage(s3_site.bucket, read_timeout=5, retries=0)
    storage["OPTIONS"]["endpoint_url"] = late.url
    settings.STORAGES = {**settings.STORAGES, "default": storage}
    from django.core.files.storage import default_storage

    writes = []

    def answer_late(request, **kwargs):
        writes.append(request.url)
        late.hold()  # the name was checked free (a HEAD answered); the write's answer waits

    events = default_storage.connection.meta.client.meta.events
    events.register("before-send.s3.PutObject", answer_late)
    try:
        response = client.post(
            reverse("api:submissions", args=[world.competition.slug, world.round.slug]),
            {"file": csv_upload(content)},
            HTTP_AUTHORIZATION=_bearer(world.users["a"])["Authorization"],
        )
        assert response.status_code == 503, response.content[:300]
        assert response.json()["code"] == "storage_unavailable"
        assert not AnonymizationSubmission.objects.exists()
        # The bucket did store the write it never answered in time (its log says 200).
        name = unquote(urlsplit(writes[0]).path).split(f"/{s3_site.bucket}/", 1)[1]
        stored = f'"PUT /{s3_site.bucket}/{quote(name)} HTTP/1.1" 200'
        wait_for(
            lambda: stored in s3_site.s3.log_path.read_text(),
            timeout=60,
            what=f"the bucket to store {name}",
        )
    finally:
        events.unregister("before-send.s3.PutObject", answer_late)
        late.close()
    # A listing, not ``objects()``: the worker may delete the object between a listing and
    # its read (the read then fails with NoSuchKey, as it did under a loaded host).
    wait_for(
        lambda: name not in s3_site.s3.names(s3_site.bucket),
        timeout=90,
        what=f"the worker to delete the refused upload's object {name}",
    )
    digests = {hashlib.sha256(body).hexdigest() for body in s3_site.objects().values()}
    assert hashlib.sha256(content).hexdigest() not in digests


# --- the DP game ---------------------------------------------------------------------------


def test_a_dp_estimate_and_release_on_the_bucket(s3_site):
    before = _media_files()
    world = build_dp_world(slug="s3dp")
    hidden = world.round.original_file.name
    assert s3_site.objects()[hidden] == toy_csv()
    args = {"competition_slug": world.competition.slug, "round_slug": world.round.slug}
    headers = _bearer(world.users["a"])
    cells = [(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")]
    estimate_bytes = (
        "target,gender,age,count\n"
        + "".join(f"gender_age,{g},{a},{v}\n" for (g, a), v in zip(cells, TOY_Z, strict=True))
        + "gender,F,,4\ngender,M,,6\n"
    ).encode()
    uploaded = requests.post(
        s3_site.base + reverse("api:dp-level-estimates", kwargs={**args, "level": "eps-1"}),
        headers=headers,
        files={"file": ("estimate.csv", estimate_bytes, "text/csv")},
        timeout=30,
    )
    assert uploaded.status_code == 202, uploaded.text
    estimate_pk = uploaded.json()["id"]
    valid = (Estimate.Status.FINISHED, Estimate.Status.FAILED)
    assert _wait_done(Estimate, estimate_pk, done=valid) == Estimate.Status.FINISHED
    estimate = Estimate.objects.get(pk=estimate_pk)
    assert s3_site.objects()[estimate.file.name] == estimate_bytes
    assert estimate.counts["gender_age"] == TOY_Z  # read by the worker from the object
    # A release is written by the web server into the bucket and read back through the API.
    release = requests.post(
        s3_site.base + reverse("api:dp-releases", kwargs={**args, "level": "eps-4"}),
        headers=headers,
        json={"groups": [{"attributes": ["gender", "age"], "epsilon": "4"}]},
        timeout=30,
    )
    assert release.status_code == 200, release.text
    number = release.json()["charge_no"]
    release_url = s3_site.base + reverse(
        "api:dp-release-file", kwargs={**args, "level": "eps-4", "number": number}
    )
    mine = requests.get(release_url, headers=headers, timeout=10)
    released = Charge.objects.get(
        ledger__team=world.teams["a"], ledger__level="eps-4", number=number
    ).release_file.name
    assert mine.status_code == 200 and mine.content == s3_site.objects()[released]
    assert mine.content.startswith(b"gender,age\n")
    theirs = requests.get(release_url, headers=_bearer(world.users["b"]), timeout=10)
    assert theirs.status_code == 404
    _assert_nowhere_on_disk(s3_site, [hidden, estimate.file.name, released], before=before)
    # After the close a page view sends the scoring job; the worker reads the hidden table.
    close_now(world)
    browser = _logged_in(s3_site, world.users["b"].username)
    board = reverse("dp:leaderboard", kwargs=args)
    assert 'data-testid="dp-scoring"' in browser.get(s3_site.base + board, timeout=10).text
    wait_for(
        lambda: DPRound.objects.filter(pk=world.dp_round.pk, scored_at__isnull=False).exists(),
        timeout=120,
        what="the S3 worker to score the closed DP round",
    )
    assert Estimate.objects.get(pk=estimate_pk).scores["mean_l2"] == 0.0
    exported = browser.get(s3_site.base + board + "?format=csv", timeout=10)
    assert exported.status_code == 200
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    ours = [r for r in rows if (r["level"], r["team"]) == ("eps-1", "Team A")]
    assert [float(r["mean_l2"]) for r in ours] == [0.0]
    _assert_no_trace(s3_site, uploaded, release, mine, theirs, exported)
    _assert_nowhere_on_disk(s3_site, [], before=before)
    _assert_private(s3_site, [hidden, estimate.file.name, released])
