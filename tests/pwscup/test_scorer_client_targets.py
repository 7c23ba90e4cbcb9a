"""``pwscup attack``, ``targets --download`` and ``submit --wait`` on rounds scored by the
organizer's program, as walks of PWSCup 2021 and 2025 found them: a live test server, the
client in its own process (the worker too where it waits for the scores)."""

import zipfile

import pytest

from pwscup.scorer.models import Attack
from tests.pwscup import scorer_world as kit
from tests.pwscup.scorer_world import CONFIG, guess_bytes, release_bytes
from tests.pwscup.test_scorer_client import log_in
from tests.support import run_pwscup as run

pytestmark = pytest.mark.django_db(transaction=True)


def attack_phase_of_c(live_server, tmp_path, *, slug: str, config: dict = CONFIG):
    """Teams A and B released, the attack phase open; team C logged in to the client: the
    world, the targets by slug, C's folder and the round as the client names it."""
    world = kit.scorer_world(slug=slug, config=config)
    kit.release(world, "a", release_bytes(noise=0))
    kit.release(world, "b", release_bytes(noise=20, seed=1))
    targets = kit.attack_phase(world)
    home = tmp_path / "c"
    log_in(live_server, world.users["c"], home)
    return world, targets, home, f"{world.competition.slug}/{world.round.slug}"


def test_an_attack_on_every_target_through_the_client(live_server, tmp_path):
    """PWSCup 2025's one attack upload for every target: `pwscup attack ROUND FILE` needs no
    target (it insisted on one, which the API refuses there), a target given is refused
    before anything is sent; `targets --download` saves each target's public files (it only
    pointed to `pwscup download`)."""
    world, targets, home, ref = attack_phase_of_c(
        live_server, tmp_path, slug="scoall2", config={**CONFIG, "attack_mode": "all_targets"}
    )

    listed = run(["targets", ref, "--download", "t"], config_dir=home)
    assert listed.returncode == 0, listed.stderr
    saved = sorted(p.relative_to(home / "t").as_posix() for p in (home / "t").rglob("*.zip"))
    assert saved == ["teama/teama_public.zip", "teamb/teamb_public.zip"]
    for slug, target in targets.items():
        with zipfile.ZipFile(home / "t" / slug / f"{slug}_public.zip") as archive:
            assert set(archive.namelist()) == set(target.release.public_names)

    (home / "guess.zip").write_bytes(
        kit.zipped({f"{slug}.csv": guess_bytes(t) for slug, t in targets.items()})
    )
    for language, words in (("en", "covers every target"), ("ja", "指定しないでください")):
        named = run(["attack", ref, "teama", "guess.zip"], config_dir=home, language=language)
        assert named.returncode == 2 and words in named.stderr, named.stderr
    assert not Attack.objects.filter(team=world.teams["c"]).exists()
    sent = run(["attack", ref, "guess.zip"], config_dir=home)
    assert sent.returncode == 0, sent.stderr
    kept = Attack.objects.get(team=world.teams["c"])
    assert kept.target is None and sent.stdout.startswith("#1 ")


def test_an_attack_on_one_target_still_needs_its_target(live_server, tmp_path):
    world, targets, home, ref = attack_phase_of_c(live_server, tmp_path, slug="scoone2")
    (home / "guess.csv").write_bytes(guess_bytes(targets["teama"]))
    missing = run(["attack", ref, "guess.csv"], config_dir=home, language="ja")
    assert missing.returncode == 2 and "攻撃対象のチームを指定してください" in missing.stderr
    sent = run(["attack", ref, "teama", "guess.csv"], config_dir=home)
    assert sent.returncode == 0, sent.stderr
    assert Attack.objects.get(team=world.teams["c"]).target.team.slug == "teama"


@pytest.mark.worker
@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "remarks: fails the gate Utility ≥ 1000000"), ("ja", "備考: ゲート 有用性 ≥ 1000000")],
)
def test_submit_wait_says_which_gate_a_release_fails(
    live_server, celery_worker_process, tmp_path, language, words
):
    """A release scored but outside the round's gates: `submit --wait` printed its scores
    as any other's; it says which gate the release fails, as the Submit tab does."""
    gates = [{"key": "utility", "min": 1000000}]
    world = kit.scorer_world(
        slug=f"scogate{language}", letters="ab", config={**CONFIG, "gates": gates}
    )
    home = tmp_path / "a"
    log_in(live_server, world.users["a"], home)
    ref = f"{world.competition.slug}/{world.round.slug}"
    (home / "release.csv").write_bytes(release_bytes(noise=20, seed=1))
    submitted = run(["submit", ref, "release.csv", "--wait"], config_dir=home, language=language)
    assert submitted.returncode == 0, submitted.stderr
    assert words in submitted.stdout
    # `status` heads each score with the round's name for it in the reader's language (it
    # printed the program's key, `utility`, to a Japanese team).
    status = run(["status", ref], config_dir=home, language=language)
    header = next(line for line in status.stdout.splitlines() if line.startswith("#  "))
    assert header.split()[-2] == {"en": "Utility", "ja": "有用性"}[language], header
