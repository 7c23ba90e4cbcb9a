"""``pwscup targets ROUND --download DIR`` in a sequential and a synthetic round (a live test
server, the client in its own process): it saves each target's published files under
``DIR/<target>/`` — exactly those, byte for byte: never the team's own files (its master,
its members, its tables), never its own target, never another team's secret (it saved nothing there:
the files were not marked as the targets')."""

import pytest

from pwscup.core.stored import stored_bytes
from pwscup.sequential.models import SeqTarget
from pwscup.synthetic.api import files as syn_files
from tests.pwscup import seq_web_world as seq
from tests.pwscup import syn_world as syn
from tests.pwscup.test_client_kinds import log_in
from tests.support import run_pwscup as run

pytestmark = pytest.mark.django_db(transaction=True)


def saved(folder) -> dict[str, bytes]:
    """Every file under ``folder``, by its path below it."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file()
    }


def team_a_client(world, live_server, tmp_path):
    """Team A logged in to the client: its folder and the round as the client names it."""
    home = tmp_path / "a"
    log_in(live_server, world.users["a"], home)
    return home, f"{world.competition.slug}/{world.round.slug}"


def test_a_sequential_round_s_targets_are_saved_each_in_its_folder(live_server, tmp_path):
    world = seq.attack_phase_world(slug="seqtdl", letters="abc")
    home, ref = team_a_client(world, live_server, tmp_path)

    listed = run(["targets", ref, "--download", "t"], config_dir=home)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.split()[-2:] == ["teamB", "teamC"]
    others = SeqTarget.objects.filter(sequential=world.sequential).exclude(team=world.teams["a"])
    published = {
        f"{target.team.slug}/{name}": text.encode()
        for target in others.select_related("team")
        for name, text in target.files.items()
    }
    assert len(published) >= 2 * 3  # each target's releases, background, counterfeits
    assert saved(home / "t") == published


def test_a_synthetic_round_s_targets_are_saved_each_in_its_folder(live_server, tmp_path):
    world = syn.syn_world(slug="syntdl", letters="abc")
    home, ref = team_a_client(world, live_server, tmp_path)

    # Before the freeze: no target yet, said so (a usage error, as in a round of none);
    # nothing saved.
    early = run(["targets", ref, "--download", "t"], config_dir=home)
    assert early.returncode == 2
    assert "lists no target for your team now (a round with an attack phase" in early.stderr, (
        early.stderr
    )
    assert not (home / "t").exists()

    for letter in "abc":
        syn.release(world, letter, syn.baseline_release(world, letter))
    targets = syn.freeze(world)
    syn.open_attack_phase(world)
    listed = run(["targets", ref, "--download", "t"], config_dir=home, language="ja")
    assert listed.returncode == 0, listed.stderr
    assert "保存しました" in listed.stderr
    published = {}
    for slug in ("teamB", "teamC"):
        target = targets[slug]
        published[f"{slug}/{syn_files.release_name(target.team)}"] = stored_bytes(
            target.release.file
        )
        published[f"{slug}/{syn_files.challenge_name(target)}"] = syn_files.challenge_csv(
            target=target
        ).encode()
    # The targets' files only: not the team's members, not the auxiliary table (every
    # team's, `pwscup download`'s), not team A's own target.
    assert saved(home / "t") == published
