"""Participants run their own teams: sign-up, create (captain), join by invitation, the
captain's actions, the organizer's limits (maximum size, registration lock)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation

from pwscup.accounts.models import Membership, Team
from pwscup.accounts.services import (
    team_create,
    team_invitation_renew,
    team_join,
    team_member_remove,
    team_slug_generate,
    user_create,
)
from pwscup.core.errors import Refused
from pwscup.kinds.round_basics import RoundBasics
from pwscup.notifications.models import NotificationPreference

User = get_user_model()


@pytest.fixture(autouse=True)
def english():
    # Services speak the active language; a previous request may have left Japanese active.
    with translation.override("en"):
        yield


def account(name: str, email: str = ""):
    return user_create(username=name, password="pw-long-enough", email=email or f"{name}@ex.org")


# --- Services ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_participant_creates_a_team_and_becomes_its_captain_and_first_member(world):
    alice = account("alice")
    team = team_create(competition=world.competition, name="Data Ninjas", captain=alice)
    assert team.captain == alice
    assert list(team.members.all()) == [alice]
    assert team.slug == "data-ninjas"
    assert len(team.invitation_code) >= 20


@pytest.mark.django_db
def test_team_slugs_are_ascii_file_prefixes_and_unique_in_the_competition(world):
    assert team_slug_generate(competition=world.competition, name="Team A") == "team-a"
    assert team_slug_generate(competition=world.competition, name="日本語チーム") == "team"
    assert team_slug_generate(competition=world.competition, name="../../etc/passwd") == (
        "etcpasswd"
    )
    first = team_create(competition=world.competition, name="東京", captain=account("u1"))
    second = team_create(competition=world.competition, name="大阪", captain=account("u2"))
    third = team_create(competition=world.competition, name="Team!", captain=account("u3"))
    fourth = team_create(competition=world.competition, name="team?", captain=account("u4"))
    assert [first.slug, second.slug, third.slug, fourth.slug] == [
        "team",
        "team-2",
        "team-3",
        "team-4",
    ]
    long_slug = team_slug_generate(competition=world.competition, name="x" * 100)
    assert long_slug == "x" * 40


@pytest.mark.django_db
def test_a_second_participant_joins_with_the_code_up_to_the_maximum_size(world):
    world.competition.max_team_size = 2
    world.competition.save()
    captain, bob, carol = account("cap"), account("bob"), account("carol")
    team = team_create(competition=world.competition, name="Duo", captain=captain)
    assert team_join(code=team.invitation_code, user=bob) == team
    with pytest.raises(Refused, match="Team Duo is full: a team has at most 2 members."):
        team_join(code=team.invitation_code, user=carol)
    assert set(team.members.all()) == {captain, bob}


@pytest.mark.django_db
def test_joining_needs_the_right_code(world):
    team = team_create(competition=world.competition, name="Solo", captain=account("cap"))
    stranger = account("stranger")
    for wrong in ("", "   ", team.invitation_code[:-1], team.invitation_code + "x"):
        with pytest.raises(Refused, match="This invitation code is not valid") as refused:
            team_join(code=wrong, user=stranger)
        assert refused.value.status == 404
    # The right code of another competition's team does not work under this competition.
    with pytest.raises(Refused, match="not valid"):
        team_join(code=team.invitation_code, user=stranger, competition_slug="other")
    assert not Membership.objects.filter(user=stranger).exists()


@pytest.mark.django_db
def test_one_team_per_account_per_competition(world):
    alice = account("alice")
    mine = team_create(competition=world.competition, name="Mine", captain=alice)
    with pytest.raises(Refused, match="You are already in team Mine of this competition."):
        team_create(competition=world.competition, name="Another", captain=alice)
    with pytest.raises(Refused, match="You are already in team Mine of this competition."):
        team_join(code=world.teams["a"].invitation_code, user=alice)
    # And the database refuses it even past the services.
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(team=world.teams["a"], user=alice, competition=world.competition)
    assert list(alice.teams.all()) == [mine]


@pytest.mark.django_db
def test_a_locked_registration_refuses_new_teams_and_joins_but_not_the_organizer(world):
    world.competition.registration_locked = True
    world.competition.save()
    alice = account("alice")
    with pytest.raises(Refused, match="Registration for Cup cup is closed") as refused:
        team_create(competition=world.competition, name="Late", captain=alice)
    assert refused.value.status == 403
    with pytest.raises(Refused, match="Registration for Cup cup is closed"):
        team_join(code=world.teams["a"].invitation_code, user=alice)
    assert not Team.objects.filter(name="Late").exists()
    # The organizer's own path (no captain) is not a registration.
    assert team_create(competition=world.competition, name="Org team").captain is None


@pytest.mark.django_db
def test_duplicate_team_names_are_refused_with_the_name(world):
    with pytest.raises(Refused, match="A team named “team a” already exists."):
        team_create(competition=world.competition, name="team a", captain=account("x"))


@pytest.mark.django_db
def test_only_the_captain_removes_members_and_renews_the_code(world):
    captain, bob, carol = account("cap"), account("bob"), account("carol")
    team = team_create(competition=world.competition, name="Trio", captain=captain)
    team_join(code=team.invitation_code, user=bob)
    team_join(code=team.invitation_code, user=carol)
    with pytest.raises(Refused, match="Only the team's captain can do this.") as refused:
        team_member_remove(team=team, member=carol, by=bob)
    assert refused.value.status == 403
    with pytest.raises(Refused, match="Only the team's captain can do this."):
        team_invitation_renew(team=team, by=bob)
    with pytest.raises(Refused, match="The captain cannot remove themselves"):
        team_member_remove(team=team, member=captain, by=captain)

    old_code = team.invitation_code
    new_code = team_invitation_renew(team=team, by=captain)
    assert new_code != old_code
    team_member_remove(team=team, member=carol, by=captain)
    assert set(team.members.all()) == {captain, bob}
    # The removal renewed the code again: the link Carol knew no longer joins the team; she
    # comes back only if the team gives her the code it has now.
    team.refresh_from_db()
    assert team.invitation_code not in (old_code, new_code)
    for known in (old_code, new_code):
        with pytest.raises(Refused, match="not valid"):
            team_join(code=known, user=carol)
    team_join(code=team.invitation_code, user=carol)


@pytest.mark.django_db
def test_a_member_an_organizer_removed_cannot_rejoin_with_the_link_they_knew(world):
    # A lecturer removes a student from a team: the student's link no longer joins it.
    captain, student = account("cap2"), account("student")
    team = team_create(competition=world.competition, name="Duo", captain=captain)
    team_join(code=team.invitation_code, user=student)
    known = team.invitation_code
    team_member_remove(team=team, member=student, by=None)
    with pytest.raises(Refused, match="not valid"):
        team_join(code=known, user=student)
    assert not Membership.objects.filter(team=team, user=student).exists()


@pytest.mark.django_db
def test_an_organizer_removing_the_captain_passes_the_captaincy_on(world):
    captain, bob = account("cap"), account("bob")
    team = team_create(competition=world.competition, name="Pair", captain=captain)
    team_join(code=team.invitation_code, user=bob)
    team_member_remove(team=team, member=captain, by=None)
    team.refresh_from_db()
    assert team.captain == bob


@pytest.mark.django_db
def test_a_team_registered_in_a_per_team_round_gets_its_sample(make_world):
    from pwscup.pwscup2015.models import TeamDataset

    world = make_world(data_mode="per_team")
    team = team_create(competition=world.competition, name="Late", captain=account("late"))
    dataset = TeamDataset.objects.get(round=world.round, team=team)
    assert dataset.rows == 60


# --- Pages ------------------------------------------------------------------------


def _signup(client, username="newbie", email="newbie@ex.org", next_url=""):
    return client.post(
        reverse("signup") + (f"?next={next_url}" if next_url else ""),
        {
            "username": username,
            "email": email,
            "password1": "a-long-password-1",
            "password2": "a-long-password-1",
            "next": next_url,
        },
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, heading, button",
    [("en", "Sign up", "Create my account"), ("ja", "新規登録", "アカウントを作成")],
)
def test_the_sign_up_page_in_both_languages(client, language, heading, button):
    client.cookies["django_language"] = language
    page = client.get(reverse("signup")).content.decode()
    assert f"<h1>{heading}</h1>" in page
    assert button in page


@pytest.mark.django_db
def test_sign_up_creates_a_participant_logs_in_and_follows_next(client, world):
    next_url = reverse("competition_detail", args=[world.competition.slug])
    response = _signup(client, next_url=next_url)
    assert response.status_code == 302 and response["Location"] == next_url
    user = User.objects.get(username="newbie")
    assert user.email == "newbie@ex.org" and not user.is_staff
    assert client.get(reverse("profile")).status_code == 200
    # The same e-mail address again is not disclosed: see test_account_security.py.


@pytest.mark.django_db
def test_sign_up_refuses_an_external_next(client):
    response = _signup(client, next_url="https://evil.example/")
    assert response["Location"] == reverse("profile")


@pytest.mark.django_db
def test_password_change_and_reset_by_email(client):
    user = account("forgetful", "forgetful@ex.org")
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "pw-long-enough",
            "new_password1": "brand-new-secret",
            "new_password2": "brand-new-secret",
        },
    )
    assert response["Location"] == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password("brand-new-secret")
    client.logout()

    client.cookies["django_language"] = "en"
    response = client.post(reverse("password_reset"), {"email": "forgetful@ex.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["forgetful@ex.org"]
    assert "Choose a new password on testserver" in message.subject
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body).group(1)
    form_page = client.get(link, follow=True)
    assert "Set my new password" in form_page.content.decode()
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "after-the-reset", "new_password2": "after-the-reset"},
    )
    assert done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password("after-the-reset")
    # The link works once.
    assert "This link is not valid" in client.get(link, follow=True).content.decode()


@pytest.mark.django_db
def test_the_password_reset_email_is_in_the_language_of_the_page(client):
    account("yamada", "yamada@ex.org")
    client.cookies["django_language"] = "ja"
    client.post(reverse("password_reset"), {"email": "yamada@ex.org"})
    assert "新しいパスワード" in mail.outbox[0].subject


@pytest.mark.django_db
def test_create_and_join_through_the_pages(client, world):
    captain, mate = account("cap"), account("mate")
    client.force_login(captain)
    detail = reverse("competition_detail", args=[world.competition.slug])
    assert 'data-testid="team-register"' in client.get(detail).content.decode()
    response = client.post(reverse("team_create", args=[world.competition.slug]), {"name": "Crew"})
    assert response["Location"] == reverse("team_detail", args=[world.competition.slug])
    team = Team.objects.get(name="Crew")
    page = client.get(response["Location"]).content.decode()
    join_url = f"http://testserver/c/{world.competition.slug}/join/{team.invitation_code}/"
    assert join_url in page

    client.force_login(mate)
    # The link shows the team's name and joins on confirmation.
    link_page = client.get(join_url).content.decode()
    assert "You are invited to join team <strong>Crew</strong>" in link_page
    client.post(join_url)
    assert set(team.members.all()) == {captain, mate}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "name", "said"),
    [
        ("en", "  ", "Give the team a name."),
        ("ja", "", "チーム名を入力してください。"),
        ("en", "x" * 101, "A team name has at most 100 characters."),
    ],
)
def test_a_team_without_a_name_or_with_a_long_one_is_refused_saying_which(
    client, world, language, name, said
):
    client.force_login(account("cap"))
    client.cookies["django_language"] = language
    teams = Team.objects.filter(competition=world.competition).count()
    url = reverse("team_create", args=[world.competition.slug])
    page = client.post(url, {"name": name}, follow=True).content.decode()
    assert said in page
    assert Team.objects.filter(competition=world.competition).count() == teams


@pytest.mark.django_db
def test_the_join_form_accepts_the_pasted_link(client, world):
    team = team_create(competition=world.competition, name="Crew", captain=account("cap"))
    mate = account("mate")
    client.force_login(mate)
    client.post(
        reverse("team_join", args=[world.competition.slug]),
        {"code": f"http://host/c/{world.competition.slug}/join/{team.invitation_code}/"},
    )
    assert mate in team.members.all()


@pytest.mark.django_db
def test_a_wrong_code_reveals_nothing(client, world):
    stranger = account("stranger")
    client.force_login(stranger)
    wrong = reverse("team_join_link", args=[world.competition.slug, "not-the-code"])
    assert client.get(wrong).status_code == 404
    assert client.post(wrong).status_code == 404
    response = client.post(
        reverse("team_join", args=[world.competition.slug]), {"code": "guess"}, follow=True
    )
    assert "This invitation code is not valid" in response.content.decode()
    assert not Membership.objects.filter(user=stranger).exists()


@pytest.mark.django_db
def test_anonymous_visitors_are_sent_to_log_in(client, world):
    team = world.teams["a"]
    for url in (
        reverse("team_create", args=[world.competition.slug]),
        reverse("team_join", args=[world.competition.slug]),
        reverse("team_invitation_renew", args=[world.competition.slug]),
    ):
        response = client.post(url, {"name": "X", "code": team.invitation_code})
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    link = reverse("team_join_link", args=[world.competition.slug, team.invitation_code])
    page = client.get(link).content.decode()
    assert "sign up</a> first" in page
    client.post(link)
    assert team.memberships.count() == 1


@pytest.mark.django_db
def test_captain_only_buttons_and_actions_in_the_pages(client, world):
    captain, member = account("cap"), account("member")
    team = team_create(competition=world.competition, name="Crew", captain=captain)
    team_join(code=team.invitation_code, user=member)
    slug = world.competition.slug
    client.force_login(member)
    page = client.get(reverse("team_detail", args=[slug])).content.decode()
    assert team.invitation_code not in page and 'data-testid="remove-' not in page
    client.post(reverse("team_member_remove", args=[slug, captain.pk]))
    response = client.post(reverse("team_invitation_renew", args=[slug]), follow=True)
    assert "Only the team&#x27;s captain can do this." in response.content.decode()
    team.refresh_from_db()
    assert set(team.members.all()) == {captain, member}
    # Another team's captain cannot act on this team: the URL is always about their own.
    other_captain = world.users["a"]
    client.force_login(other_captain)
    client.post(reverse("team_member_remove", args=[slug, member.pk]), follow=True)
    assert set(team.members.all()) == {captain, member}

    client.force_login(captain)
    page = client.get(reverse("team_detail", args=[slug])).content.decode()
    assert team.invitation_code in page
    client.post(reverse("team_member_remove", args=[slug, member.pk]))
    assert list(team.members.all()) == [captain]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, text",
    [
        ("en", "Registration is closed: teams can no longer be created or joined."),
        ("ja", "登録は締め切られました"),
    ],
)
def test_the_competition_page_says_registration_is_locked(client, world, language, text):
    world.competition.registration_locked = True
    world.competition.save()
    client.force_login(account("late"))
    client.cookies["django_language"] = language
    page = client.get(reverse("competition_detail", args=[world.competition.slug]))
    assert text in page.content.decode()
    assert 'data-testid="team-create"' not in page.content.decode()


@pytest.mark.django_db
def test_the_profile_lists_teams_competitions_and_saves_preferences(client, world):
    user = world.users["a"]
    user.email = "a@example.org"
    user.save()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("profile")).content.decode()
    assert "Team A" in page and "Captain" in page
    client.post(reverse("profile"), {"email_enabled": "on"})
    assert user.notification_preference.email_enabled
    assert user.notification_preference.language == "en"
    client.force_login(world.organizer)
    assert "Competitions I organize" in client.get(reverse("profile")).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words", "shown"),
    [
        (
            "en",
            "Your account has no e-mail address to send them to: add one first",
            "Your account has no e-mail address to send them to: add one first, then tick",
        ),
        (
            "ja",
            "アカウントには送信先のメールアドレスがありません。先にメールアドレスを登録",
            "先にアドレスを登録してから、このボックスにチェックを入れてください",
        ),
    ],
)
def test_e_mails_cannot_be_turned_on_without_an_address(client, world, language, words, shown):
    """The box is shown off and disabled, saying why, beside *Add my e-mail address*; a
    post that turns it on anyway (a script's) is refused next to the box."""
    user = world.users["a"]
    assert not user.email
    client.force_login(user)
    client.cookies["django_language"] = language
    page = client.get(reverse("profile")).content.decode()
    box = re.search(r'<input type="checkbox" data-testid="email-enabled"[^>]*>', page)
    assert box and " disabled" in box[0] and "name=" not in box[0]
    needed = page[page.index('data-testid="email-needed"') :]
    assert shown in needed[: needed.index("</p>")]
    assert f'href="{reverse("email_change")}" data-testid="email-change-link"' in needed
    response = client.post(reverse("profile"), {"email_enabled": "on"})
    assert response.status_code == 200
    text = response.content.decode()
    field = text[text.index('data-testid="email-enabled"') :]
    assert words in field[: field.index("</form>")]
    assert not NotificationPreference.objects.filter(user=user, email_enabled=True).exists()
    assert client.post(reverse("profile"), {}).status_code == 302  # off is always accepted


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "refused"),
    [("en", "This is not your password"), ("ja", "パスワードが正しくありません")],
)
def test_a_user_adds_an_e_mail_address_with_the_password(client, world, language, refused):
    """The profile links to the address's page; the address is saved only with the
    account's password, the refusal next to the password; then e-mails can be turned on."""
    user = world.users["a"]
    user.set_password("the-right-one-42")
    user.save()
    client.force_login(user)
    client.cookies["django_language"] = language
    url = reverse("email_change")
    assert f'href="{url}"' in client.get(reverse("profile")).content.decode()
    page = client.get(url).content.decode()
    assert 'name="email"' in page and 'name="password"' in page
    wrong = client.post(url, {"email": "a@example.org", "password": "not-it"})
    assert wrong.status_code == 200
    assert refused in wrong.content.decode().split('data-testid="error-password"')[1][:300]
    user.refresh_from_db()
    assert user.email == ""
    right = client.post(url, {"email": "a@EXAMPLE.org", "password": "the-right-one-42"})
    assert right.status_code == 302 and right.url == reverse("profile")
    user.refresh_from_db()
    assert user.email == "a@example.org"
    assert client.post(reverse("profile"), {"email_enabled": "on"}).status_code == 302
    assert NotificationPreference.objects.filter(user=user, email_enabled=True).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["team", "join"])
def test_a_round_cannot_take_the_team_pages_address(world, slug):
    from django.core.exceptions import ValidationError

    from pwscup.pwscup2015.services.rounds import round_create
    from tests.support import adult_config, adult_head

    with pytest.raises(ValidationError) as refused:
        round_create(
            basics=RoundBasics(competition=world.competition, name="Shadowed", slug=slug),
            original=adult_head(20),
            original_filename="adult.csv",
            config_raw=adult_config(),
        )
    assert refused.value.message_dict["slug"] == [
        f"The address {slug} is taken by the team pages: choose another one."
    ]


@pytest.mark.django_db
def test_the_admin_edits_maximum_team_size_and_registration_lock(client, world):
    admin = User.objects.create_superuser("root", "root@ex.org", "pw")
    client.force_login(admin)
    page = client.get(reverse("admin:competitions_competition_change", args=[world.competition.pk]))
    html = page.content.decode()
    assert 'name="max_team_size"' in html and 'name="registration_locked"' in html


# Role × captain action: only the captain's request changes anything. ``login``: sent to
# the log-in page; ``404``: not their team (nothing revealed); ``refused``: a member, told why.
CAPTAIN_ACTIONS = {
    "anon": "login",
    "member": "refused",
    "outsider": 404,
    "other_captain": "refused_other",
    "organizer": 404,
    "captain": "done",
}


@pytest.mark.django_db
@pytest.mark.parametrize("role, expected", CAPTAIN_ACTIONS.items())
@pytest.mark.parametrize("action", ["renew", "remove"])
def test_captain_actions_by_role(client, world, role, expected, action):
    captain, member = account("cap"), account("member")
    team = team_create(competition=world.competition, name="Crew", captain=captain)
    team_join(code=team.invitation_code, user=member)
    code = team.invitation_code
    users = {
        "member": member,
        "outsider": account("outsider"),
        "other_captain": world.users["a"],  # captain of Team A
        "organizer": world.organizer,
        "captain": captain,
    }
    if role in users:
        client.force_login(users[role])
    slug = world.competition.slug
    url = {
        "renew": reverse("team_invitation_renew", args=[slug]),
        "remove": reverse("team_member_remove", args=[slug, member.pk]),
    }[action]
    response = client.post(url)
    team.refresh_from_db()
    changed = (
        team.invitation_code != code
        if action == "renew"
        else not team.memberships.filter(user=member).exists()
    )
    if expected == "login":
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    elif expected == 404:
        assert response.status_code == 404
    else:
        assert response.status_code == 302
    # The other captain acts on their own team (Team A), never on this one.
    assert changed is (expected == "done"), (role, action)
