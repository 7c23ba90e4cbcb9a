"""The downloadable starter kit: unpacked in a clean folder, its scripts' outputs upload and score."""

import io
import json
import subprocess
import sys
import zipfile

import pytest
from django.urls import reverse

from pwscup.core.toolkit import wheel_filename
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission, Pwscup2015Round
from pwscup.submissions.models import Status
from tests.pwscup.factories import freeze, score, score_attack, scored
from tests.support import build_world, csv_upload

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


def download_kit(client, world, tmp_path, name) -> tuple[set, object]:
    response = client.get(reverse("kit_download", args=[world.competition.slug, world.round.slug]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert 'filename="r1_kit.zip"' in response["Content-Disposition"]
    folder = tmp_path / name
    with zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))) as zf:
        zf.extractall(folder)
        return set(zf.namelist()), folder


def run(folder, script) -> str:
    done = subprocess.run(
        [sys.executable, script], cwd=folder, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    "mode", [Pwscup2015Round.DataMode.SHARED, Pwscup2015Round.DataMode.PER_TEAM]
)
def test_kit_scripts_outputs_upload_through_the_views_and_score(client, tmp_path, mode):
    world = build_world(data_mode=mode)
    client.force_login(world.users["a"])
    data = "teamA_original.csv" if mode == Pwscup2015Round.DataMode.PER_TEAM else "r1_original.csv"

    names, folder = download_kit(client, world, tmp_path, "before")
    assert names == {
        data,
        "r1_config.json",
        "attr_depth.json",
        "README.md",
        "anonymize_example.py",
        "attack_example.py",
        wheel_filename(),
    }, "no target before the freeze"
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert f"python -m scoring evaluate {data} anonymized.csv --config r1_config.json" in readme
    assert "## 日本語" in readme and "## English" in readme
    hierarchy = json.loads((folder / "attr_depth.json").read_text(encoding="utf-8"))
    config = json.loads((folder / "r1_config.json").read_text(encoding="utf-8"))
    assert set(hierarchy) == set(config["qi"])

    assert "anonymized.csv written" in run(folder, "anonymize_example.py")
    url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    content = (folder / "anonymized.csv").read_bytes()
    response = client.post(url, {"file": csv_upload(content, "anonymized.csv")}, **JSON)
    assert response.status_code == 202, response.content
    submission = score(AnonymizationSubmission.objects.get(pk=response.json()["id"]))
    assert submission.status == Status.FINISHED, submission.message
    assert submission.scores["U6"] == 1  # the one outlier deleted by the example

    scored(world, "b", seed=2)
    targets = freeze(world)
    names, folder = download_kit(client, world, tmp_path, "attack")
    assert "targets/teamB_anonymized.csv" in names
    assert "targets/teamA_anonymized.csv" not in names, "never the team's own target"
    assert ("targets/teamB_candidate.csv" in names) == (mode == Pwscup2015Round.DataMode.PER_TEAM)
    run(folder, "attack_example.py")
    answer = (folder / "answers" / "teamB_answer.csv").read_bytes()
    url = reverse("attack_upload", args=[world.competition.slug, world.round.slug])
    data_post = {"target": str(targets["b"].pk), "file": csv_upload(answer, "answer.csv")}
    response = client.post(url, data_post, **JSON)
    assert response.status_code == 202, response.content
    attack = score_attack(AttackSubmission.objects.get(pk=response.json()["id"]))
    assert attack.status == Status.FINISHED, attack.message
    assert attack.correct > 0


def test_kit_is_refused_to_outsiders_and_before_the_phase_opens(client, tmp_path):
    world = build_world()
    url = reverse("kit_download", args=[world.competition.slug, world.round.slug])
    assert client.get(url).status_code == 302  # visitor: log in first
    from pwscup.accounts.services import user_create

    client.force_login(user_create(username="outsider", password="pw"))
    assert client.get(url).status_code == 404
    client.force_login(world.organizer)
    names, _ = download_kit(client, world, tmp_path, "organizer")
    assert "r1_original.csv" in names
    later = build_world(slug="later", anonymization_open=False)
    later.anonymization.opens_at = later.anonymization.closes_at.replace(year=2100)
    later.anonymization.closes_at = later.anonymization.closes_at.replace(year=2101)
    later.anonymization.save()
    client.force_login(later.users["a"])
    later_url = reverse("kit_download", args=[later.competition.slug, later.round.slug])
    assert client.get(later_url).status_code == 404


def test_kit_has_targets_only_once_the_attack_phase_opens_and_never_a_truth(client, tmp_path):
    from pwscup.competitions.models import Phase
    from pwscup.competitions.services import phase_set

    world = build_world()
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    targets = freeze(world)
    span = world.attack.closes_at - world.attack.opens_at
    phase_set(
        round=world.round,
        kind=Phase.Kind.ATTACK,
        opens_at=world.attack.closes_at,
        closes_at=world.attack.closes_at + span,
    )
    client.force_login(world.users["b"])
    names, _ = download_kit(client, world, tmp_path, "upcoming")
    assert not any(name.startswith("targets/") for name in names)
    client.force_login(world.organizer)
    names, folder = download_kit(client, world, tmp_path, "organizer")
    assert {"targets/teamA_anonymized.csv", "targets/teamB_anonymized.csv"} <= names
    assert not any("truth" in name for name in names)
    published = (folder / "targets" / "teamA_anonymized.csv").read_bytes()
    from tests.pwscup.factories import read_field

    assert published == read_field(targets["a"].published_file)
