"""The organizer console: who may open each page, what each action records, the wizard."""

import io
import json
import zipfile

import pytest
from django.core.management import call_command
from django.urls import reverse

from pwscup.accounts.models import TeamDisqualification
from pwscup.accounts.services import team_create
from pwscup.competitions.models import AuditEntry, Competition, Phase, Round
from pwscup.competitions.services import competition_create
from pwscup.console.selectors import user_by_name_or_email
from pwscup.core.markdown import render_markdown
from pwscup.pwscup2015.leaderboards.selectors import (
    anonymization_leaderboard,
    anonymization_leaderboard_cached,
    final_ranking,
)
from pwscup.pwscup2015.models import Pwscup2015Round, RoundOperation, TeamDataset
from tests.pwscup.factories import freeze, run_operations, scored
from tests.pwscup.rendered_forms import form_fields_of, post_data
from tests.support import adult_config, adult_head, csv_upload

pytestmark = pytest.mark.django_db

ROLES = ("anon", "participant", "other_organizer", "organizer")


@pytest.fixture
def console(world, django_user_model):
    other = django_user_model.objects.create_user("other-org", password="pw")
    competition_create(name="Other cup", slug="other", organizers=[other])
    participant = world.users["a"]
    return {
        "world": world,
        "users": {
            "participant": participant,
            "other_organizer": other,
            "organizer": world.organizer,
        },
    }


def console_urls(world) -> dict[str, tuple[str, str, dict]]:
    """name → (method, url, POST data) for every console page of the world's competition."""
    c, r = world.competition.slug, world.round.slug
    team = world.teams["a"]
    member = world.users["a"]
    return {
        "competition": ("get", reverse("console:competition", args=[c]), {}),
        "competition_edit": ("get", reverse("console:competition_edit", args=[c]), {}),
        "organizer_invite": ("get", reverse("console:organizer_invite", args=[c]), {}),
        "teams": ("get", reverse("console:teams", args=[c]), {}),
        "standings": ("get", reverse("console:standings", args=[c]), {}),
        "team_rename": ("get", reverse("console:team_rename", args=[c, team.pk]), {}),
        "team_disqualify": ("get", reverse("console:team_disqualify", args=[c, team.pk]), {}),
        "team_reinstate": ("post", reverse("console:team_reinstate", args=[c, team.pk]), {}),
        "member_remove": (
            "post",
            reverse("console:member_remove", args=[c, team.pk, member.pk]),
            {},
        ),
        "wizard_upload": ("get", reverse("pwscup2015_console:wizard_upload", args=[c]), {}),
        "wizard_roles": ("get", reverse("pwscup2015_console:wizard_roles", args=[c]), {}),
        "wizard_data": ("get", reverse("pwscup2015_console:wizard_data", args=[c]), {}),
        "wizard_phases": ("get", reverse("pwscup2015_console:wizard_phases", args=[c]), {}),
        "wizard_rules": ("get", reverse("pwscup2015_console:wizard_rules", args=[c]), {}),
        "wizard_review": ("get", reverse("pwscup2015_console:wizard_review", args=[c]), {}),
        "wizard_cancel": ("post", reverse("pwscup2015_console:wizard_cancel", args=[c]), {}),
        "round": ("get", reverse("console:round", args=[c, r]), {}),
        "round_edit": ("get", reverse("pwscup2015_console:round_edit", args=[c, r]), {}),
        "round_archive": ("get", reverse("pwscup2015_console:round_archive", args=[c, r]), {}),
        **{
            f"action_{name}": ("get", reverse("console:round_action", args=[c, r, name]), {})
            # The actions offered now ("hide" only once the results are published).
            for name in ("close", "freeze", "rescore", "publish")
        },
    }


# What each role gets: a visitor is sent to log in; an account that does not organize this
# competition gets the same 404 as for a competition that does not exist.
EXPECTED = {"anon": 302, "participant": 404, "other_organizer": 404}
ORGANIZER = {"wizard_roles": 302, "wizard_data": 302, "wizard_phases": 302}  # step 1 first
ORGANIZER_POST = 302  # a POST answers with a redirect to the page it changed


@pytest.mark.parametrize("role", ROLES)
def test_every_console_url_lets_only_the_organizer_in(console, client, role):
    world = console["world"]
    if role != "anon":
        client.force_login(console["users"][role])
    for name, (method, url, data) in console_urls(world).items():
        response = getattr(client, method)(url, data)
        if role == "organizer":
            wanted = ORGANIZER_POST if method == "post" else ORGANIZER.get(name, 200)
            if name == "wizard_review" or name == "wizard_rules":
                wanted = 302
        else:
            wanted = EXPECTED[role]
        assert response.status_code == wanted, (name, role, response.status_code)
        if role == "anon":
            assert response["Location"].startswith(reverse("login")), name
        if role in ("participant", "other_organizer"):
            body = b"".join(response) if response.streaming else response.content
            assert world.competition.name.encode() not in body, (name, role)


def test_console_home_and_creation_need_the_permission(client, console, django_user_model):
    participant = console["users"]["participant"]
    client.force_login(participant)
    assert client.get(reverse("console:home")).status_code == 403
    assert client.get(reverse("console:competition_new")).status_code == 403
    client.force_login(console["users"]["organizer"])
    page = client.get(reverse("console:home"))
    assert page.status_code == 200
    assert console["world"].competition.name in page.content.decode()
    assert "Other cup" not in page.content.decode()
    assert client.get(reverse("console:competition_new")).status_code == 403
    assert client.get("/console/").status_code == 200


def test_creating_a_competition_makes_the_creator_its_organizer(client, django_user_model):
    creator = django_user_model.objects.create_user("creator", password="pw")
    client.force_login(creator)
    assert client.get(reverse("console:competition_new")).status_code == 403
    call_command("allow_competitions", "creator", stdout=io.StringIO())
    assert 'data-testid="console-link"' in client.get("/").content.decode()
    response = client.post(
        reverse("console:competition_new"),
        {"name": "Spring cup", "slug": "spring", "description": "# Rules\n\n<script>x</script>"},
    )
    assert response.status_code == 302
    competition = Competition.objects.get(slug="spring")
    assert list(competition.organizers.all()) == [creator]
    assert not creator.is_staff
    entry = AuditEntry.objects.get(competition=competition)
    assert (entry.action, entry.user) == (AuditEntry.Action.COMPETITION_CREATED, creator)
    page = client.get(reverse("competition_detail", args=["spring"])).content.decode()
    assert "<h1>Rules</h1>" in page
    assert "<script>x</script>" not in page
    # A new competition has no round yet: the pages point to its "New round" buttons (one
    # per kind), not to "the wizard", which makes only one kind.
    for language, button in (("en", "New round"), ("ja", "新しいラウンド")):
        for url in (reverse("console:home"), reverse("console:competition", args=["spring"])):
            text = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            assert button in text and "wizard" not in text and "ウィザード" not in text, url


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_bad_address_says_what_an_address_may_hold(client, world, language):
    """Not Django's "Enter a valid “slug”": the word is neither the form's nor Japanese."""
    call_command("allow_competitions", world.organizer.username, stdout=io.StringIO())
    client.force_login(world.organizer)
    client.cookies["django_language"] = language
    competition = client.post(reverse("console:competition_new"), {"name": "X", "slug": "a b"})
    rendered = {"name": "X", "slug": "a b", "timezone": "Asia/Tokyo"}
    round_ = client.post(reverse("scorer_console:create", args=[world.competition.slug]), rendered)
    for response in (competition, round_):
        page = response.content.decode()
        assert "slug" not in " ".join(response.context["form"].errors["slug"]), language
        if language == "en":
            assert "Use only letters, digits, hyphens (-) and underscores (_)" in page
        else:
            assert "半角の英数字・ハイフン（-）・アンダースコア（_）だけを使ってください" in page


def test_inviting_a_co_organizer_by_email(client, console, django_user_model):
    world = console["world"]
    helper = django_user_model.objects.create_user("helper", email="Helper@Example.org")
    client.force_login(world.organizer)
    url = reverse("console:organizer_invite", args=[world.competition.slug])
    missing = client.post(url, {"identifier": "nobody@example.org"})
    assert "No single active account has the e-mail address “nobody@example.org”." in (
        missing.content.decode()
    )
    assert client.post(url, {"identifier": "helper@example.org"}).status_code == 302
    assert world.competition.organizers.filter(pk=helper.pk).exists()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ORGANIZER_ADDED)
    assert entry.detail == {"organizer": "helper"}
    client.force_login(helper)
    assert (
        client.get(reverse("console:competition", args=[world.competition.slug])).status_code == 200
    )


def test_an_e_mail_invitation_matches_e_mail_addresses_only(client, console, django_user_model):
    world = console["world"]
    # A participant whose *user name* is the address the organizer types.
    impostor = django_user_model.objects.create_user("helper@example.org", email="x@ex.org")
    client.force_login(world.organizer)
    url = reverse("console:organizer_invite", args=[world.competition.slug])
    missing = client.post(url, {"identifier": "helper@example.org"})
    assert missing.status_code == 200
    # The refusal says how to name the account by its user name instead.
    assert "If this is a user name holding @, write it as user:helper@example.org." in (
        missing.content.decode()
    )
    assert not world.competition.organizers.filter(pk=impostor.pk).exists()
    # The owner of the address is the one invited, even with the impostor beside them.
    helper = django_user_model.objects.create_user("helper", email="Helper@Example.org")
    assert client.post(url, {"identifier": "helper@example.org"}).status_code == 302
    assert world.competition.organizers.filter(pk=helper.pk).exists()
    assert not world.competition.organizers.filter(pk=impostor.pk).exists()
    # A user name holding "@" is named with "user:"; a plain name matches user names only.
    assert client.post(url, {"identifier": "user:helper@example.org"}).status_code == 302
    assert world.competition.organizers.filter(pk=impostor.pk).exists()
    assert user_by_name_or_email(identifier="x") is None
    unknown = client.post(url, {"identifier": "user:nosuch"}).content.decode()
    assert "No active account has the user name “nosuch”." in unknown
    # Both invitation forms say how an input is read.
    for page in (url, reverse("console:competition", args=[world.competition.slug])):
        assert "For a user name that holds @, write user:NAME." in client.get(page).content.decode()
    django_user_model.objects.create_user("solo", email="other@ex.org")
    django_user_model.objects.create_user("someone", email="solo")  # a bogus address
    assert user_by_name_or_email(identifier="Solo").username == "solo"


def test_each_round_action_is_recorded_in_the_audit_log(client, console):
    world = console["world"]
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    client.force_login(world.organizer)
    c, r = world.competition.slug, world.round.slug
    for action, recorded in (
        ("freeze", AuditEntry.Action.ROUND_FROZEN),
        ("rescore", AuditEntry.Action.ROUND_RESCORED),
        ("publish", AuditEntry.Action.RESULTS_PUBLISHED),
    ):
        response = client.post(reverse("console:round_action", args=[c, r, action]))
        assert response.status_code == 302
        entry = AuditEntry.objects.filter(round=world.round).first()
        assert (entry.action, entry.user) == (recorded, world.organizer)
        run_operations()
    assert RoundOperation.objects.filter(round=world.round).count() == 3
    world.round.refresh_from_db()
    assert world.round.pwscup2015.frozen_at is not None and world.round.pwscup2015.results_published
    client.post(reverse("console:round_action", args=[c, r, "hide"]))
    assert not Pwscup2015Round.objects.get(round_id=world.round.pk).results_published
    assert AuditEntry.objects.filter(round=world.round).first().action == (
        AuditEntry.Action.RESULTS_HIDDEN
    )
    page = client.get(reverse("console:round", args=[c, r])).content.decode()
    for label in ("Froze the round", "Rescored everything", "Published the results"):
        assert label in page
    assert 'data-testid="target-teamA"' in page


def test_team_management_is_audited_and_disqualification_hides_the_team(client, console):
    world = console["world"]
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    client.force_login(world.organizer)
    c, team = world.competition.slug, world.teams["a"]
    assert {row.team.slug for row in anonymization_leaderboard(phase=world.anonymization)} == {
        "teamA",
        "teamB",
    }
    client.post(reverse("console:team_rename", args=[c, team.pk]), {"name": "Alpha"})
    # Read once through the cache: the disqualification must invalidate it.
    assert len(anonymization_leaderboard_cached(phase=world.anonymization)) == 2
    response = client.post(
        reverse("console:team_disqualify", args=[c, team.pk]), {"reason": "Shared answers."}
    )
    assert response.status_code == 302
    assert TeamDisqualification.objects.get(team=team).reason == "Shared answers."
    assert [row.team.slug for row in anonymization_leaderboard(phase=world.anonymization)] == [
        "teamB"
    ]
    cached = anonymization_leaderboard_cached(phase=world.anonymization)
    assert [row.team.slug for row in cached] == ["teamB"]
    freeze(world)
    anonymization, attack = final_ranking(round=world.round)
    assert [row.team.slug for row in anonymization] == ["teamB"]
    assert "teamA" not in [row.team.slug for row in attack]
    client.post(reverse("console:member_remove", args=[c, team.pk, world.users["a"].pk]))
    assert not team.memberships.filter(user=world.users["a"]).exists()
    client.post(reverse("console:team_reinstate", args=[c, team.pk]))
    assert not TeamDisqualification.objects.filter(team=team).exists()
    actions = list(
        AuditEntry.objects.filter(competition=world.competition)
        .order_by("created_at", "id")
        .values_list("action", flat=True)
    )
    assert actions == [
        AuditEntry.Action.TEAM_RENAMED,
        AuditEntry.Action.TEAM_DISQUALIFIED,
        AuditEntry.Action.MEMBER_REMOVED,
        AuditEntry.Action.TEAM_REINSTATED,
    ]
    page = client.get(reverse("console:teams", args=[c])).content.decode()
    assert "Alpha" in page


def test_the_console_s_audit_log_reads_a_renamed_team_in_japanese(client, world):
    assert not world.organizer.is_superuser
    client.force_login(world.organizer)
    c, team = world.competition.slug, world.teams["a"]
    client.post(reverse("console:team_rename", args=[c, team.pk]), {"name": "Alpha"})
    client.post(
        reverse("console:team_disqualify", args=[c, team.pk]), {"reason": "Shared answers."}
    )
    page = client.get(
        reverse("console:competition", args=[c]), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    log = page[page.index('data-testid="audit-log"') :]
    assert "新しい名前: Alpha; 元の名前: Team A" in log
    assert "チーム: Alpha; 理由: Shared answers." in log
    for raw in ("new:", "old:", "team:", "reason:"):
        assert raw not in log


def test_participants_list_shows_emails_to_the_organizer_only(client, console, django_user_model):
    world = console["world"]
    world.users["a"].email = "alice@example.org"
    world.users["a"].save()
    client.force_login(world.organizer)
    page = client.get(reverse("console:teams", args=[world.competition.slug])).content.decode()
    assert "alice@example.org" in page
    client.force_login(world.users["b"])
    for url in (
        reverse("competition_detail", args=[world.competition.slug]),
        world.round_url(),
        reverse("console:teams", args=[world.competition.slug]),
    ):
        assert b"alice@example.org" not in client.get(url).content


def test_the_archive_holds_every_submission_attack_and_target(client, console):
    world = console["world"]
    first = scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    freeze(world)
    client.force_login(world.organizer)
    response = client.get(
        reverse("pwscup2015_console:round_archive", args=[world.competition.slug, world.round.slug])
    )
    assert response.status_code == 200 and response.streaming
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    names = archive.namelist()
    assert f"anonymizations/teamA/{first.pk}-{first.original_filename}" in names
    assert "targets/teamA-v1/truth.csv" in names and "targets/teamB-v1/anonymized.csv" in names
    with first.file.open("rb") as handle:
        assert archive.read(f"anonymizations/teamA/{first.pk}-{first.original_filename}") == (
            handle.read()
        )
    assert AuditEntry.objects.filter(action=AuditEntry.Action.ARCHIVE_DOWNLOADED).count() == 1


# --- The round wizard --------------------------------------------------------------------


def _wizard(client, competition, step):
    return reverse(f"pwscup2015_console:wizard_{step}", args=[competition.slug])


def _phases_post(**changes):
    data = {
        "name": "Round two",
        "slug": "r2",
        "timezone": "Asia/Tokyo",
        "anonymization_opens_at": "2030-01-10T09:00",
        "anonymization_closes_at": "2030-01-20T18:00",
        "attack_opens_at": "2030-01-21T09:00",
        "attack_closes_at": "2030-01-31T18:00",
    }
    data.update(changes)
    return data


def test_wizard_keeps_the_upload_and_creates_the_round(client, world):
    client.force_login(world.organizer)
    competition = world.competition
    original = adult_head(120).decode().replace("United-States", "日本").encode("cp932")
    response = client.post(
        _wizard(client, competition, "upload"), {"original": csv_upload(original, "adult.csv")}
    )
    assert response.status_code == 302
    page = client.get(_wizard(client, competition, "upload")).content.decode()
    assert 'data-testid="profile-age"' in page and "日本" in page
    # The defaults: Adult's age is a QI, fnlwgt (many distinct numbers) an SA.
    roles = client.get(_wizard(client, competition, "roles"))
    form = roles.context["form"]
    assert "age" in form.initial["qi"] and "age" not in form.initial["sa"]
    assert "fnlwgt" in form.initial["sa"]
    # The defaults are a valid configuration as they stand.
    defaults = {k: v for k, v in form.initial.items() if v}
    assert client.post(_wizard(client, competition, "roles"), defaults).status_code == 302
    # A bad choice: the message of scoring.load_config is shown next to its field.
    bad = {**form.initial, "e2_column": "age"}
    response = client.post(_wizard(client, competition, "roles"), bad)
    assert response.status_code == 200
    assert "e2_column" in response.context["form"].errors
    assert "Kept: <strong>adult.csv</strong> (120 rows)" not in response.content.decode()
    # The organizer's own configuration JSON replaces the choices.
    config = json.dumps(adult_config()).encode()
    response = client.post(
        _wizard(client, competition, "roles"),
        {"config_file": csv_upload(config, "round.json")},
    )
    assert response.status_code == 302, response.context["form"].errors
    assert (
        client.post(_wizard(client, competition, "data"), {"data_mode": "shared"}).status_code
        == 302
    )
    # The attack phase may not open before the anonymization phase closes.
    early = client.post(
        _wizard(client, competition, "phases"), _phases_post(attack_opens_at="2030-01-15T09:00")
    )
    assert "attack_opens_at" in early.context["form"].errors
    phases = _phases_post(attack_target_limit="2")  # PWSCup 2019: two attacks per target
    assert client.post(_wizard(client, competition, "phases"), phases).status_code == 302
    rules = {
        "gate_S1_min": "5",
        "gate_S1_max": "2",
        "tie_break_metric": "U1",
        "ranking_rule": "worst_attack",
        "selection_rule": "selected_or_last",
        "attack_visibility": "live",
        "auto_freeze": "on",
    }
    refused = client.post(_wizard(client, competition, "rules"), rules)
    assert "min 5 is above max 2" in " ".join(refused.context["form"].non_field_errors())
    del rules["gate_S1_max"]
    rules["gate_U1_max"] = "100"
    assert client.post(_wizard(client, competition, "rules"), rules).status_code == 302
    assert "Round two" in client.get(_wizard(client, competition, "review")).content.decode()
    response = client.post(_wizard(client, competition, "review"))
    assert response.status_code == 302
    round_ = Round.objects.get(competition=competition, slug="r2")
    assert round_.original_rows == 120 and round_.config["qi"][0] == "age"
    assert round_.pwscup2015.utility_gates == {"U1": 100, "S1": {"min": 5}}
    anonymization = round_.phases.get(kind=Phase.Kind.ANONYMIZATION)
    # Entered in the round's zone: 09:00 in Tokyo is 00:00 UTC.
    assert anonymization.opens_at.isoformat() == "2030-01-10T00:00:00+00:00"
    assert (anonymization.target_limit, round_.phases.get(kind="attack").target_limit) == (None, 2)
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ROUND_CREATED)
    assert entry.round == round_ and entry.detail["rows"] == 120
    # The kept upload is gone with the wizard's state.
    assert client.get(_wizard(client, competition, "roles")).status_code == 302


def test_wizard_upload_error_names_the_problem(client, world):
    client.force_login(world.organizer)
    response = client.post(
        _wizard(client, world.competition, "upload"),
        {"original": csv_upload(b"a,b\n1,2,3\n", "broken.csv")},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["original"]


def test_round_edit_offers_a_rescore_after_a_configuration_change(client, world):
    scored(world, "a", seed=1)
    client.force_login(world.organizer)
    c, r = world.competition.slug, world.round.slug
    form = client.get(reverse("pwscup2015_console:round_edit", args=[c, r])).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    for key in (
        "anonymization_opens_at",
        "anonymization_closes_at",
        "attack_opens_at",
        "attack_closes_at",
    ):
        data[key] = form.initial[key].strftime("%Y-%m-%dT%H:%M")
    data["allow_attack_before_close"] = "on"  # the test world's phases overlap
    config = adult_config()
    config["cross"] = ["age", "sex"]
    data["config"] = json.dumps(config)
    data["attack_target_limit"] = "3"
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    response = client.post(reverse("pwscup2015_console:round_edit", args=[c, r]), data)
    assert response.status_code == 302, response.context["form"].errors
    assert response["Location"].endswith("?rescore=offer")
    world.round.refresh_from_db()
    assert world.round.config["cross"] == ["age", "sex"]
    assert world.round.phases.get(kind="attack").target_limit == 3
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ROUND_EDITED)
    assert "config" in entry.detail["fields"] and "attack_phase" in entry.detail["fields"]
    page = client.get(response["Location"]).content.decode()
    assert 'data-testid="rescore-offer"' in page
    # A configuration the original cannot satisfy stays refused, next to the field.
    config["e2_column"] = "age"
    data["config"] = json.dumps(config)
    refused = client.post(reverse("pwscup2015_console:round_edit", args=[c, r]), data)
    assert "config" in refused.context["form"].errors


def test_the_edit_form_of_a_round_whose_phases_overlap_saves_as_rendered(client, world):
    """Windows set to overlap (the test world's) come back with the tick that allowed it: a
    rename is not refused for a choice already made."""
    client.force_login(world.organizer)
    url = reverse("pwscup2015_console:round_edit", args=[world.competition.slug, world.round.slug])
    fields = form_fields_of(client.get(url).content.decode(), "round-edit-form")
    response = client.post(url, post_data(fields, {"name": "Renamed as rendered"}))
    assert response.status_code == 302, response.context["form"].errors
    world.round.refresh_from_db()
    assert world.round.name == "Renamed as rendered"


def test_editing_the_competition_sets_team_rules_and_is_recorded(client, world):
    client.force_login(world.organizer)
    url = reverse("console:competition_edit", args=[world.competition.slug])
    response = client.post(
        url,
        {
            "name": world.competition.name,
            "description": "Read **the rules**.",
            "is_listed": "on",
            "max_team_size": "3",
            "registration_locked": "on",
        },
    )
    assert response.status_code == 302
    competition = Competition.objects.get(pk=world.competition.pk)
    assert (competition.max_team_size, competition.registration_locked) == (3, True)
    entry = AuditEntry.objects.get(action=AuditEntry.Action.COMPETITION_EDITED)
    assert entry.detail == {"fields": ["description", "max_team_size", "registration_locked"]}
    page = client.get(reverse("console:competition", args=[competition.slug])).content.decode()
    assert "<strong>the rules</strong>" in page and "Registration is locked." in page
    page = client.get(
        reverse("console:competition", args=[competition.slug]), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    log = page[page.index('data-testid="audit-log"') :]
    assert "変更した項目: 説明、チームの最大人数、登録締切" in log
    assert "fields:" not in log and "max_team_size" not in log


def test_a_console_form_says_what_it_did_and_nothing_when_nothing_changed(client, console):
    """``form_page``: the service's answer read into the message above the page it goes
    back to; an edit that changed nothing says nothing."""
    world = console["world"]
    client.force_login(world.organizer)
    c = world.competition.slug
    invited = client.post(
        reverse("console:organizer_invite", args=[c]), {"identifier": "other-org"}, follow=True
    )
    assert invited.redirect_chain == [(reverse("console:competition", args=[c]), 302)]
    assert "other-org now organizes this competition." in invited.content.decode()
    fields = {"name": world.competition.name, "max_team_size": "5"}
    edited = client.post(reverse("console:competition_edit", args=[c]), fields, follow=True)
    assert "Competition saved." in edited.content.decode()
    again = client.post(reverse("console:competition_edit", args=[c]), fields, follow=True)
    assert again.redirect_chain == [(reverse("console:competition", args=[c]), 302)]
    assert "Competition saved." not in again.content.decode()


def test_markdown_descriptions_keep_formatting_and_lose_anything_active():
    html = render_markdown(
        "## Rules\n\n[site](https://example.org) [bad](javascript:alert(1)) "
        '<img src=x onerror="alert(1)"> <b onclick="x()">bold</b>\n\n| a | b |\n|---|---|\n| 1 | 2 |'
    )
    assert "<h2>Rules</h2>" in html
    assert '<a href="https://example.org" rel="noopener noreferrer nofollow">site</a>' in html
    assert "<td>1</td>" in html and "<b>bold</b>" in html
    for active in ("javascript:", "onerror", "onclick", "<img", "<script"):
        assert active not in html, active


@pytest.mark.parametrize("role", ("anon", "participant", "other_organizer"))
def test_no_console_action_works_for_anyone_but_the_organizer(console, client, role):
    world = console["world"]
    if role != "anon":
        client.force_login(console["users"][role])
    c, r, team = world.competition.slug, world.round.slug, world.teams["a"]
    posts = [
        (reverse("console:competition_edit", args=[c]), {"name": "Taken", "max_team_size": 2}),
        (reverse("console:organizer_invite", args=[c]), {"identifier": "other-org"}),
        (reverse("console:team_rename", args=[c, team.pk]), {"name": "Taken"}),
        (reverse("console:team_disqualify", args=[c, team.pk]), {"reason": "x"}),
        (reverse("console:member_remove", args=[c, team.pk, world.users["a"].pk]), {}),
        *[
            (reverse("console:round_action", args=[c, r, name]), {})
            # The actions offered now ("hide" only once the results are published).
            for name in ("close", "freeze", "rescore", "publish")
        ],
        (reverse("pwscup2015_console:round_edit", args=[c, r]), {"name": "Taken"}),
        (
            reverse("pwscup2015_console:wizard_upload", args=[c]),
            {"original": csv_upload(adult_head(5))},
        ),
    ]
    for url, data in posts:
        response = client.post(url, data)
        assert response.status_code == (302 if role == "anon" else 404), url
    world.competition.refresh_from_db()
    team.refresh_from_db()
    assert world.competition.name != "Taken" and team.name != "Taken"
    assert world.competition.organizers.count() == 1
    assert team.memberships.filter(user=world.users["a"]).exists()
    assert not TeamDisqualification.objects.exists()
    assert not RoundOperation.objects.exists() and not AuditEntry.objects.exists()
    assert Round.objects.get(pk=world.round.pk).name != "Taken"


def test_per_team_rounds_draw_samples_from_the_console(client, make_world):
    world = make_world(slug="pt", data_mode="per_team")
    client.force_login(world.organizer)
    c, r = world.competition.slug, world.round.slug
    late = team_create(competition=world.competition, name="Late team", slug="late")
    page = client.get(reverse("console:round", args=[c, r])).content.decode()
    assert 'data-testid="action-samples"' in page
    response = client.post(reverse("console:round_action", args=[c, r, "samples"]))
    assert response.status_code == 302
    assert TeamDataset.objects.filter(round=world.round, team=late).exists()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.SAMPLES_DRAWN)
    assert entry.detail == {"samples": 1}


def test_a_shared_round_has_no_samples_action(client, world):
    client.force_login(world.organizer)
    url = reverse(
        "console:round_action", args=[world.competition.slug, world.round.slug, "samples"]
    )
    assert client.get(url).status_code == 404


def test_the_per_team_mode_needs_a_sample_size(client, world):
    client.force_login(world.organizer)
    competition = world.competition
    client.post(_wizard(client, competition, "upload"), {"original": csv_upload(adult_head(50))})
    form = client.get(_wizard(client, competition, "roles")).context["form"]
    client.post(_wizard(client, competition, "roles"), {k: v for k, v in form.initial.items() if v})
    response = client.post(_wizard(client, competition, "data"), {"data_mode": "per_team"})
    assert response.context["form"].errors["sample_size"] == [
        "The per-team mode needs a sample size."
    ]
    ok = client.post(
        _wizard(client, competition, "data"),
        {"data_mode": "per_team", "sample_size": "20", "decoy_count": "10"},
    )
    assert ok.status_code == 302


def test_the_audit_log_is_read_only_in_the_admin(client, world, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", "b@example.org", "pw")
    client.force_login(world.organizer)
    client.post(
        reverse("console:team_rename", args=[world.competition.slug, world.teams["a"].pk]),
        {"name": "Alpha"},
    )
    client.force_login(boss)
    listing = client.get("/admin/competitions/auditentry/").content.decode()
    assert "Renamed a team" in listing and "New name: Alpha; Old name: Team A" in listing
    entry = AuditEntry.objects.get()
    assert (
        client.post(
            f"/admin/competitions/auditentry/{entry.pk}/delete/", {"post": "yes"}
        ).status_code
        == 403
    )
    assert AuditEntry.objects.count() == 1
