"""Issue 9, "Teams see what they are scored against": the configuration in words and as a
download with the command that reproduces the server's scores, and the team's history
(its own numbers, notes, dates with the year, metric names and directions, the final
submission on top, failed uploads folded away)."""

import datetime as dt
import html
import json
import re
import subprocess
import sys
import zoneinfo
from pathlib import Path

import pytest
from django.test import override_settings
from django.urls import reverse

import scoring
from pwscup.competitions.models import Round
from pwscup.competitions.selectors import round_config
from pwscup.core.toolkit import wheel_filename
from pwscup.kinds.tabs import DATA, RULES, SUBMIT, tab_url
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission, Pwscup2015Round
from pwscup.pwscup2015.selectors import ranking_key
from pwscup.submissions.models import Status
from scoring.display import format_metric
from tests.pwscup.factories import (
    answer_bytes,
    attack,
    freeze,
    read_csv_text,
    score,
    scored,
    team_original,
    truth_of,
    upload,
)
from tests.support import csv_upload, noisy_copy, table_bytes

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def page(client, world, letter="a", tab=SUBMIT, **headers) -> str:
    """A tab of the round page as team ``letter`` sees it (its uploads are on Submit)."""
    client.force_login(world.users[letter])
    response = client.get(tab_url(world.round, tab), **headers)
    assert response.status_code == 200
    return response.content.decode()


def by_testid(text: str, testid: str, tag: str) -> str:
    found = re.search(rf'<{tag}[^>]*data-testid="{testid}"[^>]*>(.*?)</{tag}>', text, re.S)
    assert found, f"no <{tag} data-testid={testid}>"
    return html.unescape(found.group(1))


def words(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


def attachment_name(response) -> str:
    return re.search(r'filename="([^"]+)"', response["Content-Disposition"]).group(1)


def body(response) -> bytes:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return response.content


def row_order(text: str, prefix: str = "submission") -> list[int]:
    return [int(pk) for pk in re.findall(rf'<(?:tr|tbody) data-testid="{prefix}-(\d+)"', text)]


# --- The configuration, its download and the command -------------------------------------


@pytest.mark.parametrize("data_mode", ["shared", "per_team"])
def test_the_downloaded_files_and_the_command_give_the_servers_scores(
    make_world, client, tmp_path, data_mode
):
    world = make_world(data_mode=data_mode)
    submission = scored(world, "a", seed=3, delete=5)
    assert submission.status == Status.FINISHED
    text = page(client, world, tab=RULES)
    command = by_testid(text, "cli-command", "pre").strip()

    folder = tmp_path / "team"
    folder.mkdir()
    args = [world.competition.slug, world.round.slug]
    for url in (reverse("config_download", args=args), reverse("original_download", args=args)):
        response = client.get(url)
        assert response.status_code == 200
        (folder / attachment_name(response)).write_bytes(body(response))
    # The team's own file, saved under the name the command asks to replace.
    response = client.get(reverse("submission_file", args=[submission.pk]))
    (folder / "anonymized.csv").write_bytes(body(response))

    expected_original = "teamA_original.csv" if data_mode == "per_team" else "r1_original.csv"
    assert command == (
        f"python -m scoring evaluate {expected_original} anonymized.csv --config r1_config.json"
    )
    assert (folder / expected_original).read_bytes() == team_original(world, "a")
    argv = [sys.executable, *command.split()[1:]]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    as_json = subprocess.run(
        [*argv, "--format", "json"], cwd=folder, env=env, capture_output=True, text=True
    )
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout) == submission.scores
    # The command exactly as shown prints the same numbers as a table.
    table = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True)
    assert table.returncode == 0, table.stderr
    for metric in scoring.METRICS:
        shown = format_metric(metric, submission.scores[metric])
        assert re.search(rf"^{metric}\s+\S.*\s{re.escape(shown)}$", table.stdout, re.M), metric


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_rules_tab_installs_the_toolkit_wheel_of_the_data_tab(world, client, language):
    """The scorer the command runs is the toolkit the Data tab offers (as the kit's README
    says), not a copy of the platform's source."""
    rules = page(client, world, tab=RULES, HTTP_ACCEPT_LANGUAGE=language)
    guide = by_testid(rules, "scoring-guide", "section")
    wheel = wheel_filename()
    line = by_testid(rules, "install-command", "pre").strip()
    assert line == f'pip install "{wheel}[kit]"'  # the extra the kit's methods need
    assert f'<a href="{tab_url(world.round, DATA)}">' in by_testid(rules, "install-how", "p")
    assert "source" not in guide.lower() and "ソース" not in guide
    data = page(client, world, tab=DATA, HTTP_ACCEPT_LANGUAGE=language)
    toolkit = re.search(r'href="([^"]+)" data-testid="download-toolkit"', data).group(1)
    assert toolkit == reverse("toolkit_download", args=[wheel])
    assert f"<code>{line}</code>" in html.unescape(data)  # the very line of the Data tab
    if language == "ja":
        assert "ツールキット（Python の wheel）を仮想環境に一度インストールします" in words(guide)
        assert "Reproduce" not in guide


def test_the_configuration_download_holds_no_value_of_the_original(world, client):
    client.force_login(world.users["b"])
    response = client.get(reverse("config_download", args=[world.competition.slug, "r1"]))
    config = json.loads(response.content)
    assert config == world.round.config
    assert set(config) == {
        "columns", "qi", "sa", "cross", "e2_column", "e4_column",
        "match_qi", "euc_sa", "domains", "integer_columns",
    }  # fmt: skip
    text = response.content.decode()
    for value in ("State-gov", "Bachelors", "77516", "Never-married"):  # Adult's first row
        assert value in world.original.decode()
        assert value not in text


def test_a_round_stored_without_integer_columns_downloads_the_decided_ones(world, client):
    stored = {k: v for k, v in world.round.config.items() if k != "integer_columns"}
    Round.objects.filter(pk=world.round.pk).update(config=stored)
    world.round.refresh_from_db()
    client.force_login(world.users["a"])
    config = json.loads(client.get(reverse("config_download", args=["cup", "r1"])).content)
    assert config["integer_columns"] == list(round_config(round=world.round).integer_columns)
    assert "age" in config["integer_columns"]


def test_the_round_page_tells_the_configuration_in_words(make_world, client):
    world = make_world(utility_gates={"U1": 100, "S1": {"min": 2}}, tie_break_metric="U4")
    text = page(client, world, tab=RULES)
    config = world.round.config
    assert words(by_testid(text, "role-qi", "dd")).startswith(", ".join(config["qi"]))
    assert words(by_testid(text, "role-sa", "dd")).startswith(
        "fnlwgt, education-num, capital-gain, capital-loss, hours-per-week"
    )
    assert words(by_testid(text, "role-cross", "dd")) == "age, workclass, education, sex"
    attacks = words(by_testid(text, "role-attacks", "dd"))
    assert "E2 looks for the nearest value of fnlwgt (e2_column)." in attacks
    assert "E4 looks for the nearest value of hours-per-week (e4_column), QI ignored." in attacks
    assert f"E1, E2, EUC1 and EUC2 match rows on: {', '.join(config['qi'])} (match_qi)." in attacks
    assert (
        "EUC1 and EUC2 measure Euclidean distances over: fnlwgt, education-num, capital-gain, "
        "capital-loss, hours-per-week (euc_sa)." in attacks
    )
    domains = words(by_testid(text, "role-domains", "dd"))
    assert (
        "Every value must occur in the same column of the original: age, workclass, education, "
        "marital-status, occupation, relationship, race, sex, native-country, income." in domains
    )
    assert (
        "Any finite number: fnlwgt, education-num, capital-gain, capital-loss, hours-per-week."
        in domains
    )
    assert "In no role (kept in the file, not scored): income." in domains
    assert "Integer columns, where 39, 39.0 and +39 are the same value: age." in domains
    rule = words(by_testid(text, "rule-words", "dd"))
    assert "Utility gates: S1 ≥ 2, U1 ≤ 100" in rule
    assert "Ties broken by the lower U4." in rule


def test_the_configuration_reads_in_japanese(world, client):
    text = page(client, world, tab=RULES, HTTP_ACCEPT_LANGUAGE="ja")
    guide = by_testid(text, "scoring-guide", "section")
    assert "採点の対象" in guide
    assert "準識別子（QI）" in guide
    assert "What you are scored against" not in guide


def test_only_teams_and_organizers_see_the_configuration(world, client, django_user_model):
    url = reverse("config_download", args=["cup", "r1"])
    rules = tab_url(world.round, RULES)
    assert client.get(rules).content.count(b"cli-command") == 0  # a visitor
    outsider = django_user_model.objects.create_user("outsider", password="pw")
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    assert b"cli-command" not in client.get(rules).content
    client.force_login(world.organizer)
    assert client.get(url).status_code == 200
    assert b"r1_original.csv anonymized.csv" in client.get(rules).content


# --- Per-team numbers, dates, metric headers ----------------------------------------------


def test_uploads_are_numbered_per_team_and_phase(world):
    first = upload(world, "a", noisy_copy(world.original, seed=1))
    other_team = upload(world, "b", noisy_copy(world.original, seed=2))
    broken = score(upload(world, "a", b"not,a\nvalid,table\n"))
    third = upload(world, "a", noisy_copy(world.original, seed=3))
    assert broken.status == Status.FAILED
    assert [first.number, broken.number, third.number] == [1, 2, 3]
    assert other_team.number == 1
    assert first.pk != 1 or other_team.pk != 1  # the global ids are not the numbers
    score(first)
    score(other_team)
    targets = freeze(world)
    hit = attack(world, "b", targets["a"], answer_bytes(truth_of(targets["a"])))
    assert hit.number == 1  # the attack phase counts on its own


def test_the_table_shows_numbers_and_dates_with_the_year(world, client):
    first = scored(world, "a", seed=1)
    second = scored(world, "a", seed=2)
    text = page(client, world)
    local = second.created_at.astimezone(zoneinfo.ZoneInfo(world.round.timezone))
    row = re.search(rf'<tr data-testid="submission-{second.pk}".*?</tr>', text, re.S).group(0)
    assert by_testid(row, "number", "td") == "#2"
    assert f">{local:%Y-%m-%d %H:%M:%S}<" in row
    first_row = re.search(rf'<tr data-testid="submission-{first.pk}".*?</tr>', text, re.S).group(0)
    assert by_testid(first_row, "number", "td") == "#1"


def test_metric_headers_carry_the_full_name_and_the_better_direction(world, client):
    scored(world, "a")
    text = page(client, world)
    for metric in scoring.METRICS:
        header = re.search(rf'<th[^>]*data-testid="metric-{metric}"[^>]*>(.*?)</th>', text, re.S)
        arrow = "↓" if scoring.LOWER_IS_BETTER[metric] else "↑"
        assert words(html.unescape(header.group(1))) == (
            f"{metric} {arrow} {scoring.METRIC_NAMES[metric].removesuffix(' (' + metric + ')')}"
        ), metric
    title = re.search(r'<th[^>]*title="([^"]*)"[^>]*data-testid="metric-S1"', text).group(1)
    assert html.unescape(title) == (
        "S1 k-anony: k-anonymity: size of the smallest equivalence class over all QI columns "
        "(higher is better)"
    )
    ja = page(client, world, HTTP_ACCEPT_LANGUAGE="ja")
    title = re.search(r'<th[^>]*title="([^"]*)"[^>]*data-testid="metric-U6"', ja).group(1)
    assert html.unescape(title) == "U6 nrow: 削除した行の数 (小さいほど良い)"


# --- Final on top, failed uploads folded --------------------------------------------------


def test_the_chosen_final_submission_is_listed_first(world, client):
    first = scored(world, "a", seed=1)
    chosen = scored(world, "a", seed=2)
    last = scored(world, "a", seed=3)
    client.force_login(world.users["a"])
    client.post(reverse("submission_select", args=[chosen.pk]))
    text = page(client, world)
    assert row_order(text) == [chosen.pk, last.pk, first.pk]
    assert re.search(rf'<tr data-testid="submission-{chosen.pk}"[^>]*data-final="1"', text)
    assert text.count('data-final="1"') == 1
    assert "chosen by your team" in words(by_testid(text, "final-why", "span"))


def test_without_a_choice_the_last_valid_one_is_first_and_marked_final(world, client):
    first = scored(world, "a", seed=1)
    last = scored(world, "a", seed=2)
    pending = upload(world, "a", noisy_copy(world.original, seed=3))
    text = page(client, world)
    assert row_order(text) == [last.pk, pending.pk, first.pk]
    assert words(by_testid(text, "final-why", "span")) == "your last valid one"


def test_under_the_best_rule_the_best_one_is_first(make_world, client):
    world = make_world(selection_rule=Pwscup2015Round.SelectionRule.BEST)
    table = read_csv_text(world.original)
    for column in ("age", "education", "occupation"):  # QI values moved to other rows
        table[column] = table[column].sample(frac=1.0, random_state=4).to_numpy()
    safer = score(upload(world, "a", table_bytes(table)))
    plain = scored(world, "a", seed=2)
    assert ranking_key(safer.scores, world.round) < ranking_key(plain.scores, world.round)
    text = page(client, world)
    assert row_order(text) == [safer.pk, plain.pk]
    assert words(by_testid(text, "final-why", "span")) == "your best valid one"
    # The rule picks the final one: no "Make final" button that would change nothing.
    assert 'data-testid="make-final"' not in text
    assert "Your best valid submission is your final one." in text


def test_failed_uploads_are_folded_away_unless_the_newest_one_failed(world, client):
    good = scored(world, "a", seed=1)
    broken = score(upload(world, "a", b"not,a\nvalid,table\n"))
    text = page(client, world)
    folded = re.search(r'<details class="failed-uploads"[^>]*>', text).group(0)
    assert " open" in folded  # the newest upload failed: its reason is in view
    details = text[text.index(folded) :]
    assert row_order(details) == [broken.pk]
    assert words(by_testid(details, "failed-uploads", "details")).startswith(
        "1 failed upload (not counted in your quota)"
    )
    assert row_order(text[: text.index(folded)]) == [good.pk]
    newer = scored(world, "a", seed=2)
    text = page(client, world)
    folded = re.search(r'<details class="failed-uploads"[^>]*>', text).group(0)
    assert " open" not in folded
    assert row_order(text[: text.index(folded)]) == [newer.pk, good.pk]


# --- Notes --------------------------------------------------------------------------------


def post_upload(client, world, content: bytes, note: str):
    url = reverse("anonymization_upload", args=["cup", "r1"])
    return client.post(
        url, {"file": csv_upload(content), "note": note}, HTTP_ACCEPT="application/json"
    )


def test_a_note_written_at_upload_is_kept_and_shown_to_the_team(world, client):
    client.force_login(world.users["a"])
    response = post_upload(client, world, noisy_copy(world.original), "k=5 + noise σ=12")
    assert response.status_code == 202
    submission = AnonymizationSubmission.objects.get(pk=response.json()["id"])
    assert submission.note == "k=5 + noise σ=12"
    row = re.search(
        rf'<tr data-testid="submission-{submission.pk}".*?</tr>', page(client, world), re.S
    )
    assert "k=5 + noise σ=12" in words(by_testid(row.group(0), "note", "td"))
    assert "k=5 + noise σ=12" not in page(client, world, "b")


def test_the_status_json_carries_the_number_and_the_note(world, client):
    client.force_login(world.users["a"])
    post_upload(client, world, noisy_copy(world.original, seed=1), "")
    post_upload(client, world, noisy_copy(world.original, seed=2), "swap ages")
    rows = client.get(reverse("status_json", args=["cup", "r1"])).json()["submissions"]
    assert [(row["number"], row["note"]) for row in rows] == [(2, "swap ages"), (1, "")]


@override_settings(TIME_ZONE="Asia/Tokyo")
def test_the_status_json_writes_when_in_the_servers_time_zone_not_utc(world, client):
    """``created_at`` as every answer writes a moment (``answer_moment``): ISO 8601 with the
    server's offset, the clock the pages show, not the database's UTC."""
    client.force_login(world.users["a"])
    post_upload(client, world, noisy_copy(world.original, seed=1), "")
    (row,) = client.get(reverse("status_json", args=["cup", "r1"])).json()["submissions"]
    submission = AnonymizationSubmission.objects.get(pk=row["id"])
    assert row["created_at"].endswith("+09:00")
    assert dt.datetime.fromisoformat(row["created_at"]) == submission.created_at


def test_a_note_longer_than_200_characters_is_refused_with_the_limit(world, client):
    client.force_login(world.users["a"])
    response = post_upload(client, world, noisy_copy(world.original), "x" * 201)
    assert response.status_code == 400
    assert (
        "Note (optional): Ensure this value has at most 200 characters (it has 201)."
        == (response.json()["error"])
    )
    assert not AnonymizationSubmission.objects.exists()


def test_the_team_edits_a_note_afterwards(world, client):
    submission = scored(world, "a")
    url = reverse("submission_note", args=[submission.pk])
    client.force_login(world.users["a"])
    assert client.get(url).status_code == 200
    response = client.post(url, {"note": "  micro-aggregation,\n k=3 "})
    assert response.status_code == 302
    submission.refresh_from_db()
    assert submission.note == "micro-aggregation, k=3"
    assert client.post(url, {"note": ""}).status_code == 302
    submission.refresh_from_db()
    assert submission.note == ""
    too_long = client.post(url, {"note": "y" * 201})
    assert too_long.status_code == 200
    assert "at most 200 characters" in too_long.content.decode()
    for other in (world.users["b"], world.organizer):
        client.force_login(other)
        assert client.get(url).status_code == 404
        assert client.post(url, {"note": "not theirs"}).status_code == 404
    submission.refresh_from_db()
    assert submission.note == ""


def test_attacks_carry_a_note_and_their_number(world, client):
    scored(world, "a")
    scored(world, "b")
    targets = freeze(world)
    client.force_login(world.users["b"])
    response = client.post(
        reverse("attack_upload", args=["cup", "r1"]),
        {
            "target": targets["a"].pk,
            "file": csv_upload(answer_bytes(truth_of(targets["a"]))),
            "note": "nearest fnlwgt",
        },
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 202, response.content
    made = AttackSubmission.objects.get(pk=response.json()["id"])
    assert (made.number, made.note) == (1, "nearest fnlwgt")
    row = re.search(rf'<tr data-testid="attack-{made.pk}".*?</tr>', page(client, world, "b"), re.S)
    assert by_testid(row.group(0), "number", "td") == "#1"
    assert "nearest fnlwgt" in words(by_testid(row.group(0), "note", "td"))
    url = reverse("attack_note", args=[made.pk])
    assert client.post(url, {"note": "second try"}).status_code == 302
    made.refresh_from_db()
    assert made.note == "second try"
