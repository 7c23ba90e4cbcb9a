"""The demo's round scored by the platform's own program: the program built, the packs in
place, the release phase open now; a demo team (its address with a capital, as the demo's)
downloads its slot's sample release, uploads it and gets a score; the attack phase brought
to the session by the console's action, an attack scored and shown in a band; a second load
adds nothing and deletes nothing."""

import io
import zipfile

import pytest
from django.utils import timezone

from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.competitions.models import Round
from pwscup.competitions.selectors import phase_state
from pwscup.competitions.services import competition_create
from pwscup.scorer import demo, selectors, services
from pwscup.scorer.actions import scorer_actions
from pwscup.scorer.models import DataPack, ProgramVersion, Release
from scoring.scorer.demo import demo_attack_csv
from tests.pwscup.scorer_world import public_release, upload_file

pytestmark = pytest.mark.django_db


def _slot_sample(pack: DataPack, folder: str) -> bytes:
    with pack.file.open("rb") as handle, zipfile.ZipFile(io.BytesIO(handle.read())) as archive:
        return archive.read(f"{folder}/sample_release.csv")


def _member(pack: DataPack, name: str) -> bytes:
    with pack.file.open("rb") as handle, zipfile.ZipFile(io.BytesIO(handle.read())) as archive:
        return archive.read(name)


def test_the_demo_round_is_playable_and_loading_again_keeps_everything():
    organizer = user_create(username="scodemo-org", password="pw")
    competition = competition_create(name="Demo", slug="scodemo", organizers=[organizer])
    teams, users = {}, {}
    for letter in "ab":
        # Addresses with capitals, as the demo's (teamA): a target's name in the sandbox.
        slug = f"team{letter.upper()}"
        teams[letter] = team_create(competition=competition, name=f"T{letter}", slug=slug)
        users[letter] = user_create(username=f"scodemo-{letter}", password="pw")
        membership_add(team=teams[letter], user=users[letter])
    scorer = demo.demo_load(competition, organizer=organizer)
    round_ = scorer.round
    assert round_.slug == demo.SLUG
    assert phase_state(phase=selectors.release_phase(round_), now=timezone.now()) == "open"
    version = ProgramVersion.objects.get(scorer=scorer)
    assert version.status == ProgramVersion.Status.QUEUED  # the worker builds it
    services.program_build(program_id=version.pk)
    assert selectors.current_program(scorer=scorer).pk == version.pk
    packs = selectors.current_packs(scorer=scorer)
    assert set(packs) == {DataPack.Role.REFERENCE, DataPack.Role.PUBLIC, DataPack.Role.SLOTS}
    slots = {slot.team.slug: slot for slot in scorer.slots.all()}
    assert [slots["teamA"].slot, slots["teamB"].slot] == [1, 2]

    releases = {}
    for letter in "ab":
        sample = _slot_sample(packs[DataPack.Role.SLOTS], slots[f"team{letter.upper()}"].folder)
        kept = services.release_upload(
            scorer=scorer,
            team=teams[letter],
            user=users[letter],
            uploaded_file=upload_file(sample, "release.csv"),
        )
        services.release_score(release_id=kept.pk)
        releases[letter] = Release.objects.get(pk=kept.pk)
        assert releases[letter].status == Release.Status.FINISHED, releases[letter].message
    # Slot 1's sample is perturbed less than slot 2's.
    assert releases["a"].scores["utility"] > releases["b"].scores["utility"] > 50

    assert "attack_now" in scorer_actions(round_)
    services.attack_phase_open_now(scorer=scorer, user=organizer)
    scorer.refresh_from_db()
    target = scorer.targets.get(team=teams["a"])
    original = _member(packs[DataPack.Role.PUBLIC], "original.csv")
    guess = demo_attack_csv(public_release(target), original)
    kept = services.attack_upload(
        scorer=scorer,
        team=teams["b"],
        user=users["b"],
        uploaded_file=upload_file(guess, "guess.csv"),
        target=target,
    )
    services.attack_score(attack_id=kept.pk)
    attack = scorer.attacks.get(pk=kept.pk)
    assert attack.status == "finished", attack.message
    config = selectors.round_config(round_)
    seen = selectors.attack_scores_for(
        attack,
        visibility=selectors.attack_visibility(scorer=scorer, is_organizer=False),
        config=config,
    )
    assert seen["reidentified"]["value"] is None
    assert seen["reidentified"]["text"] in {"< 0.25", "0.25–0.5", "0.5–0.75", "≥ 0.75"}

    assert demo.demo_load(competition, organizer=organizer) is None
    assert Round.objects.filter(competition=competition, slug=demo.SLUG).count() == 1
    assert Release.objects.filter(scorer=scorer).count() == 2
