"""The teams' slots by a committed salt (docs/scorer.md): the organizer (not a superuser)
commits a salt on the console's Team slots card, its SHA-256 is on the Rules tab and in the
API at once while the salt reaches no team (pages, API, bundle, clone, archive); the slots
follow SHA-256(salt:slug) as hashlib computes it here, disqualified teams included, until a
release is uploaded; the revealed salt is shown with commands that, run here, check the
commitment and the order; a team can do none of it."""

import hashlib
import html
import json
import re
import subprocess

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.accounts.services import team_create, user_create
from pwscup.api.services import api_token_create
from pwscup.bundles.services import competition_clone, competition_export
from pwscup.competitions.models import AuditEntry
from pwscup.console.services import console_team_disqualify
from pwscup.core.errors import Refused
from pwscup.scorer import services
from pwscup.scorer.models import ScorerRound, SlotSalt, TeamSlot
from tests.pwscup.archive_world import publish_and_read
from tests.pwscup.bundle_helpers import START, creator, members_of
from tests.pwscup.rendered_forms import form_fields_of, post_as_rendered, post_data
from tests.pwscup.scorer_world import freeze, release, release_bytes, scorer_world
from tests.pwscup.test_scorer_api_secrets import unzipped

pytestmark = pytest.mark.django_db

TABS = ("overview", "data", "rules", "submit", "results")
OWN_SALT = "pwscup-2026.salt_7f3a"


def tab_url(world, tab: str) -> str:
    args = [world.competition.slug, world.round.slug]
    if tab == "overview":
        return reverse("round_detail", args=args)
    return reverse("round_tab", args=[*args, tab])


def console_url(world) -> str:
    return reverse("console:round", args=[world.competition.slug, world.round.slug])


def salt_url(world, name: str) -> str:
    return reverse(f"scorer_console:{name}", args=[world.competition.slug, world.round.slug])


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def commit_as_rendered(world, salt: str = ""):
    """The organizer commits on the console's card as the browser posts it."""
    client = logged_in(world.organizer)
    page = client.get(console_url(world)).content.decode()
    fields = form_fields_of(page, "scorer-salt-commit")
    return client.post(salt_url(world, "salt_commit"), post_data(fields, {"salt": salt}))


def card(world, language: str = "en") -> str:
    page = logged_in(world.organizer).get(console_url(world), HTTP_ACCEPT_LANGUAGE=language)
    return re.search(r'data-testid="scorer-slots">(.*?)</section>', page.content.decode(), re.S)[1]


def rules_card(client, world, language: str = "en") -> str:
    page = client.get(tab_url(world, "rules"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    found = re.search(r'data-testid="salt-rule">(.*?)</section>', page, re.S)
    assert found, "no salt card on the Rules tab"
    return found[1]


def served_to_team(world, letter: str) -> dict[str, bytes]:
    """Every page of the round and every answer of its API the team's member may get."""
    user = world.users[letter]
    client = logged_in(user)
    out = {tab: client.get(tab_url(world, tab)).content for tab in TABS}
    token = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}
    api = Client()
    args = [world.competition.slug, world.round.slug]
    for name in ("round-status", "round-standings", "scorer-releases", "scorer-targets"):
        out[name] = api.get(reverse(f"api:{name}", args=args), **token).content
    for download in json.loads(out["round-status"])["downloads"]:
        response = api.get(download["url"], **token)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        out[download["url"]] = body + unzipped(body)
    return out


def hash_order(salt: str, world) -> list[str]:
    """The rule read literally: slugs by SHA-256(salt:slug) in hex, ascending."""
    slugs = [team.slug for team in world.teams.values()]
    return sorted(slugs, key=lambda slug: hashlib.sha256(f"{salt}:{slug}".encode()).hexdigest())


def slot_order(world) -> list[str]:
    slots = TeamSlot.objects.filter(scorer=world.scorer).order_by("slot")
    return [slot.team.slug for slot in slots]


def test_a_committed_salt_shows_its_hash_and_never_the_salt_to_a_team():
    world = scorer_world(slug="saltc", build=False)
    # The salt typed is a secret until revealed: the browser does not keep it in its history.
    typed = re.search(r'<input[^>]*name="salt"[^>]*>', card(world))[0]
    assert 'autocomplete="off"' in typed, typed
    response = commit_as_rendered(world)
    assert response.status_code == 302, response.content.decode()[:2000]
    kept = SlotSalt.objects.get(scorer=world.scorer)
    assert re.fullmatch(r"[0-9a-f]{32}", kept.salt)
    commitment = hashlib.sha256(kept.salt.encode()).hexdigest()
    assert kept.commitment == commitment
    team = logged_in(world.users["a"])
    for language in ("en", "ja"):
        shown = rules_card(team, world, language)
        assert re.search(rf'data-testid="salt-commitment">{commitment}<', shown)
        assert 'data-testid="salt-unrevealed"' in shown and kept.salt not in shown
    assert "コミットされたソルト" in rules_card(team, world, "ja")
    served = served_to_team(world, "a")
    status = json.loads(served["round-status"])
    assert any(commitment in note["text"] for note in status["notes"]), status["notes"]
    for where, content in served.items():
        assert kept.salt.encode() not in content, where
    # The organizers see it on their card; the log keeps the commitment, never the salt.
    assert kept.salt in card(world) and commitment in card(world)
    entry = AuditEntry.objects.filter(round=world.round).latest("pk")
    assert entry.detail == {"salt": "committed", "sha256": commitment}
    # A second commitment is refused next to its field (on the form's own page: the card
    # no longer shows the form).
    again = post_as_rendered(
        logged_in(world.organizer),
        salt_url(world, "salt_commit"),
        "scorer-form",
        {"salt": OWN_SALT},
    )
    assert again.status_code == 200 and "already committed" in again.content.decode()
    assert SlotSalt.objects.get(scorer=world.scorer).salt == kept.salt
    assert 'data-testid="scorer-salt-commit"' not in card(world)


def test_the_slots_follow_the_hash_order_disqualified_teams_included():
    world = scorer_world(slug="salta", letters="abcde", build=False)
    console_team_disqualify(user=world.organizer, team=world.teams["d"], reason="late")
    assert commit_as_rendered(world, OWN_SALT).status_code == 302
    expected = hash_order(OWN_SALT, world)
    assert expected != slot_order(world)  # registration order differs: the test tells
    client = logged_in(world.organizer)
    assert client.post(salt_url(world, "salt_assign")).status_code == 302
    assert slot_order(world) == expected and len(expected) == 5
    assert list(TeamSlot.objects.filter(scorer=world.scorer).values_list("slot", flat=True)) == [
        1,
        2,
        3,
        4,
        5,
    ]
    assert "assigned from the committed salt" in card(world)
    assert "ソルトから割り当て" in card(world, "ja")
    # A change by hand is said on the card and counted on the Rules tab.
    moved = 1 if expected[0] != "teama" else 2  # a slot Team A does not hold
    services.slot_set(scorer=world.scorer, team=world.teams["a"], slot=moved, user=world.organizer)
    changed = card(world)
    assert f"Team A set to team_0{moved}/ by hand" in changed
    assert "changed 1 slot since" in rules_card(logged_in(world.users["b"]), world)
    # Setting the slot a team already holds changes nothing.
    services.slot_set(scorer=world.scorer, team=world.teams["a"], slot=moved, user=world.organizer)
    assert card(world).count("by hand") == 1
    # A team registered afterwards gets the next slot, said on the card.
    captain = user_create(username="salta-team-f", password="pw")
    world.teams["f"] = team_create(
        competition=world.competition, name="Team F", slug="teamf", captain=captain
    )
    assert TeamSlot.objects.get(scorer=world.scorer, team=world.teams["f"]).slot == 6
    assert "Team F registered at" in card(world) and "got team_06/" in card(world)
    # Assigned again (no release yet): the salt's order with the new team, the changes
    # forgotten.
    assert client.post(salt_url(world, "salt_assign")).status_code == 302
    assert slot_order(world) == hash_order(OWN_SALT, world) and len(slot_order(world)) == 6
    assert "by hand" not in card(world) and "registered at" not in card(world)


def test_the_assignment_is_refused_once_a_release_was_uploaded():
    world = scorer_world(slug="saltr", letters="ab")
    services.slot_salt_commit(scorer=world.scorer, salt=OWN_SALT, user=world.organizer)
    release(world, "a", release_bytes(noise=0))
    before = slot_order(world)
    client = logged_in(world.organizer)
    response = client.post(salt_url(world, "salt_assign"), follow=True)
    assert "already uploaded a release" in response.content.decode()
    assert slot_order(world) == before
    assert SlotSalt.objects.get(scorer=world.scorer).assigned_at is None
    with pytest.raises(Refused):
        services.slots_from_salt(scorer=world.scorer, user=world.organizer)


def run(command: str) -> str:
    return subprocess.run(
        ["sh", "-c", command], capture_output=True, text=True, check=True, timeout=60
    ).stdout


def test_the_revealed_salt_is_shown_with_commands_that_check_it():
    world = scorer_world(slug="saltv", letters="abcd", build=False)
    services.slot_salt_commit(scorer=world.scorer, salt=OWN_SALT, user=world.organizer)
    services.slots_from_salt(scorer=world.scorer, user=world.organizer)
    client = logged_in(world.organizer)
    assert client.post(salt_url(world, "salt_reveal")).status_code == 302
    commitment = hashlib.sha256(OWN_SALT.encode()).hexdigest()
    shown = rules_card(logged_in(world.users["c"]), world)
    assert re.search(rf'data-testid="salt-value">{re.escape(OWN_SALT)}<', shown)
    commands = {
        name: html.unescape(
            re.search(rf'data-testid="salt-check-{name}">(.*?)</pre>', shown, re.S)[1]
        )
        for name in ("commitment", "order", "shell")
    }
    assert run(commands["commitment"]).split()[0] == commitment
    assert run(commands["order"]).split() == slot_order(world) == hash_order(OWN_SALT, world)
    lines = [line.split() for line in run(commands["shell"]).splitlines()]
    assert [slug for _digest, slug in lines] == slot_order(world)
    for slug in slot_order(world):
        digest = hashlib.sha256(f"{OWN_SALT}:{slug}".encode()).hexdigest()
        assert re.search(rf'data-slug="{slug}">.*?{digest}', shown, re.S)
    assert "公開されたソルト" in rules_card(logged_in(world.users["c"]), world, "ja")
    status = served_to_team(world, "c")["round-status"]
    assert OWN_SALT.encode() in status
    with pytest.raises(Refused):
        services.slot_salt_reveal(scorer=world.scorer, user=world.organizer)


def test_a_team_cannot_commit_assign_or_reveal():
    world = scorer_world(slug="saltt", build=False)
    member = logged_in(world.users["a"])
    for name in ("salt_commit", "salt_assign", "salt_reveal"):
        assert member.post(salt_url(world, name), {"salt": OWN_SALT}).status_code == 404, name
    assert not SlotSalt.objects.exists()
    services.slot_salt_commit(scorer=world.scorer, salt=OWN_SALT, user=world.organizer)
    for name in ("salt_assign", "salt_reveal"):
        assert member.post(salt_url(world, name)).status_code == 404, name
    kept = SlotSalt.objects.get()
    assert kept.assigned_at is None and kept.revealed_at is None


def test_a_bundle_a_clone_and_the_archive_carry_no_unrevealed_salt():
    world = scorer_world(slug="saltb", letters="ab", build=False)
    services.slot_salt_commit(scorer=world.scorer, salt=OWN_SALT, user=world.organizer)
    commitment = SlotSalt.objects.get().commitment
    exported = competition_export(
        competition=world.competition, user=world.organizer, include_hidden=True
    )
    for name, content in members_of(exported).items():
        for secret in (OWN_SALT.encode(), commitment.encode()):
            assert secret not in content + unzipped(content), name
    clone = competition_clone(
        competition=world.competition,
        name="Clone",
        slug="saltb-2",
        start=START,
        user=creator(world.organizer),
    )
    assert not SlotSalt.objects.filter(scorer__round__competition=clone).exists()
    assert ScorerRound.objects.filter(round__competition=clone).exists()
    freeze(world)
    services.results_publish(scorer=world.scorer, user=world.organizer)
    _archive, members = publish_and_read(world.competition)
    (round_card,) = json.loads(members["data-card.json"])["rounds"]
    assert commitment in round_card["rules"] and "not revealed" in round_card["rules"]
    assert not [name for name, content in members.items() if OWN_SALT.encode() in content]
    services.slot_salt_reveal(scorer=world.scorer, user=world.organizer)
    _archive, members = publish_and_read(world.competition)
    assert f"the salt: {OWN_SALT}" in json.loads(members["data-card.json"])["rounds"][0]["rules"]
