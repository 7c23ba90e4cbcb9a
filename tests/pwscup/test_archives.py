"""The results archive of a played and published 2015 round: what it holds, what it never
holds unless ticked, who may fetch it, its versions and its manifest."""

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.archives.models import ResultsArchive
from pwscup.archives.services import archive_publish
from pwscup.competitions.models import AuditEntry, Competition
from pwscup.kinds.archives import GROUND_TRUTH, ORIGINAL, PERMUTATIONS, SAMPLES
from pwscup.kinds.round_basics import RoundBasics
from pwscup.pwscup2015.models import TeamDataset
from pwscup.pwscup2015.services.rounds import round_create
from tests.pwscup.archive_world import (
    ALL_SECRETS,
    archive_zip,
    body,
    fetch,
    leaks,
    manifest,
    play_2015,
    publish_and_read,
    secrets_2015,
    sha256,
)
from tests.pwscup.factories import read_field
from tests.support import adult_config, adult_head

pytestmark = pytest.mark.django_db

ROUND_FILES = {"final_anonymization.csv", "final_attack.csv", "attack_matrix.csv"}


@pytest.fixture
def played(make_world):
    world = make_world(data_mode="per_team")
    targets = play_2015(world)
    return world, targets


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_participant_downloads_the_archive_and_it_holds_no_secret(played):
    world, targets = played
    archive = archive_publish(competition=world.competition, secrets=[], user=world.organizer)
    assert archive.version == 1 and archive.secrets == []
    response = fetch(client_of(world.users["b"]), world.competition.slug, 1)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert 'filename="cup-results-v1.zip"' in response["Content-Disposition"]
    content = body(response)
    assert sha256(content) == archive.sha256 and len(content) == archive.size
    members = archive_zip(content)
    names = set(members)
    assert {f"rounds/r1/{name}" for name in ROUND_FILES} <= names
    assert {f"rounds/r1/targets/team{x}/anonymized.csv" for x in "ABC"} <= names
    assert {"manifest.json", "README.md", "data-card.md", "data-card.json"} <= names
    # The published targets are the tables the attackers were given, byte for byte.
    for letter, target in targets.items():
        published = members[f"rounds/r1/targets/team{letter.upper()}/anonymized.csv"]
        assert published == read_field(target.published_file)
    # Nothing of any secret: not the original nor a row of it, no sample nor a row of one,
    # no candidate table, no truth file, in any member nor in the ZIP's own bytes.
    found = secrets_2015(world, targets)
    assert found["samples"] and found["truth"] and len(found["original"]) > 100
    every = found["original"] + found["samples"] + found["truth"]
    assert leaks(members, every) == []
    assert leaks({"zip": content}, every) == []
    assert not [n for n in names if "truth" in n or "sample" in n or "original" in n]
    data = manifest(members)
    assert data["secrets"] == [] and all(m["secret"] == "" for m in data["members"])
    # The final ranking's columns are every score of every target.
    final = members["rounds/r1/final_anonymization.csv"].decode().splitlines()
    assert final[0].split(",")[:4] == ["rank", "team", "passes_gates", "worst_case_rate"]
    for metric in ("U1", "U6", "S1", "S2", "E1", "E4", "EUC1", "EUC2"):
        assert metric in final[0].split(",")
    assert len(final) == 4
    matrix = members["rounds/r1/attack_matrix.csv"].decode().splitlines()
    assert matrix[0] == "attacker,Team A,Team B,Team C"
    assert matrix[3].startswith("Team C,1.0,")  # C's attack on A used the truth itself


def test_each_ticked_secret_adds_exactly_its_own_members(played):
    world, targets = played
    _archive, base = publish_and_read(world.competition)
    base_names = set(base)
    expected = {
        ORIGINAL: {"rounds/r1/original.csv"},
        SAMPLES: {f"rounds/r1/samples/team{x}.csv" for x in "ABC"}
        | {f"rounds/r1/targets/team{x}/candidate.csv" for x in "ABC"},
        PERMUTATIONS: {f"rounds/r1/targets/team{x}/truth.csv" for x in "ABC"},
        GROUND_TRUTH: {f"rounds/r1/ground_truth/team{x}_sample_rows.csv" for x in "ABC"},
    }
    for key in ALL_SECRETS:
        archive, members = publish_and_read(world.competition, secrets=[key])
        added = set(members) - base_names
        assert added == expected[key], key
        assert set(base_names) - {"manifest.json"} <= set(members)
        data = manifest(members)
        assert data["secrets"] == [key] and archive.secrets == [key]
        assert {m["name"] for m in data["members"] if m["secret"]} == added
        assert {m["secret"] for m in data["members"] if m["secret"]} == {key}
    _archive, members = publish_and_read(world.competition, secrets=[ORIGINAL])
    assert members["rounds/r1/original.csv"] == world.original
    _archive, members = publish_and_read(world.competition, secrets=[PERMUTATIONS, SAMPLES])
    for letter, target in targets.items():
        upper = letter.upper()
        assert members[f"rounds/r1/targets/team{upper}/truth.csv"] == read_field(target.truth_file)
        dataset = TeamDataset.objects.get(round=world.round, team=world.teams[letter])
        assert members[f"rounds/r1/samples/team{upper}.csv"] == read_field(dataset.file)
    _archive, members = publish_and_read(world.competition, secrets=[GROUND_TRUTH])
    rows = members["rounds/r1/ground_truth/teamA_sample_rows.csv"].decode().splitlines()
    dataset = TeamDataset.objects.get(round=world.round, team=world.teams["a"])
    assert rows[0] == "sample_row,original_row"
    assert rows[1] == f"1,{dataset.sample_index[0] + 1}" and len(rows) == 61


def test_the_manifest_and_the_data_card(played):
    world, _targets = played
    archive, members = publish_and_read(world.competition, secrets=[ORIGINAL])
    data = manifest(members)
    assert data["format"] == "pwscup-results-archive" and data["format_version"] == 1
    assert data["version"] == 1 and data["competition"] == {"name": "Cup cup", "slug": "cup"}
    assert data["created_at"] == archive.created_at.isoformat()
    assert data["rounds"] == [{"slug": "r1", "name": "Round", "kind": "pwscup2015"}]
    listed = {m["name"]: m for m in data["members"]}
    assert set(listed) == set(members) - {"manifest.json"}
    for name, entry in listed.items():
        assert entry["sha256"] == sha256(members[name]) and entry["size"] == len(members[name])
    card = __import__("json").loads(members["data-card.json"])
    (round_card,) = card["rounds"]
    assert round_card["kind"] == "pwscup2015" and round_card["round"] == "r1"
    assert round_card["original"]["rows"] == 200
    assert round_card["original"]["sha256"] == sha256(world.original)
    roles = {c["name"]: c["role"] for c in round_card["columns"]}
    assert roles["age"] == "quasi-identifier" and roles["fnlwgt"] == "sensitive"
    assert roles["income"] == "other"
    assert "Per-team sample" in round_card["rules"] and "60 rows per team" in round_card["rules"]
    markdown = members["data-card.md"].decode()
    assert "| age | quasi-identifier |" in markdown and world.round.original_sha256 in markdown
    readme = members["README.md"].decode()
    assert "version 1" in readme and "第 1 版" in readme and "**original**" in readme
    assert "**元データ（original）**" in readme  # the Japanese half names it in Japanese


def test_versions_increment_and_every_version_stays_downloadable(played):
    world, _targets = played
    first = archive_publish(competition=world.competition, secrets=[], user=world.organizer)
    second = archive_publish(
        competition=world.competition, secrets=[PERMUTATIONS], user=world.organizer
    )
    assert (first.version, second.version) == (1, 2)
    assert first.file.name != second.file.name
    client = client_of(world.users["c"])
    one, two = fetch(client, "cup", 1), fetch(client, "cup", 2)
    assert one.status_code == two.status_code == 200
    assert manifest(archive_zip(body(one)))["version"] == 1
    assert manifest(archive_zip(body(two)))["version"] == 2
    assert fetch(client, "cup", 3).status_code == 404
    page = client.get(reverse("competition_detail", args=["cup"])).content.decode()
    assert 'data-testid="archive-latest"' in page and "/c/cup/archive/v2.zip" in page
    assert 'data-testid="archive-v1"' in page and "/c/cup/archive/v1.zip" in page
    assert list(
        AuditEntry.objects.filter(action=AuditEntry.Action.ARCHIVE_PUBLISHED)
        .order_by("pk")
        .values_list("detail__version", flat=True)
    ) == [1, 2]


def test_a_team_can_never_fetch_a_secret_through_an_archive_url(played, make_world):
    """Every archive address a team could try: the versions published without secrets,
    guessed member names, versions that do not exist, another competition's archive under
    this competition's address."""
    world, targets = played
    other = make_world(slug="other", username=lambda slug, who: f"o-{who}")
    play_2015(other)
    archive_publish(competition=world.competition, secrets=[], user=world.organizer)
    archive_publish(competition=other.competition, secrets=ALL_SECRETS, user=other.organizer)
    found = secrets_2015(world, targets)
    every = found["original"] + found["samples"] + found["truth"]
    team = client_of(world.users["a"])
    assert leaks(archive_zip(body(fetch(team, "cup", 1))), every) == []
    guesses = [
        "/c/cup/archive/v2.zip",
        "/c/cup/archive/v0.zip",
        "/c/cup/archive/v-1.zip",
        "/c/cup/archive/original.csv",
        "/c/cup/archive/v1/original.csv",
        "/c/cup/archive/v1.zip/original.csv",
        "/c/cup/archive/v1.zip/rounds/r1/original.csv",
        "/c/cup/archive/latest.zip",
        "/c/cup/archive/",
        "/c/cup/archive/r1/truth.csv",
    ]
    for address in guesses:
        response = team.get(address)
        assert response.status_code == 404, address
    # The other competition's v1 holds every secret: it is not reachable from this one's
    # address, and the other competition's address answers only its own (listed) archive.
    assert ResultsArchive.objects.filter(competition=other.competition, version=1).exists()
    assert ResultsArchive.objects.filter(competition=world.competition, version=1).exists()
    assert manifest(archive_zip(body(fetch(team, "cup", 1))))["secrets"] == []
    assert fetch(team, "cup", 2).status_code == 404
    Competition.objects.filter(pk=other.competition.pk).update(is_listed=False)
    assert fetch(team, "other", 1).status_code == 404
    assert fetch(Client(), "other", 1).status_code == 404


def test_an_unlisted_competitions_archive_is_404_for_strangers(played, django_user_model):
    world, _targets = played
    archive_publish(competition=world.competition, secrets=[], user=world.organizer)
    Competition.objects.filter(pk=world.competition.pk).update(is_listed=False)
    stranger = django_user_model.objects.create_user("stranger", password="pw")
    assert fetch(Client(), "cup", 1).status_code == 404
    assert fetch(client_of(stranger), "cup", 1).status_code == 404
    assert fetch(client_of(world.users["a"]), "cup", 1).status_code == 200
    assert fetch(client_of(world.organizer), "cup", 1).status_code == 200
    Competition.objects.filter(pk=world.competition.pk).update(is_listed=True)
    assert fetch(Client(), "cup", 1).status_code == 200  # a listed competition's visitors


def test_rounds_whose_results_are_not_published_are_left_out(make_world):
    world = make_world()
    play_2015(world)
    lines = adult_head(320).splitlines(keepends=True)
    second = b"".join([lines[0], *lines[201:]])  # none of r1's rows
    round_create(
        basics=RoundBasics(competition=world.competition, name="Second", slug="r2"),
        original=second,
        original_filename="second.csv",
        config_raw=adult_config(),
    )
    _archive, members = publish_and_read(world.competition, secrets=ALL_SECRETS)
    data = manifest(members)
    assert [r["slug"] for r in data["rounds"]] == ["r1"]
    assert data["left_out"] == [
        {"slug": "r2", "name": "Second", "reason": "its results are not published"}
    ]
    assert not [name for name in members if name.startswith("rounds/r2/")]
    everything = b"".join(members.values())
    assert world.original in everything  # r1's, ticked
    assert not [line for line in second.splitlines()[1:] if line in everything]
    console = client_of(world.organizer).get(reverse("archives:console", args=["cup"]))
    page = console.content.decode()
    assert 'data-testid="archive-round-r1"' in page
    assert 'data-testid="archive-left-out-r2"' in page and "not published" in page


def test_nothing_to_archive_before_any_round_is_published(make_world):
    world = make_world()
    play_2015(world, publish=False)
    client = client_of(world.organizer)
    url = reverse("archives:console", args=["cup"])
    response = client.post(url, {})
    assert response.status_code == 200
    assert "nothing to archive" in response.content.decode()
    assert not ResultsArchive.objects.exists()


def test_the_console_page_publishes_with_every_secret_unticked_by_default(played):
    world, _targets = played
    url = reverse("archives:console", args=["cup"])
    for outsider in (world.users["a"],):
        assert client_of(outsider).get(url).status_code == 404
        assert client_of(outsider).post(url, {ORIGINAL: "on"}).status_code == 404
    assert Client().get(url).status_code == 302  # to the login page
    organizer = client_of(world.organizer)
    page = organizer.get(url).content.decode()
    for key in ALL_SECRETS:
        assert f'data-testid="secret-{key}"' in page
    assert " checked" not in page
    assert page.count("everybody who sees this competition will be able to download it") == 4
    assert "Publish version 1" in page
    response = organizer.post(url, {PERMUTATIONS: "on"}, follow=True)
    assert response.status_code == 200 and "Version 1 of the archive is published" in (
        response.content.decode()
    )
    archive = ResultsArchive.objects.get()
    assert archive.secrets == [PERMUTATIONS] and archive.created_by == world.organizer
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ARCHIVE_PUBLISHED)
    assert entry.detail["secrets"] == "permutations" and entry.user == world.organizer
    again = organizer.get(url).content.decode()
    assert "Publish version 2" in again and 'data-testid="archive-version-1"' in again
    card = organizer.get(reverse("console:competition", args=["cup"])).content.decode()
    assert 'data-testid="archives-console"' in card and "Version 1 is published" in card
    assert reverse("archives:console", args=["cup"]) in card


def test_an_unknown_secret_is_refused_by_name(played):
    from django.core.exceptions import ValidationError

    world, _targets = played
    with pytest.raises(ValidationError) as refused:
        archive_publish(competition=world.competition, secrets=["everything"], user=None)
    assert "everything" in str(refused.value)
    assert not ResultsArchive.objects.exists()


def test_a_storage_that_cannot_take_the_archive_refuses_it_with_nothing_kept(
    played, settings, tmp_path
):
    world, _targets = played
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the media folder should be")
    settings.MEDIA_ROOT = blocker / "media"  # every write fails (NotADirectoryError)
    organizer = client_of(world.organizer)
    url = reverse("archives:console", args=["cup"])
    response = organizer.post(url, {}, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 503 and int(response["Retry-After"]) >= 1
    assert "現在、ファイルを保存できません" in response.content.decode()
    assert 'data-testid="archive-error"' in response.content.decode()
    assert not ResultsArchive.objects.exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.ARCHIVE_PUBLISHED).exists()
