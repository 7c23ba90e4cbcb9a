"""``manage.py backup`` and ``manage.py restore`` (pwscup/core/backup.py, restore.py).

A competition is played for real (uploads, a freeze, built-in attacks and a team's attack,
all run by a Celery worker; results published), backed up, and restored into a new
database and a new folder or bucket by ``manage.py restore`` in a process of its own; a
process on the restored deployment then prints its leaderboards, every file a row names
(SHA-256 read through the storage) and its audit log, which must equal what the same code
reads of the original in the test's process. The refusals
(a deployment that is not empty, a changed file or dump, an unknown format version, a
missing file at backup time) are checked to change nothing.

Slow (over 20 s on its own, so its module is scheduled first): a competition is played through
a real worker, backed up with ``pg_dump`` and restored into a freshly migrated database (and a
new bucket) for each of its journeys.
"""

import json
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import psycopg
import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import CommandError, call_command
from psycopg import sql

from pwscup.competitions.models import AuditEntry, Competition, Round
from pwscup.competitions.services import audit_record
from pwscup.core import backup as backup_module
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.console.services import console_round_freeze, console_round_publish
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    BuiltinAttack,
    RoundOperation,
    Target,
)
from pwscup.pwscup2015.selectors import target_truth
from pwscup.submissions.models import Status
from tests.migrated import migrated_template
from tests.pwscup import deployment_state
from tests.pwscup.brokers import broker_at, start_worker, stop_worker
from tests.pwscup.deployment_state import row_counts
from tests.support import ROOT, child_env, csv_upload, noisy_copy, wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DONE = (Status.FINISHED, Status.FAILED)


# --- Deployments: a database, a folder or a bucket, and processes on them ---------------------


def connect(database: str, **options) -> psycopg.Connection:
    """A connection to ``database`` on the test run's PostgreSQL server."""
    from django.db import connection

    db = connection.settings_dict
    return psycopg.connect(
        host=db.get("HOST") or "127.0.0.1",
        port=db.get("PORT") or 5432,
        user=db.get("USER") or "postgres",
        password=db.get("PASSWORD") or None,
        dbname=database,
        **options,
    )


@pytest.fixture
def new_database():
    """Make empty databases on the test server (``new_database()`` → its name), or with
    ``migrated=True`` copies of the suite's migrated template (``tests/migrated.py``: what
    ``migrate`` makes from nothing, without its 10 s of CPU); all are dropped afterwards."""
    made = []

    def make(*, migrated: bool = False) -> str:
        name = f"test_pwscup_restore_{uuid.uuid4().hex[:10]}"
        if migrated:
            from django.db import connection

            migrated_template(connection.settings_dict, copy=name)
        else:
            with connect("postgres", autocommit=True) as server:
                server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        made.append(name)
        return name

    yield make
    with connect("postgres", autocommit=True) as server:
        for name in made:
            server.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def tables_of(database: str) -> list[str]:
    """The tables and views of ``database``'s public schema."""
    with connect(database) as conn:
        rows = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchall()
    return sorted(name for (name,) in rows)


def files_under(folder: Path) -> list[str]:
    """The files kept under a media folder (the test settings' file cache aside)."""
    return sorted(
        str(path.relative_to(folder))
        for path in folder.rglob("*")
        if path.is_file() and ".cache" not in path.relative_to(folder).parts
    )


def deployment_env(database: str, media: Path, **storage_env: str) -> dict:
    """A process's environment on ``database`` with its files in ``media`` (or in the bucket
    of ``storage_env``); the rest (broker, queue) as the test run's."""
    env = child_env(**storage_env)
    env["TEST_DATABASE_URL"] = env["TEST_DATABASE_URL"].rsplit("/", 1)[0] + "/" + database
    env["TEST_DATABASE_NAME"] = database
    env["PWSCUP_MEDIA_ROOT"] = str(media)
    media.mkdir(parents=True, exist_ok=True)
    return env


def manage(env: dict, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def state_of(env: dict, *options: str) -> dict:
    """What the deployment of ``env`` holds (tests/pwscup/deployment_state.py; ``options``
    its own)."""
    finished = subprocess.run(
        [sys.executable, "-m", "tests.pwscup.deployment_state", *options],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    return json.loads(finished.stdout)


def state_here() -> dict:
    """What the test's own deployment holds (this process's database and default storage),
    read by the same code as ``state_of`` in this process, as the JSON it prints: the
    original is what a restored copy is compared with, and a child process to read it (a
    Django start, 2 s of CPU) would read the same rows through the same settings."""
    return json.loads(json.dumps(deployment_state.state(), sort_keys=True))


def restored_state_of(env: dict) -> dict:
    """What the restored deployment of ``env`` holds, read before it is shown to be writable
    (``deployment_state --then-write``: its schema the code's, a new row taken) in the same
    process; the new row's key must follow every restored one (its sequences restored)."""
    read = state_of(env, "--then-write")
    assert read["written"] > max(row[0] for row in read["state"]["audit_log"])
    return read["state"]


def manifest_of(backup: Path) -> dict:
    return json.loads((backup / "manifest.json").read_text())


# --- Playing a competition on the worker -------------------------------------------------------


def wait_status(model, pk, field="status"):
    return wait_for(
        lambda: (v := model.objects.values_list(field, flat=True).get(pk=pk)) in DONE and v,
        timeout=180,
        what=f"{model.__name__} #{pk} to be done by the worker",
    )


def play(world) -> None:
    """Uploads (one of them invalid), a freeze with its built-in attacks, a team's attack
    and the publication of the results: every job run by the worker."""
    uploads = {
        "a": noisy_copy(world.original, seed=1, delete=4),
        "b": noisy_copy(world.original, seed=2),
        "c": world.original.replace(b"Male", b"Robot", 1),  # fails validation
    }
    for letter, content in uploads.items():
        submission = services.anonymization_submission_create(
            phase=world.anonymization,
            team=world.teams[letter],
            user=world.users[letter],
            uploaded_file=csv_upload(content),
        )
        expected = Status.FAILED if letter == "c" else Status.FINISHED
        assert wait_status(AnonymizationSubmission, submission.pk) == expected
    freeze = console_round_freeze(user=world.organizer, round=world.round)
    assert wait_status(RoundOperation, freeze.pk) == Status.FINISHED
    targets = list(Target.objects.filter(round=world.round))
    assert len(targets) == 2
    for target in targets:
        assert wait_status(BuiltinAttack, target.pk) == Status.FINISHED
    target_a = next(t for t in targets if t.team_id == world.teams["a"].pk)
    answer = target_truth(target=target_a).copy()
    answer[::3] = 0  # no guess on every third line
    attack = services.attack_submission_create(
        phase=world.attack,
        team=world.teams["b"],
        target=target_a,
        user=world.users["b"],
        uploaded_file=csv_upload("\n".join(map(str, answer)).encode() + b"\n", "attack.csv"),
    )
    assert wait_status(AttackSubmission, attack.pk) == Status.FINISHED
    publish = console_round_publish(user=world.organizer, round=world.round)
    assert wait_status(RoundOperation, publish.pk) == Status.FINISHED


def assert_played(state: dict) -> None:
    """The state holds what ``play`` made (so that comparing two states means something)."""
    (board,) = state["leaderboards"]
    assert sorted(row[1] for row in board["leaderboard"]) == ["teamA", "teamB"]
    assert [row[1] for row in board["final_attack"] if row[0] is not None] == ["teamB"]
    assert any(cell[0].startswith("team:") for cell in board["matrix"])
    actions = {row[4] for row in state["audit_log"]}
    assert {AuditEntry.Action.ROUND_FROZEN, AuditEntry.Action.RESULTS_PUBLISHED} <= actions
    models = {reference[0] for reference in state["files"]["references"]}
    assert {
        "competitions.round",
        "pwscup2015.anonymizationsubmission",
        "pwscup2015.target",
        "pwscup2015.attacksubmission",
    } <= models


def assert_restored(backup: Path, before: dict, restored: dict) -> None:
    assert_played(before)
    assert restored == before
    manifest = manifest_of(backup)
    assert {e["name"]: e["sha256"] for e in manifest["files"]} == before["files"]["sha256"]


# --- A played competition, backed up and restored ----------------------------------------------


@pytest.mark.worker
def test_a_played_competition_restores_into_a_bare_database_and_an_empty_folder(
    world, celery_worker_process, new_database, tmp_path
):
    play(world)
    original = child_env()
    before = state_here()
    backup = tmp_path / "backup"
    made = manage(original, "backup", str(backup))
    assert made.returncode == 0, made.stderr[-3000:]
    database, media = new_database(), tmp_path / "restored-media"
    restored_env = deployment_env(database, media)
    restored = manage(restored_env, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr[-3000:]
    after = restored_state_of(restored_env)
    assert_restored(backup, before, after)
    assert files_under(media) == sorted(before["files"]["sha256"])


@pytest.mark.worker
def test_a_played_competition_on_a_bucket_restores_into_a_migrated_database_and_a_new_bucket(
    s3_server, s3_bucket, make_world, redis_server, new_database, tmp_path
):
    """Everything on S3: the worker keeps its files in the bucket too. The new database is
    prepared by ``migrate`` first, as compose's start-up does (on a copy of the migrated
    template, where it finds nothing to apply: the database it leaves is the same)."""
    log = tmp_path / "worker.log"
    worker = start_worker(
        broker_url=redis_server.url,
        name="backup-s3-worker",
        log_path=log,
        extra_env=s3_server.env(s3_bucket),
    )
    try:
        with broker_at(redis_server.url):
            # Started once its log says it is ready: it takes the jobs ``play`` sends.
            wait_for(
                lambda: worker.poll() is not None or " ready." in log.read_text(),
                what="the bucket's worker to start",
            )
            assert worker.poll() is None, log.read_text()[-3000:]
            world = make_world(slug="bucketcup")
            play(world)
    finally:
        stop_worker(worker)
    original = child_env(**s3_server.env(s3_bucket))
    before = state_here()  # this process's storage is the bucket too (``s3_bucket``)
    backup = tmp_path / "backup"
    made = manage(original, "backup", str(backup))
    assert made.returncode == 0, made.stderr[-3000:]
    new_bucket, database = s3_server.new_bucket(), new_database(migrated=True)
    restored_env = deployment_env(database, tmp_path / "media", **s3_server.env(new_bucket))
    migrated = manage(restored_env, "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    restored = manage(restored_env, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr[-3000:]
    after = restored_state_of(restored_env)
    assert_restored(backup, before, after)
    original_objects = s3_server.objects(s3_bucket)
    assert s3_server.objects(new_bucket) == {
        name: original_objects[name] for name in before["files"]["sha256"]
    }
    assert files_under(tmp_path / "media") == []  # nothing went to the folder


def test_writes_during_the_backup_are_not_in_it(world, new_database, tmp_path, monkeypatch):
    """Another process changes the database and keeps a new file after the backup took its
    snapshot (a new audit entry; the round pointed at a new file): the backup holds the
    state of the snapshot, its files included, and restores to exactly that."""
    before = state_here()
    old_name = world.round.original_file.name
    listing = backup_module.file_references

    def concurrent_write():
        from django.db import connection

        try:
            new_name = default_storage.save("private/rounds/replaced.csv", ContentFile(b"a,b\n"))
            Round.objects.filter(pk=world.round.pk).update(original_file=new_name)
            audit_record(
                user=None, competition=Competition.objects.get(), action="competition_edited"
            )
        finally:
            connection.close()

    def listing_after_a_write():
        writer = threading.Thread(target=concurrent_write)
        writer.start()
        writer.join()
        return listing()

    monkeypatch.setattr(backup_module, "file_references", listing_after_a_write)
    backup = tmp_path / "backup"
    call_command("backup", str(backup))
    changed = state_here()
    assert changed != before and len(changed["audit_log"]) == len(before["audit_log"]) + 1
    assert Round.objects.get().original_file.name != old_name
    names = [entry["name"] for entry in manifest_of(backup)["files"]]
    assert old_name in names and "private/rounds/replaced.csv" not in names
    database, media = new_database(), tmp_path / "restored-media"
    restored_env = deployment_env(database, media)
    restored = manage(restored_env, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr[-3000:]
    assert state_of(restored_env) == before


# --- Refusals --------------------------------------------------------------------------------


@pytest.fixture
def small_backup(world, tmp_path) -> Path:
    """A backup of the world (its round's original and the rows), made in this process."""
    backup = tmp_path / "small-backup"
    call_command("backup", str(backup))
    assert manifest_of(backup)["files"], "the world keeps files"
    return backup


@pytest.fixture
def empty_storage(settings, tmp_path) -> Path:
    """This process's default storage switched to a new empty folder (its path)."""
    empty = tmp_path / "empty-media"
    empty.mkdir()
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(empty)},
        },
    }
    return empty


def test_restore_refuses_a_database_with_rows_and_changes_nothing(small_backup, empty_storage):
    """The test database (the world's rows) as the target, an empty folder as the storage."""
    rows = row_counts()
    with pytest.raises(CommandError, match=r"is not empty \(rows in .*accounts_team"):
        call_command("restore", str(small_backup))
    assert files_under(empty_storage) == []
    assert row_counts() == rows


def test_restore_refuses_a_storage_that_holds_one_of_the_names(small_backup, new_database):
    from django.conf import settings

    database = new_database()
    env = deployment_env(database, Path(settings.MEDIA_ROOT))  # the original's folder
    refused = manage(env, "restore", str(small_backup))
    assert refused.returncode != 0
    assert "The storage already holds" in refused.stderr, refused.stderr
    assert tables_of(database) == []


def _change_a_file(backup: Path) -> str:
    entry = manifest_of(backup)["files"][0]
    path = backup / "files" / entry["name"]
    path.write_bytes(path.read_bytes().replace(b",", b";", 1))
    return f"The file '{entry['name']}' does not match the manifest"


def _change_the_dump(backup: Path) -> str:
    with open(backup / "database.dump", "ab") as dump:
        dump.write(b"\0")
    return "The database dump does not match the manifest"


def _remove_a_file(backup: Path) -> str:
    entry = manifest_of(backup)["files"][0]
    (backup / "files" / entry["name"]).unlink()
    return f"The file '{entry['name']}' is missing from the backup"


def _unknown_version(backup: Path) -> str:
    manifest = manifest_of(backup)
    manifest["version"] = 2
    (backup / "manifest.json").write_text(json.dumps(manifest))
    return "backup format version 2; this release reads version 1 only"


def _escaping_name(backup: Path) -> str:
    manifest = manifest_of(backup)
    manifest["files"][0]["name"] = "../outside.csv"
    (backup / "manifest.json").write_text(json.dumps(manifest))
    return "Refusing the file name '../outside.csv'"


def _no_manifest(backup: Path) -> str:
    (backup / "manifest.json").unlink()
    return "is not a backup, or one that did not finish"


@pytest.mark.parametrize(
    "damage",
    [
        _change_a_file,
        _change_the_dump,
        _remove_a_file,
        _unknown_version,
        _escaping_name,
        _no_manifest,
    ],
)
def test_restore_refuses_a_damaged_backup_and_changes_nothing(
    small_backup, empty_storage, tmp_path, damage
):
    """In this process, on the world's database: the backup's checks come before any look
    at the deployment, so the refusal is the damage's and nothing is changed (the child
    process's answer to a refusal is checked by the two tests around this one)."""
    message = damage(small_backup)
    rows = row_counts()
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(small_backup))
    assert message in str(refused.value)
    assert row_counts() == rows
    assert files_under(empty_storage) == []
    assert not (tmp_path / "outside.csv").exists()


def test_a_restore_whose_database_step_fails_removes_the_files_it_saved(
    small_backup, new_database, tmp_path
):
    """pg_restore fails (a view of the new database depends on a table it must replace):
    its transaction leaves the database as it was, and the files already saved go too."""
    database, media = new_database(), tmp_path / "restored-media"
    env = deployment_env(database, media)
    with connect(database) as conn:
        conn.execute("CREATE TABLE accounts_team (id bigint)")
        conn.execute("CREATE VIEW blocker AS SELECT id FROM accounts_team")
    refused = manage(env, "restore", str(small_backup))
    assert refused.returncode != 0
    assert "pg_restore failed" in refused.stderr, refused.stderr
    assert "files saved" in refused.stdout  # the files were saved before the database step
    assert files_under(media) == []
    assert tables_of(database) == ["accounts_team", "blocker"]


def test_backup_names_every_missing_file_and_leaves_no_backup(world, tmp_path):
    round_ = Round.objects.get()
    name = round_.original_file.name
    default_storage.delete(name)
    backup = tmp_path / "backup"
    with pytest.raises(CommandError) as refused:
        call_command("backup", str(backup))
    message = str(refused.value)
    assert "1 referenced file(s) are missing from the storage" in message
    assert f"competitions.round pk={round_.pk} field original_file: {name!r}" in message
    assert not backup.exists()


def test_backup_refuses_a_folder_that_is_not_empty(world, tmp_path):
    (tmp_path / "old.txt").write_text("an earlier backup")
    with pytest.raises(CommandError, match="is not empty: give a new or empty folder"):
        call_command("backup", str(tmp_path))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["old.txt"]


def test_backup_and_restore_stop_on_sqlite(tmp_path):
    env = {
        **child_env(),
        "DJANGO_SETTINGS_MODULE": "pwscup.settings.local",
        "PWSCUP_VAR_DIR": str(tmp_path / "var"),
    }
    env.pop("DATABASE_URL", None)  # the embedded demo's SQLite
    env.pop("DJANGO_LANGUAGE_CODE", None)
    # A command speaks the site's default language (Japanese), English when asked for.
    stopped = manage(env, "backup", str(tmp_path / "backup"))
    assert stopped.returncode != 0
    assert "バックアップと復元には PostgreSQL が必要です。" in stopped.stderr, stopped.stderr
    for command in ("backup", "restore"):
        stopped = manage({**env, "DJANGO_LANGUAGE_CODE": "en"}, command, str(tmp_path / "backup"))
        assert stopped.returncode != 0
        assert "backup and restore need PostgreSQL" in stopped.stderr, stopped.stderr
    assert not (tmp_path / "backup").exists()
