"""The files a scorer round requires of an upload (``release_files`` / ``attack_files``):
checked as the upload is kept, a refused one stored FAILED at once naming the file (in both
languages), never sent to a worker, using none of the team's quota; through the service, the
page's form and its JSON answer, and the rules tab listing them (the console's form:
``test_scorer_console``)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from pwscup.kinds.tabs import OVERVIEW, tab_url
from pwscup.scorer import services
from pwscup.scorer.models import Attack, Release
from pwscup.submissions.messages import job_message_text
from pwscup.submissions.models import Status
from tests.pwscup.scorer_world import (
    CONFIG,
    attack,
    attack_phase,
    guess_bytes,
    release,
    release_bytes,
    scorer_world,
    upload_file,
    zipped,
)

pytestmark = pytest.mark.django_db

RELEASE_ONLY_CSV = {
    **CONFIG,
    "release_files": {"required": ["release.csv"], "only_required": True},
}


def _upload(world, letter, content: bytes, name: str):
    world.scorer.refresh_from_db()
    return services.release_upload(
        scorer=world.scorer,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=upload_file(content, name),
    )


def test_a_release_without_the_required_file_is_failed_at_once_and_costs_no_quota():
    world = scorer_world(
        slug="sf1", letters="a", config=RELEASE_ONLY_CSV, release_limits=(1, None), build=False
    )
    refused = _upload(world, "a", b"id\n", "other.csv")
    stored = Release.objects.get(pk=refused.pk)
    assert stored.status == Status.FAILED and stored.started_at is None
    assert stored.message_code == "scorer.files.missing"
    assert refused.dispatch.sent is None  # no job sent
    with translation.override("en"):
        assert "'release.csv'" in job_message_text(stored)
    with translation.override("ja"):
        text = job_message_text(stored)
        assert "'release.csv'" in text and "ファイルがありません" in text
    # A ZIP holding it and another file is refused, naming the other file.
    other = _upload(world, "a", zipped({"release.csv": b"x", "notes.txt": b"y"}), "r.zip")
    assert other.status == Status.FAILED and other.message_code == "scorer.files.unexpected"
    assert "'notes.txt'" in other.message
    # The daily limit is 1: both refusals used none of it.
    kept = _upload(world, "a", zipped({"release.csv": b"x"}), "r.zip")
    assert kept.status == Status.QUEUED and kept.number == 3
    assert Release.objects.filter(scorer=world.scorer, status=Status.FAILED).count() == 2


def test_a_single_file_is_checked_under_the_name_the_program_sees():
    world = scorer_world(slug="sf2", letters="a", config=RELEASE_ONLY_CSV, build=False)
    assert _upload(world, "a", b"id\n", "release.csv").status == Status.QUEUED
    # A folder in a ZIP is not the top level: data/release.csv does not match release.csv.
    nested = _upload(world, "a", zipped({"data/release.csv": b"x"}), "r.zip")
    assert nested.status == Status.FAILED and nested.message_code == "scorer.files.missing"


def test_a_zip_of_one_file_is_told_which_file_it_lacks():
    # PWSCup 2024: C_0.csv … C_9.csv and id.txt in one ZIP. A ZIP holding C_0.csv alone was
    # told to "put them in one ZIP file", which its team had done.
    rule = {"required": ["C_0.csv", "C_1.csv", "id.txt"], "only_required": True}
    world = scorer_world(
        slug="sf9", letters="a", config={**CONFIG, "release_files": rule}, build=False
    )
    refused = _upload(world, "a", zipped({"C_0.csv": b"x"}), "release.zip")
    assert refused.status == Status.FAILED and refused.message_code == "scorer.files.missing"
    assert "'C_1.csv'" in refused.message
    alone = _upload(world, "a", b"x", "C_0.csv")  # the file sent alone: zip them
    assert alone.message_code == "scorer.files.missing_zip"


def test_a_damaged_zip_is_refused_at_once_when_the_round_requires_files():
    world = scorer_world(slug="sf3", letters="a", config=RELEASE_ONLY_CSV, build=False)
    damaged = _upload(world, "a", b"PK\x03\x04" + b"\x00" * 40, "r.zip")
    assert damaged.status == Status.FAILED and damaged.message_code == "scorer.zip.not_zip"


def test_a_round_requiring_nothing_sends_every_upload_to_the_worker():
    world = scorer_world(slug="sf4", letters="a", build=False)
    kept = _upload(world, "a", b"anything", "whatever.bin")
    assert kept.status == Status.QUEUED


def test_an_attack_without_its_required_file_is_refused_and_a_good_one_is_scored():
    config = {**CONFIG, "attack_files": {"required": ["guess.csv"]}}
    world = scorer_world(slug="sf5", letters="ab", config=config)
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=5, seed=1))
    targets = attack_phase(world)
    world.scorer.refresh_from_db()
    refused = services.attack_upload(
        scorer=world.scorer,
        team=world.teams["a"],
        user=world.users["a"],
        uploaded_file=upload_file(b"x", "my-guess.csv"),
        target=targets["teamb"],
    )
    assert Attack.objects.get(pk=refused.pk).status == Status.FAILED
    assert "'guess.csv'" in refused.message
    # The job, even if delivered, finds it no longer queued and does nothing.
    services.attack_score(attack_id=refused.pk)
    assert Attack.objects.get(pk=refused.pk).message_code == "scorer.files.missing"
    good = attack(world, "a", guess_bytes(targets["teamb"]), target=targets["teamb"])
    assert good.status == Status.FINISHED, good.message
    assert good.number == 2 and "reidentified" in good.scores


def test_the_upload_form_answers_the_refusal_in_the_readers_language(client):
    world = scorer_world(slug="sf6", letters="a", config=RELEASE_ONLY_CSV, build=False)
    client.force_login(world.users["a"])
    url = reverse("scorer:scorer-release-send", args=[world.competition.slug, world.round.slug])
    answer = client.post(
        url,
        {"file": SimpleUploadedFile("wrong.csv", b"id\n", "text/csv")},
        HTTP_ACCEPT="application/json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert answer.status_code == 202
    body = answer.json()
    assert body["status"] == Status.FAILED
    assert "'release.csv'" in body["message"] and "ファイルがありません" in body["message"]
    back = client.post(url, {"file": SimpleUploadedFile("wrong.csv", b"id\n", "text/csv")})
    assert back.status_code == 302
    rules = client.get(
        reverse("round_tab", args=[world.competition.slug, world.round.slug, "rules"])
    ).content.decode()
    assert 'data-testid="release-files"' in rules and "<code>release.csv</code>" in rules
    assert 'data-testid="attack-files"' not in rules


def test_the_api_answers_the_refusal_at_once():
    from django.test import Client

    from pwscup.api.services import api_token_create

    world = scorer_world(slug="sf8", letters="a", config=RELEASE_ONLY_CSV, build=False)
    headers = {
        "HTTP_AUTHORIZATION": "Bearer " + api_token_create(user=world.users["a"], name="t").secret,
        "HTTP_ACCEPT_LANGUAGE": "ja",
    }
    url = reverse("api:scorer-releases", args=[world.competition.slug, world.round.slug])
    answer = Client().post(
        url, {"file": SimpleUploadedFile("r.zip", zipped({"notes.txt": b"x"}))}, **headers
    )
    assert answer.status_code == 202, answer.content
    body = answer.json()
    assert body["status"] == Status.FAILED
    assert "'release.csv'" in body["message"] and "ファイルがありません" in body["message"]


def test_a_rescore_checks_the_files_again_before_any_program_runs():
    """*Rescore with vN* runs every upload another version scored, a refused one too, but not
    one the files check refused and refuses still (no program would run on it: the console
    would ask for it forever). Relaxing the rule makes it owed again; its job checks the
    files once more first: refused by a rule tightened meanwhile, it reaches no program (its
    message stays the check's); accepted, the program scores it."""
    from pwscup.competitions.models import Round
    from scoring.scorer.demo import demo_program_zip
    from tests.pwscup.scorer_world import program_version

    world = scorer_world(slug="sf9", letters="ab", config=RELEASE_ONLY_CSV)
    refused = _upload(world, "a", release_bytes(noise=0), "other.csv")
    missing = _upload(world, "b", release_bytes(noise=0), "mine.csv")
    assert refused.status == missing.status == Status.FAILED
    assert program_version(world, demo_program_zip()).version == 2
    assert services.outdated_uploads(scorer=world.scorer)[Release] == []
    assert services.rescore_outdated(scorer=world.scorer, user=world.organizer) == 0
    # The organizer accepts any file name now: both are owed a run of v2.
    Round.objects.filter(pk=world.round.pk).update(config=CONFIG)
    world.scorer.refresh_from_db()
    assert services.rescore_outdated(scorer=world.scorer, user=world.organizer) == 2
    # The rule is tightened again before the first job runs: it reaches no program.
    Round.objects.filter(pk=world.round.pk).update(config=RELEASE_ONLY_CSV)
    services.release_score(release_id=refused.pk)
    again = Release.objects.get(pk=refused.pk)
    assert again.status == Status.FAILED and again.message_code == "scorer.files.missing"
    assert again.scores in (None, {}) and not again.tail
    Round.objects.filter(pk=world.round.pk).update(config=CONFIG)
    services.release_score(release_id=missing.pk)
    scored = Release.objects.get(pk=missing.pk)
    assert scored.status == Status.FINISHED, scored.message
    assert scored.scores["utility"] > 0


def test_the_console_asks_no_rescore_of_an_upload_the_files_check_refuses_still(client):
    """A team's upload without the required file was the one thing the console counted as
    *Not scored by v1* (and offered to rescore, to no effect) in the PWSCup 2021 walk."""
    world = scorer_world(slug="sfa", letters="a", config=RELEASE_ONLY_CSV)
    assert _upload(world, "a", b"id\n", "other.csv").status == Status.FAILED
    client.force_login(world.organizer)
    page = client.get(
        reverse("console:round", args=[world.competition.slug, world.round.slug]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "Not scored by v1: 0 release(s) and 0 attack(s)." in page
    assert 'data-testid="scorer-rescore-form"' not in page


def test_a_file_named_zip_that_is_no_zip_is_refused_as_such_and_costs_no_quota():
    world = scorer_world(
        slug="sf9", letters="a", config=RELEASE_ONLY_CSV, release_limits=(1, None), build=False
    )
    refused = _upload(world, "a", b"this is not a zip", "release.zip")
    stored = Release.objects.get(pk=refused.pk)
    assert stored.status == Status.FAILED and stored.message_code == "scorer.files.not_zip"
    with translation.override("ja"):
        text = job_message_text(stored)
        assert "'release.zip'" in text and "ZIP" in text and "release.csv" in text
    assert _upload(world, "a", zipped({"release.csv": b"x"}), "r.zip").status == Status.QUEUED


def test_the_overview_and_submit_tab_name_the_files_an_upload_must_hold(client):
    # A team reads the round's required files on the Overview and under each upload form,
    # not only on the Rules tab (PWSCup 2025: CC.csv and DD.json in one ZIP).
    config = {
        **CONFIG,
        "release_files": {"required": ["CC.csv", "DD.json"], "only_required": True},
        "attack_files": {"required": ["FF.csv"]},
    }
    world = scorer_world(slug="sf10", letters="ab", config=config)
    client.force_login(world.users["a"])
    tab = reverse("round_tab", args=[world.competition.slug, world.round.slug, "submit"])
    overview = client.get(
        tab_url(world.round, OVERVIEW), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert 'data-testid="overview-release-files"' in overview
    assert "<code>FF.csv</code> （ほかのファイルも含めて構いません）。" in overview
    page = client.get(tab, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'data-testid="upload-form-files"' in page
    assert "<code>CC.csv</code>、<code>DD.json</code> （ほかのファイルは不可）。" in page
    assert "これらを 1 つの ZIP ファイルにまとめてアップロードしてください。" in page
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=5, seed=1))
    attack_phase(world)
    page = client.get(tab, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="attack-form-files"' in page
    assert "<code>FF.csv</code> (other files may come with them)." in page
    assert "in one ZIP file" not in page.split('data-testid="attack-form-files"')[1][:300]
