"""A round's data choice (issue 50, point 4): the organizer offers packs in the console (posted
as the page renders it, by a co-organizer who is not a superuser), a team picks one on the
Data tab (English and Japanese), its first upload locks the pick, the organizer changes it
with an audit line; in a scorer round, the run gets the team's choice in ``context.json`` and
the reference pack of that choice, and the team downloads the public pack of its choice and
only its own slot folder."""

import io
import json
import re
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.competitions.choice_selectors import team_choice, team_pick
from pwscup.competitions.models import AuditEntry
from pwscup.scorer import services
from pwscup.scorer.models import DataPack
from tests.pwscup.rendered_forms import form_fields_of, post_data
from tests.pwscup.scorer_world import (
    attack,
    attack_phase,
    program_version,
    release,
    scorer_world,
    upload_file,
    zipped,
)

pytestmark = pytest.mark.django_db

CHOICES = [("adult", "Adult census", "成人調査"), ("bank", "Bank", "銀行"), ("pop3", "Pop 3", "")]

# A program that writes its context's choice and the file of its ``ref/`` into its results.
PROGRAM_METADATA = b"""description: data choice probe
release_command: python3 $program/score.py $input $output
attack_command: python3 $program/score.py $input $output
"""
PROGRAM_SCORE = b"""import json, os, sys
input_dir, output_dir = sys.argv[1], sys.argv[2]
with open(os.path.join(input_dir, "context.json"), encoding="utf-8") as file:
    context = json.load(file)
with open(os.path.join(input_dir, "ref", "which.txt"), encoding="utf-8") as file:
    which = file.read().strip()
with open(os.path.join(output_dir, "scores.json"), "w", encoding="utf-8") as file:
    json.dump({"utility": float(which)}, file)
with open(os.path.join(output_dir, "detailed_results.html"), "w", encoding="utf-8") as file:
    file.write("choice=%s ref=%s" % (context.get("choice"), which))
"""


def probe_program() -> bytes:
    return zipped({"metadata": PROGRAM_METADATA, "score.py": PROGRAM_SCORE})


@pytest.fixture
def world():
    return scorer_world(slug="dch", program=probe_program())


def console_url(world) -> str:
    return reverse("console:round", args=[world.competition.slug, world.round.slug])


def data_tab(world) -> str:
    return reverse("round_tab", args=[world.competition.slug, world.round.slug, "data"])


def offer_choices(world) -> Client:
    """The organizer fills the three empty rows of the console's card and saves."""
    client = Client()
    client.force_login(world.organizer)
    page = client.get(console_url(world)).content.decode()
    fields = form_fields_of(page, "round-data-choice-form")
    fill = {}
    for index, (key, label, label_ja) in enumerate(CHOICES):
        fill |= {
            f"choices-{index}-key": key,
            f"choices-{index}-label": label,
            f"choices-{index}-label_ja": label_ja,
        }
    action = reverse("console:round_choices", args=[world.competition.slug, world.round.slug])
    response = client.post(action, post_data(fields, fill), follow=True)
    assert response.status_code == 200
    assert "The round&#x27;s data packs are saved." in response.content.decode()
    return client


def member(world, letter: str) -> Client:
    client = Client()
    client.force_login(world.users[letter])
    return client


def pick_on_data_tab(world, letter: str, key: str, language: str = "en"):
    client = member(world, letter)
    page = client.get(data_tab(world), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    fields = form_fields_of(page, "data-choice-form")
    action = reverse("data_choice", args=[world.competition.slug, world.round.slug])
    return client.post(
        action, post_data(fields, {"choice": key}), follow=True, HTTP_ACCEPT_LANGUAGE=language
    )


def pack(world, role: str, files: dict, choice: str = ""):
    return services.pack_upload(
        scorer=world.scorer,
        role=role,
        uploaded_file=upload_file(zipped(files), f"{role}-{choice or 'none'}.zip"),
        user=world.organizer,
        choice=choice,
    )


def zip_names(response) -> dict:
    data = b"".join(response) if response.streaming else response.content
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_organizer_offers_packs_as_the_console_renders_them(world):
    assert not world.organizer.is_superuser
    offer_choices(world)
    choices = list(world.round.data_choices.order_by("order"))
    assert [(c.key, c.label, c.label_ja, c.order) for c in choices] == [
        ("adult", "Adult census", "成人調査", 1),
        ("bank", "Bank", "銀行", 2),
        ("pop3", "Pop 3", "", 3),
    ]
    entry = AuditEntry.objects.filter(round=world.round).latest("created_at")
    assert entry.detail == {"data_choices": ["adult", "bank", "pop3"]}


def test_the_card_offers_three_more_rows_after_a_save(world):
    """PWSCup 2022 offered six datasets: three on the first save, three more on the next
    (one empty row at a time took four saves)."""
    offer_choices(world)
    fill = {}
    for index, key in enumerate(("d4", "d5", "d6"), start=3):
        fill |= {f"choices-{index}-key": key, f"choices-{index}-label": key.upper()}
    post_card(world, fill)
    keys = list(world.round.data_choices.order_by("order").values_list("key", flat=True))
    assert keys == ["adult", "bank", "pop3", "d4", "d5", "d6"]


def post_card(world, fill: dict) -> str:
    """The organizer sends the console's card as rendered with ``fill`` typed; the page."""
    client = Client()
    client.force_login(world.organizer)
    page = client.get(console_url(world)).content.decode()
    fields = form_fields_of(page, "round-data-choice-form")
    action = reverse("console:round_choices", args=[world.competition.slug, world.round.slug])
    return client.post(action, post_data(fields, fill), follow=True).content.decode()


def test_a_bad_key_is_refused_with_its_row(world):
    text = post_card(world, {"choices-1-key": "a b", "choices-1-label": "Spaced"})
    assert "Row 2: the key must be" in text
    assert not world.round.data_choices.exists()


def test_every_bad_row_is_refused_at_once_under_its_field(world):
    # A key given twice, a key with a space and a row without its English label: all three
    # said in one answer, each under the field at fault (not only above the page).
    text = post_card(
        world,
        {
            "choices-0-key": "adult",
            "choices-0-label": "Adult",
            "choices-1-key": "adult",
            "choices-1-label": "Bank",
            "choices-2-key": "c c",
            "choices-2-label_ja": "コホート C",
        },
    )
    card = text.split('data-testid="round-data-choice-form"')[1].split("</form>")[0]
    cells = re.findall(r'<td role="cell">(.*?)</td>', card, re.S)
    errors = [
        re.sub(r"<[^>]+>", "", c.split('class="errorlist')[1]) for c in cells if "errorlist" in c
    ]
    assert len(errors) == 3, errors
    assert "Row 2: the key adult is given twice." in errors[0]
    assert "Row 3: the key must be" in errors[1] and "Row 3: give the English label." in errors[2]
    assert 'value="コホート C"' in card
    assert not world.round.data_choices.exists()


def test_a_team_picks_on_the_data_tab_in_both_languages(world):
    offer_choices(world)
    page = member(world, "a").get(data_tab(world), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'data-testid="data-choice-form"' in page
    assert "成人調査" in page and "銀行" in page
    assert "チームのデータ" in page and "このデータを選ぶ" in page
    page = member(world, "a").get(data_tab(world), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Your team has not picked yet" in page and "Adult census" in page
    # The core's rule, this kind's: the first upload locks the pick (the kind's wording).
    assert "Your team&#x27;s first accepted upload in this round locks its pick." in page
    assert "The pick is locked at the team&#x27;s first accepted upload" in page
    response = pick_on_data_tab(world, "a", "bank")
    text = response.content.decode()
    assert "Your team&#x27;s data: Bank." in text
    assert "Your team plays on: <strong>Bank</strong>." in text
    pick = team_pick(round=world.round, team=world.teams["a"])
    assert (pick.choice.key, pick.chosen_by, pick.locked) == ("bank", world.users["a"], False)
    # Team B has not picked: the round's first pack is its own until it does.
    assert team_choice(round=world.round, team=world.teams["b"]).key == "adult"
    response = pick_on_data_tab(world, "a", "pop3", language="ja")
    assert response.status_code == 200
    assert team_pick(round=world.round, team=world.teams["a"]).choice.key == "pop3"


def test_the_first_upload_locks_the_pick_and_the_organizer_changes_it(world):
    client = offer_choices(world)
    pick_on_data_tab(world, "a", "bank")
    pack(world, DataPack.Role.REFERENCE, {"which.txt": b"2"}, choice="bank")
    release(world, "a", b"x\n1\n")
    assert team_pick(round=world.round, team=world.teams["a"]).locked
    page = member(world, "a").get(data_tab(world)).content.decode()
    assert 'data-testid="data-choice-locked"' in page
    assert "Locked: your team has uploaded in this round." in page
    assert 'data-testid="data-choice-form"' not in page
    # A pick posted anyway (an old page) is refused with its reason.
    action = reverse("data_choice", args=[world.competition.slug, world.round.slug])
    response = member(world, "a").post(action, {"choice": "adult"}, follow=True)
    assert "locked since its first upload" in response.content.decode()
    assert team_pick(round=world.round, team=world.teams["a"]).choice.key == "bank"
    # A team that uploads without picking is locked on the round's first pack.
    release(world, "b", b"x\n1\n")
    pick_b = team_pick(round=world.round, team=world.teams["b"])
    assert (pick_b.choice.key, pick_b.locked, pick_b.chosen_by) == ("adult", True, None)
    # The organizer changes team A's pack, from the console's table, with an audit line.
    team = world.teams["a"]
    change = reverse(
        "console:round_choice_team", args=[world.competition.slug, world.round.slug, team.pk]
    )
    card = client.get(console_url(world)).content.decode()
    assert f'action="{change}"' in card
    # Each pack by its label and key, as the teams read it on the Data tab.
    team_a = card[card.index('data-testid="data-choice-team-teama"') :]
    assert team_a.split("</td>")[1].endswith("Bank <code>bank</code>")
    assert '<option value="pop3">Pop 3 (pop3)</option>' in card
    ja = client.get(console_url(world), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert (
        "銀行 <code>bank</code>" in ja and '<option value="adult">成人調査 (adult)</option>' in ja
    )
    client.post(change, {"choice": "pop3"})
    pick = team_pick(round=world.round, team=team)
    assert (pick.choice.key, pick.locked, pick.chosen_by) == ("pop3", True, world.organizer)
    entry = AuditEntry.objects.filter(round=world.round).latest("created_at")
    assert entry.action == AuditEntry.Action.ROUND_EDITED
    assert entry.detail == {"team": "Team A", "data_choice": "bank → pop3"}


def test_an_upload_refused_at_once_locks_nothing():
    """An upload refused as it is kept (stored FAILED: it lacks a file the round requires)
    used none of the pack's data: the team may still pick; its first accepted upload locks."""
    from pwscup.scorer.models import Release
    from pwscup.submissions.models import Status
    from tests.pwscup.scorer_world import CONFIG

    rule = {"required": ["release.csv"], "only_required": True}
    world = scorer_world(slug="dcf", config={**CONFIG, "release_files": rule}, build=False)
    offer_choices(world)
    pick_on_data_tab(world, "a", "bank")

    def upload(letter: str, name: str):
        world.scorer.refresh_from_db()
        return services.release_upload(
            scorer=world.scorer,
            team=world.teams[letter],
            user=world.users[letter],
            uploaded_file=upload_file(b"id\n", name),
        )

    refused = upload("a", "other.csv")
    assert Release.objects.get(pk=refused.pk).status == Status.FAILED
    assert not team_pick(round=world.round, team=world.teams["a"]).locked
    page = member(world, "a").get(data_tab(world)).content.decode()
    assert 'data-testid="data-choice-form"' in page
    pick_on_data_tab(world, "a", "pop3")
    assert team_pick(round=world.round, team=world.teams["a"]).choice.key == "pop3"
    # A team that never picked and whose only upload was refused has no pick recorded.
    upload("b", "other.csv")
    assert team_pick(round=world.round, team=world.teams["b"]) is None
    accepted = upload("a", "release.csv")
    assert accepted.status == Status.QUEUED
    pick = team_pick(round=world.round, team=world.teams["a"])
    assert (pick.choice.key, pick.locked) == ("pop3", True)


def test_a_removed_pack_a_team_picked_is_refused(world):
    from django.core.exceptions import ValidationError

    from pwscup.competitions.choice_services import choices_set

    offer_choices(world)
    pick_on_data_tab(world, "a", "bank")
    rows = [{"key": "adult", "label": "Adult census"}]
    with pytest.raises(ValidationError, match="the team Team A has picked it"):
        choices_set(user=world.organizer, round=world.round, rows=rows)
    assert world.round.data_choices.count() == 3


def test_the_run_gets_the_choice_and_its_reference_pack(world):
    offer_choices(world)
    pack(world, DataPack.Role.REFERENCE, {"which.txt": b"7"})
    pack(world, DataPack.Role.REFERENCE, {"which.txt": b"2"}, choice="bank")
    pick_on_data_tab(world, "a", "bank")
    kept_a = release(world, "a", b"x\n1\n")
    kept_b = release(world, "b", b"x\n1\n")  # no pick: "adult", which has no pack of its own
    assert kept_a.scores == {"utility": 2.0}, kept_a.tail
    assert kept_b.scores == {"utility": 7.0}, kept_b.tail
    with kept_a.detail.open("rb") as handle:
        assert handle.read() == b"choice=bank ref=2"
    with kept_b.detail.open("rb") as handle:
        assert handle.read() == b"choice=adult ref=7"


def test_a_team_downloads_the_public_pack_of_its_choice_and_only_its_own_slot(world):
    offer_choices(world)
    pack(world, DataPack.Role.PUBLIC, {"bank.txt": b"bank data"}, choice="bank")
    pack(
        world,
        DataPack.Role.SLOTS,
        {"team_01/bank-a.txt": b"a", "team_02/bank-b.txt": b"b"},
        choice="bank",
    )
    pick_on_data_tab(world, "a", "bank")
    args = [world.competition.slug, world.round.slug]
    client_a, client_b = member(world, "a"), member(world, "b")
    public = reverse("scorer:public_pack", args=args)
    assert zip_names(client_a.get(public)) == {"bank.txt": b"bank data"}
    # Team B (no pick, "adult": no pack of its own) gets the pack of no choice.
    assert set(zip_names(client_b.get(public))) == {"README.txt"}
    slot_a = zip_names(client_a.get(reverse("scorer:slot_folder", args=[*args, "teama"])))
    assert slot_a == {"team_01/bank-a.txt": b"a"}
    assert client_a.get(reverse("scorer:slot_folder", args=[*args, "teamb"])).status_code == 404
    # The API serves the same files.
    token = api_token_create(user=world.users["a"], name="t").secret
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    api_public = Client().get(reverse("api:scorer-public", args=args), **headers)
    assert zip_names(api_public) == {"bank.txt": b"bank data"}
    api_slot = Client().get(reverse("api:scorer-slot", args=args), **headers)
    assert zip_names(api_slot) == {"bank-a.txt": b"a"}


def test_the_api_shows_the_choices_and_picks(world):
    args = [world.competition.slug, world.round.slug]
    token = api_token_create(user=world.users["c"], name="t").secret
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    status = Client().get(reverse("api:round-status", args=args), **headers).json()
    assert status["data_choice"] is None
    offer_choices(world)
    status = Client().get(reverse("api:round-status", args=args), **headers).json()
    assert [c["key"] for c in status["data_choice"]["choices"]] == ["adult", "bank", "pop3"]
    assert (status["data_choice"]["choice"], status["data_choice"]["picked"]) == ("adult", False)
    url = status["data_choice"]["url"]
    answer = Client().post(url, {"choice": "pop3"}, content_type="application/json", **headers)
    assert answer.status_code == 200, answer.content
    assert (answer.json()["choice"], answer.json()["picked"]) == ("pop3", True)
    unknown = Client().post(url, {"choice": "nope"}, content_type="application/json", **headers)
    assert unknown.status_code == 400
    outsider = api_token_create(user=world.organizer, name="o").secret
    refused = Client().post(
        url,
        json.dumps({"choice": "bank"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {outsider}",
    )
    assert refused.status_code == 403
    assert team_pick(round=world.round, team=world.teams["c"]).choice.key == "pop3"


def test_a_bundle_carries_the_choices_and_each_choices_packs(world):
    from pwscup.bundles.services import competition_export, competition_import
    from pwscup.scorer import selectors
    from pwscup.scorer.models import ScorerRound
    from tests.pwscup.bundle_helpers import START, creator, manifest_of, members_of

    offer_choices(world)
    pack(world, DataPack.Role.REFERENCE, {"which.txt": b"2"}, choice="bank")
    pick_on_data_tab(world, "a", "bank")
    exported = competition_export(
        competition=world.competition, user=world.organizer, include_hidden=True
    )
    (entry,) = manifest_of(exported)["rounds"]
    assert entry["data_choices"] == [
        {"key": key, "label": label, "label_ja": label_ja} for key, label, label_ja in CHOICES
    ]
    assert "bank.reference.zip" in entry["files"]
    copy = competition_import(
        bundle_file=io.BytesIO(exported),
        name="",
        slug="dch-copy",
        start=START,
        user=creator(world.organizer),
    )
    (round_,) = copy.rounds.all()
    assert [c.key for c in round_.data_choices.order_by("order")] == ["adult", "bank", "pop3"]
    scorer = ScorerRound.objects.get(round=round_)
    bank = selectors.current_pack(scorer=scorer, role=DataPack.Role.REFERENCE, choice="bank")
    assert bank.choice == "bank"
    with bank.file.open("rb") as handle:
        assert members_of(handle.read()) == {"which.txt": b"2"}
    again = competition_export(competition=copy, user=world.organizer, include_hidden=True)
    assert manifest_of(again)["rounds"] == manifest_of(exported)["rounds"]


def test_only_the_organizers_set_the_packs_and_change_a_pick(world):
    offer_choices(world)
    args = [world.competition.slug, world.round.slug]
    intruder = member(world, "b")
    rows = {"choices-TOTAL_FORMS": "1", "choices-INITIAL_FORMS": "0", "choices-0-key": "x"}
    rows["choices-0-label"] = "X"
    assert intruder.post(reverse("console:round_choices", args=args), rows).status_code == 404
    change = reverse("console:round_choice_team", args=[*args, world.teams["b"].pk])
    assert intruder.post(change, {"choice": "pop3"}).status_code == 404
    assert [c.key for c in world.round.data_choices.all()] == ["adult", "bank", "pop3"]
    assert team_pick(round=world.round, team=world.teams["b"]) is None
    # A broken post (no management form) is a message, never an error page.
    organizer = Client()
    organizer.force_login(world.organizer)
    response = organizer.post(reverse("console:round_choices", args=args), {}, follow=True)
    assert response.status_code == 200
    assert "The data packs could not be read" in response.content.decode()


def test_a_refused_card_comes_back_with_what_was_typed_and_why(world):
    """A refusal (the service's, or a field's) keeps the rows typed, next to the reason."""
    typed = {"choices-0-key": "adult", "choices-0-label": "Adult census typed"}
    text = post_card(world, {**typed, "choices-1-key": "adult", "choices-1-label": "Bank typed"})
    assert "Row 2: the key adult is given twice." in text
    assert 'value="Adult census typed"' in text and 'value="Bank typed"' in text
    text = post_card(world, {**typed, "choices-1-key": "k" * 33, "choices-1-label": "Bank typed"})
    assert "Ensure this value has at most 32 characters (it has 33)." in text
    assert "send the form again" not in text
    assert 'value="Adult census typed"' in text and 'value="Bank typed"' in text
    assert not world.round.data_choices.exists()


def test_a_picked_pack_emptied_on_the_card_is_refused_under_its_row(world):
    """The organizer empties the row of a pack a team picked: the refusal is said under that
    row's key (as the card's other errors are), not only above the page."""
    offer_choices(world)
    pick_on_data_tab(world, "a", "bank")
    emptied = {"choices-1-key": "", "choices-1-label": "", "choices-1-label_ja": ""}
    text = post_card(world, emptied)
    card = text.split('data-testid="round-data-choice-form"')[1].split("</form>")[0]
    rows = re.findall(r'<tr role="row">(.*?)</tr>', card, re.S)[1:]  # past the header
    errors = [
        re.sub(r"<[^>]+>", "", row.split('class="errorlist')[1])
        for row in rows
        if "errorlist" in row
    ]
    assert len(errors) == 1, errors
    assert (
        "errorlist" in rows[1] and "cannot be removed: the team Team A has picked it" in errors[0]
    )
    assert [c.key for c in world.round.data_choices.order_by("order")] == ["adult", "bank", "pop3"]


# The attack probe: its score is the file of its ``ref/``; its page, the choices it was told.
ATTACK_PROBE_SCORE = b"""import json, os, sys
input_dir, output_dir = sys.argv[1], sys.argv[2]
with open(os.path.join(input_dir, "context.json"), encoding="utf-8") as file:
    context = json.load(file)
with open(os.path.join(input_dir, "ref", "which.txt"), encoding="utf-8") as file:
    which = float(file.read().strip())
key = "reidentified" if context["phase"] == "attack" else "utility"
with open(os.path.join(output_dir, "scores.json"), "w", encoding="utf-8") as file:
    json.dump({key: which}, file)
with open(os.path.join(output_dir, "detailed_results.html"), "w", encoding="utf-8") as file:
    file.write("choice=%s targets=%s" % (context.get("choice"), context.get("target_choices")))
"""


def test_an_attack_is_scored_on_the_data_of_the_team_it_attacks(world):
    """PWSCup 2022: a team attacks another team's release of another of the six datasets; the
    answers are checked against the target's dataset, never the attacker's."""
    program_version(world, zipped({"metadata": PROGRAM_METADATA, "score.py": ATTACK_PROBE_SCORE}))
    offer_choices(world)
    pack(world, DataPack.Role.REFERENCE, {"which.txt": b"7"})
    pack(world, DataPack.Role.REFERENCE, {"which.txt": b"2"}, choice="bank")
    pack(world, DataPack.Role.REFERENCE, {"which.txt": b"3"}, choice="pop3")
    pick_on_data_tab(world, "a", "bank")
    pick_on_data_tab(world, "b", "pop3")
    assert release(world, "a", b"x\n1\n").scores == {"utility": 2.0}
    assert release(world, "b", b"x\n1\n").scores == {"utility": 3.0}
    targets = attack_phase(world)
    on_a = attack(world, "b", b"guess\n", target=targets["teama"])
    on_b = attack(world, "a", b"guess\n", target=targets["teamb"])
    assert on_a.scores == {"reidentified": 2.0}, on_a.tail
    assert on_b.scores == {"reidentified": 3.0}, on_b.tail
    with on_a.detail.open("rb") as handle:
        assert handle.read() == b"choice=pop3 targets={'teama': 'bank'}"


def test_the_console_says_which_pack_serves_a_choice_without_its_own(world):
    """The reference role has a pack of no choice and one for ``bank``; the truth role has
    none at all: a choice without its own is served by the pack of no choice only when there
    is one, and that pack's line says it is for those choices."""
    offer_choices(world)
    pack(world, DataPack.Role.REFERENCE, {"which.txt": b"2"}, choice="bank")
    client = Client()
    client.force_login(world.organizer)
    page = client.get(console_url(world), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    reference = page.split('data-testid="scorer-pack-reference"')[1].split("<form")[0]
    truth = page.split('data-testid="scorer-pack-truth"')[1].split("<form")[0]
    assert "専用のデータがないすべての選択肢:" in reference  # the world's reference.zip
    assert (
        '<code>adult</code>: <span class="muted">なし: 選択肢なしのデータが使われます' in reference
    )
    assert '専用のデータがないすべての選択肢: <span class="muted">まだなし' in truth
    assert '<code>adult</code>: <span class="muted">なし</span>' in truth


def test_the_overview_asks_a_team_to_pick_its_pack_before_it_uploads(world):
    """PWSCup 2022: the Overview's "What to do now" is where a team starts; until it picks,
    it says to pick a pack first and what locks it, then no more."""
    offer_choices(world)
    overview = reverse("round_detail", args=[world.competition.slug, world.round.slug])
    page = member(world, "a").get(overview, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "「データ」タブでチームのデータパックを選んでください。" in page
    assert "このラウンドでチームの提出が最初に受け付けられた時点で、選択が確定します。" in page
    pick_on_data_tab(world, "a", "bank")
    page = member(world, "a").get(overview, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Pick your team's data pack" not in page
