"""Team names: stored in one normal form (NFKC, whitespace collapsed, no invisible or control
character) and compared after folding (case, full-width forms, Cyrillic and Greek look-alikes
of Latin letters), by one rule (``team_name_check``) that the site, the console and the admin
all call."""

import re

import pytest
from django.urls import reverse

from pwscup.accounts.models import Team
from pwscup.accounts.names import hidden_characters, name_normal, name_skeleton
from pwscup.accounts.services import team_create
from pwscup.core.errors import Refused
from tests.pwscup.test_teams import account

# Each look-alike of "Team A", with the letters of another alphabet its refusal names.
LOOK_ALIKE_LETTERS = {
    "T\u0435am A": "(U+0435 CYRILLIC SMALL LETTER IE)",
    "Team \u0410": "(U+0410 CYRILLIC CAPITAL LETTER A)",
    "\u03a4eam \u0391": "(U+03A4 GREEK CAPITAL LETTER TAU, U+0391 GREEK CAPITAL LETTER ALPHA)",
}
LOOK_ALIKES_OF_TEAM_A = {
    "cyrillic e": "T\u0435am A",
    "cyrillic capital a": "Team \u0410",
    "greek capitals": "\u03a4eam \u0391",
    "full-width": "\uff34\uff45\uff41\uff4d\u3000\uff21",
    "no-break space": "Team\u00a0A",
    "doubled spaces": "  Team   A ",
}
HIDDEN = {
    "zero-width space": ("Team\u200bA", "U+200B ZERO WIDTH SPACE"),
    "zero-width space at the end": ("Team A\u200b", "U+200B ZERO WIDTH SPACE"),
    "right-to-left override": ("\u202eA maeT", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    "byte-order mark": ("\ufeffTeam A", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
    "a control character": ("Team\x07A", "U+0007"),  # a control has no Unicode name
}


def test_the_normal_form_and_the_skeleton():
    assert name_normal(" \uff34\uff45\uff41\uff4d\u3000\u3000\uff21\t") == "Team A"
    assert name_normal("\uff83\uff9d\uff91") == "テンム"  # half-width katakana
    assert hidden_characters("a\u200bb\u2066c\u200b") == ["\u200b", "\u2066"]
    assert hidden_characters("チーム 桜 A-1") == []
    for look_alike in LOOK_ALIKES_OF_TEAM_A.values():
        assert name_skeleton(look_alike) == name_skeleton("Team A"), look_alike
    assert name_skeleton("TEAM a") == name_skeleton("Team A")
    # Width and spacing fold too: full-width ＴｅａｍＡ is stored "TeamA".
    assert name_skeleton("\uff34\uff45\uff41\uff4d\uff21") == name_skeleton("Team A")
    assert name_skeleton("チーム A") == name_skeleton("チームA")
    # Greek capital eta looks like H, its small letter like n.
    assert name_skeleton("\u0397ero") == name_skeleton("hero")
    assert name_skeleton("\u03b7ero") != name_skeleton("hero")
    # Names that read differently stay different.
    for other in ("Team B", "Team Á", "チームA", "Team Α1", "Tean A"):
        assert name_skeleton(other) != name_skeleton("Team A"), other


@pytest.mark.django_db
@pytest.mark.parametrize("name", LOOK_ALIKES_OF_TEAM_A.values(), ids=LOOK_ALIKES_OF_TEAM_A.keys())
def test_registering_a_look_alike_of_a_team_name_is_refused_on_the_site(client, world, name):
    assert world.teams["a"].name == "Team A"
    client.force_login(account("newcomer"))
    response = client.post(
        reverse("team_create", args=[world.competition.slug]), {"name": name}, follow=True
    )
    shown = " ".join(str(m) for m in response.context["messages"])
    if name_normal(name).casefold() == "team a":
        assert f"A team named “{name_normal(name)}” already exists." in shown, shown
    else:
        assert f"“{name}” reads as “Team A”, the name of another team" in shown, shown
        assert LOOK_ALIKE_LETTERS[name] in shown, shown
    assert Team.objects.filter(competition=world.competition).count() == len(world.teams)


@pytest.mark.django_db
@pytest.mark.parametrize("name, code", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_team_name_with_hidden_characters_is_refused_naming_them(world, name, code):
    with pytest.raises(
        Refused, match=re.escape(f"invisible or control characters (here: {code}).")
    ):
        team_create(competition=world.competition, name=name, captain=account("x"))
    assert Team.objects.filter(competition=world.competition).count() == len(world.teams)


@pytest.mark.django_db
def test_names_are_stored_normal_and_other_scripts_are_welcome(world):
    team = team_create(
        competition=world.competition, name=" \uff2e\uff45\uff57\u3000 Team ", captain=account("x")
    )
    assert Team.objects.get(pk=team.pk).name == "New Team"
    for name in ("チーム桜", "チームA", "Команда"):
        team_create(competition=world.competition, name=name)
    with pytest.raises(
        Refused, match=re.escape("reads as “チームA”, the name of another team of this competition")
    ):
        team_create(competition=world.competition, name="チーム\u0410")


@pytest.mark.django_db
def test_a_name_that_differs_only_in_width_and_spacing_is_refused(client, world):
    # Field test 4: full-width ＴｅａｍＡ was stored "TeamA" beside "Team A".
    client.force_login(account("newcomer"))
    response = client.post(
        reverse("team_create", args=[world.competition.slug]),
        {"name": "\uff34\uff45\uff41\uff4d\uff21"},
        follow=True,
    )
    shown = " ".join(str(m) for m in response.context["messages"])
    assert "“TeamA” looks like the name of team “Team A” of this competition" in shown, shown
    assert not Team.objects.filter(competition=world.competition, name="TeamA").exists()
    with pytest.raises(Refused, match=re.escape("looks like the name of team “Team B”")):
        team_create(competition=world.competition, name="Te am\u3000B")


@pytest.mark.django_db
def test_the_console_rename_uses_the_same_rule(client, world):
    client.force_login(world.organizer)
    team_b = world.teams["b"]
    url = reverse("console:team_rename", args=[world.competition.slug, team_b.pk])
    page = client.post(url, {"name": "T\u0435am A"})
    assert page.status_code == 200
    assert "reads as “Team A”, the name of another team" in page.content.decode()
    assert "(U+0435 CYRILLIC SMALL LETTER IE)" in page.content.decode()
    team_b.refresh_from_db()
    assert team_b.name == "Team B"
    assert client.post(url, {"name": "Team\u200bB2"}).status_code == 200
    assert client.post(url, {"name": "  Team\u00a0\u00a0Bee "}).status_code == 302
    team_b.refresh_from_db()
    assert team_b.name == "Team Bee"


@pytest.mark.django_db
def test_the_admin_adds_a_team_under_the_same_rule(client, world, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root-n", password="pw"))
    data = {
        "competition": world.competition.pk,
        "slug": "lookalike",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    refused = client.post(reverse("admin:accounts_team_add"), {**data, "name": "\u03a4eam A"})
    assert refused.status_code == 200
    assert "(U+03A4 GREEK CAPITAL LETTER TAU)" in str(
        refused.context["adminform"].form.errors["name"]
    )
    assert not Team.objects.filter(slug="lookalike").exists()
    added = client.post(reverse("admin:accounts_team_add"), {**data, "name": " Org\u00a0 team "})
    assert added.status_code == 302
    assert Team.objects.get(slug="lookalike").name == "Org team"
