"""A worker host prepares an original once for all its processes: the prepared original is
kept on the host's own disk, keyed by the original's SHA-256, the configuration and the
scorer; another process of the host neither reads the original from storage nor prepares
it again, and another host (another folder) does both."""

import pytest

import scoring
from pwscup.competitions.models import Round
from pwscup.pwscup2015 import prepared, services
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from tests.support import build_world, csv_upload, noisy_copy

pytestmark = pytest.mark.django_db


@pytest.fixture
def host(settings, tmp_path):
    """This test's worker host: its own cache folder, empty."""
    settings.PWSCUP_PREPARED_CACHE_DIR = tmp_path / "host-1"
    prepared.prepared_cache_clear()
    yield settings
    prepared.prepared_cache_clear()


@pytest.fixture
def preparations(monkeypatch):
    """The tables ``scoring.prepare_original`` was called with (their row counts)."""
    calls = []
    real = scoring.prepare_original

    def counting(table, config):
        calls.append(len(table))
        return real(table, config)

    monkeypatch.setattr(scoring, "prepare_original", counting)
    return calls


def score(world, seed: int, team: str = "a") -> AnonymizationSubmission:
    submission = services.anonymization_submission_create(
        phase=world.anonymization,
        team=world.teams[team],
        user=world.users[team],
        uploaded_file=csv_upload(noisy_copy(world.original, seed=seed)),
    )
    services.anonymization_submission_score(submission_id=submission.pk)
    return AnonymizationSubmission.objects.get(pk=submission.pk)


def another_process() -> None:
    """What a second worker process of the same host starts with: an empty memory."""
    prepared.prepared_cache_clear(host=False)


def test_another_process_of_the_host_neither_downloads_nor_prepares_the_original(
    host, preparations, monkeypatch
):
    world = build_world(slug="host")
    first = score(world, seed=1)
    assert first.status == Status.FINISHED, first.message
    assert preparations == [200]
    assert any(host.PWSCUP_PREPARED_CACHE_DIR.rglob("*.pkl"))

    another_process()
    downloads = []
    real_opened = prepared.opened

    def counting_opened(field):
        downloads.append(field.name)
        return real_opened(field)

    monkeypatch.setattr(prepared, "opened", counting_opened)
    second = score(world, seed=2, team="b")
    assert second.status == Status.FINISHED, second.message
    assert preparations == [200] and downloads == []
    # Loaded from the disk, it scores exactly as a fresh preparation does.
    x = scoring.read_table(world.original)
    fresh = scoring.evaluate(
        x,
        scoring.read_table(noisy_copy(world.original, seed=2)),
        scoring.load_config(world.round.config, x),
    )
    assert second.scores == fresh


def test_another_host_prepares_its_own_copy(host, preparations, tmp_path):
    world = build_world(slug="hosts")
    assert score(world, seed=1).status == Status.FINISHED
    another_process()
    host.PWSCUP_PREPARED_CACHE_DIR = tmp_path / "host-2"
    assert score(world, seed=2, team="b").status == Status.FINISHED
    assert preparations == [200, 200]
    assert any((tmp_path / "host-2").rglob("*.pkl"))


def test_a_new_configuration_or_scorer_is_prepared_afresh(host, preparations, monkeypatch):
    world = build_world(slug="keys")
    score(world, seed=1)
    another_process()
    Round.objects.filter(pk=world.round.pk).update(
        config={**world.round.config, "match_qi": ["sex"]}
    )
    world.anonymization.round.refresh_from_db()
    edited = score(world, seed=2)
    assert edited.status == Status.FINISHED and len(preparations) == 2

    another_process()
    monkeypatch.setattr(prepared, "scorer_fingerprint", lambda: "another-scorer")
    assert score(world, seed=3).status == Status.FINISHED
    assert len(preparations) == 3


def test_the_same_original_in_two_rounds_is_prepared_once(host, preparations):
    first, second = build_world(slug="one"), build_world(slug="two")
    assert first.round.original_sha256 == second.round.original_sha256
    assert score(first, seed=1).status == Status.FINISHED
    another_process()
    assert score(second, seed=1).status == Status.FINISHED
    assert preparations == [200]


def test_the_host_cache_is_bounded(host, preparations):
    host.PWSCUP_PREPARED_CACHE_BYTES = 1  # room for the newest entry only
    small, large = build_world(slug="small", rows=120), build_world(slug="large", rows=180)
    assert score(small, seed=1).status == Status.FINISHED
    assert score(large, seed=1).status == Status.FINISHED
    entries = {path.parent for path in host.PWSCUP_PREPARED_CACHE_DIR.rglob("output.pkl")}
    assert len(entries) == 1
    another_process()
    assert score(large, seed=2).status == Status.FINISHED  # the newest is still there
    assert preparations == [120, 180]
