"""One owner for the address (slug) rules: ``competitions.addresses.slug_check``. Every entry
point that names a competition's or a round's address (services, console pages, the wizard,
the kinds' console pages, the admin) answers with its message."""

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from pwscup.competitions.models import Competition, Round
from pwscup.competitions.services import competition_create, round_of_kind_create
from pwscup.dp.services import dp_round_create
from pwscup.kinds.round_basics import RoundBasics
from pwscup.pwscup2015.console.services import console_round_create
from pwscup.pwscup2015.services.rounds import round_create
from tests.pwscup.dp_world import TOY_CONFIG, toy_csv
from tests.pwscup.seq_web_world import fixture, fixture_config, upload_file
from tests.support import adult_config, adult_head, csv_upload

pytestmark = pytest.mark.django_db

ROUND_TAKEN = "This competition already has a round at this address."
COMPETITION_TAKEN = "A competition with this address already exists."


def reserved(slug: str) -> str:
    return f"The address {slug} is taken by the team pages: choose another one."


def invalid(slug: str) -> str:
    return (
        f"The address {slug!r} is not valid: use 1 to 50 letters, digits, hyphens or underscores."
    )


def refused(call) -> list[str]:
    with pytest.raises(ValidationError) as error:
        call()
    return error.value.message_dict["slug"]


# --- Services --------------------------------------------------------------------------


def two_phase_round(world, slug):
    return lambda: round_create(
        basics=RoundBasics(competition=world.competition, name="Again", slug=slug),
        original=adult_head(20),
        original_filename="adult.csv",
        config_raw=adult_config(),
    )


def dp_round(world, slug):
    import datetime as dt

    from django.utils import timezone

    now = timezone.now()
    return lambda: dp_round_create(
        basics=RoundBasics(competition=world.competition, name="DP", slug=slug),
        table=toy_csv(),
        table_filename="hidden.csv",
        config_raw=TOY_CONFIG,
        opens_at=now,
        closes_at=now + dt.timedelta(days=1),
    )


def sequential_round(world, slug):
    from pwscup.sequential.services import sequential_round_create

    return lambda: sequential_round_create(
        basics=RoundBasics(competition=world.competition, name="Seq", slug=slug),
        config=fixture_config("zhang_config.json"),
        master_file=upload_file(fixture("zhang_master.csv"), "master.csv"),
    )


SERVICES = {
    "round_create": two_phase_round,
    "dp_round_create": dp_round,
    "sequential_round_create": sequential_round,
}


@pytest.mark.parametrize("service", SERVICES)
@pytest.mark.parametrize(
    ("slug", "message"),
    [
        ("r1", ROUND_TAKEN),
        ("team", reserved("team")),
        ("join", reserved("join")),
        ("no spaces", invalid("no spaces")),
        ("x" * 51, invalid("x" * 51)),
        ("", invalid("")),
    ],
)
def test_every_kinds_round_service_refuses_an_address_with_the_same_message(
    world, service, slug, message
):
    assert refused(SERVICES[service](world, slug)) == [message]
    assert not Round.objects.filter(competition=world.competition).exclude(slug="r1").exists()


def test_the_same_round_address_is_free_in_another_competition(world):
    other = competition_create(name="Other", slug="other")
    round_of_kind_create(
        basics=RoundBasics(competition=other, name="R", slug="r1"), kind="pwscup2015", config={}
    )
    assert Round.objects.filter(slug="r1").count() == 2


def test_a_competition_address_is_checked_by_the_service(world):
    assert refused(lambda: competition_create(name="Again", slug="cup")) == [COMPETITION_TAKEN]
    assert refused(lambda: competition_create(name="Bad", slug="a/b")) == [invalid("a/b")]
    # "team" is a competition's address like any other; the console's own pages beside
    # console/<competition>/ are not.
    assert competition_create(name="Team", slug="team").slug == "team"
    for slug in ("new", "creators"):
        assert refused(lambda slug=slug: competition_create(name="X", slug=slug)) == [
            f"The address {slug} is taken by the console's pages: choose another one."
        ]


def test_the_wizards_service_refuses_a_taken_address(world):
    def create():
        console_round_create(
            user=world.organizer,
            basics=RoundBasics(
                competition=world.competition, name="Again", slug="r1", timezone="Asia/Tokyo"
            ),
            original=adult_head(20),
            original_filename="adult.csv",
            config=adult_config(),
            data={"data_mode": "shared"},
            phases={},
            rules={"utility_gates": {}, "tie_break_metric": "U1"},
        )

    assert refused(create) == [ROUND_TAKEN]


# --- Pages -----------------------------------------------------------------------------


def wizard_to_phases(client, competition) -> str:
    def step(name):
        return reverse(f"pwscup2015_console:wizard_{name}", args=[competition.slug])

    client.post(step("upload"), {"original": csv_upload(adult_head(40), "adult.csv")})
    config = json.dumps(adult_config()).encode()
    client.post(step("roles"), {"config_file": csv_upload(config, "round.json")})
    client.post(step("data"), {"data_mode": "shared"})
    return step("phases")


def phases_post(slug):
    return {
        "name": "Round two",
        "slug": slug,
        "timezone": "Asia/Tokyo",
        "anonymization_opens_at": "2030-01-10T09:00",
        "anonymization_closes_at": "2030-01-20T18:00",
        "attack_opens_at": "2030-01-21T09:00",
        "attack_closes_at": "2030-01-31T18:00",
    }


@pytest.mark.parametrize(("slug", "message"), [("r1", ROUND_TAKEN), ("team", reserved("team"))])
def test_the_wizard_names_a_taken_or_reserved_address_at_its_step(world, client, slug, message):
    client.force_login(world.organizer)
    phases = wizard_to_phases(client, world.competition)
    response = client.post(phases, phases_post(slug))
    assert response.status_code == 200
    assert response.context["form"].errors["slug"] == [message]


def test_the_wizards_last_step_names_an_address_taken_meanwhile(world, client):
    client.force_login(world.organizer)
    phases = wizard_to_phases(client, world.competition)
    assert client.post(phases, phases_post("r2")).status_code == 302
    rules = {
        "tie_break_metric": "U1",
        "ranking_rule": "worst_attack",
        "selection_rule": "selected_or_last",
        "attack_visibility": "live",
    }
    client.post(reverse("pwscup2015_console:wizard_rules", args=[world.competition.slug]), rules)
    round_of_kind_create(
        basics=RoundBasics(competition=world.competition, name="R2", slug="r2"),
        kind="pwscup2015",
        config={},
    )
    response = client.post(
        reverse("pwscup2015_console:wizard_review", args=[world.competition.slug])
    )
    assert response.status_code == 200
    assert [str(m) for m in get_messages(response.wsgi_request)] == [ROUND_TAKEN]


def dp_console_post(slug):
    return {
        "name": "DP",
        "slug": slug,
        "config": json.dumps(TOY_CONFIG),
        "timezone": "Asia/Tokyo",
        "opens_at": "2030-01-01 00:00",
        "closes_at": "2030-12-01 00:00",
        "table": SimpleUploadedFile("t.csv", toy_csv()),
    }


def sequential_console_post(slug):
    return {
        "name": "Seq",
        "slug": slug,
        "config": json.dumps(fixture_config("zhang_config.json")),
        "master": upload_file(fixture("zhang_master.csv"), "master.csv"),
    }


KIND_PAGES = {
    "dp_console:create": dp_console_post,
    "sequential_console:create": sequential_console_post,
}


@pytest.mark.parametrize("page", KIND_PAGES)
@pytest.mark.parametrize(
    ("slug", "message"),
    [("r1", ROUND_TAKEN), ("join", reserved("join")), ("x" * 60, invalid("x" * 60))],
)
def test_the_kinds_console_pages_answer_with_the_same_message(world, client, page, slug, message):
    client.force_login(world.organizer)
    response = client.post(reverse(page, args=[world.competition.slug]), KIND_PAGES[page](slug))
    assert response.status_code == 200
    assert response.context["form"].errors["slug"] == [message]


def test_the_console_refuses_a_taken_competition_address(world, client):
    user = get_user_model().objects.create_user("creator", password="pw")
    call_command("allow_competitions", "creator", stdout=io.StringIO())
    client.force_login(user)
    response = client.post(reverse("console:competition_new"), {"name": "Again", "slug": "cup"})
    assert response.status_code == 200
    assert response.context["form"].errors["slug"] == [COMPETITION_TAKEN]


def test_the_admin_answers_with_the_same_messages(world, client):
    admin_user = get_user_model().objects.create_superuser("root", "root@ex.org", "pw")
    client.force_login(admin_user)
    response = client.post(
        reverse("admin:competitions_competition_add"),
        {"name": "Again", "slug": "cup", "max_team_size": 4, "Round_competition-TOTAL_FORMS": 0},
    )
    assert response.context["adminform"].form.errors["slug"] == [COMPETITION_TAKEN]
    for slug, message in (("r1", ROUND_TAKEN), ("team", reserved("team"))):
        response = client.post(
            reverse("admin:competitions_round_add"),
            {"competition": world.competition.pk, "name": "Again", "slug": slug},
        )
        assert response.context["adminform"].form.errors["slug"] == [message], slug
    # Editing a round keeps its own address.
    response = client.post(
        reverse("admin:competitions_round_change", args=[world.round.pk]),
        {"competition": world.competition.pk, "name": "Round", "slug": "r1"},
    )
    assert "slug" not in response.context["adminform"].form.errors
    assert Competition.objects.filter(slug="cup").count() == 1
