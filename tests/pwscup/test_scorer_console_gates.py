"""The scorer round's creation page holds the gates of a real edition: PWSCup 2021 gated
each anonymization on four numbers (the rate, odds-ratio and correlation differences of
Umark, at most 0.05, 0.1 and 0.1, and the information loss, at most 6), posted at once as
the browser renders the page, by an organizer who is not a superuser."""

import pytest
from django.test import Client

from pwscup.accounts.services import organizer_grant, user_create
from pwscup.competitions.models import Round
from pwscup.competitions.services import competition_create
from tests.pwscup.rendered_forms import post_as_rendered
from tests.pwscup.test_scorer_console import create_url, typed

pytestmark = pytest.mark.django_db


UMARK = [("rate", 0.05), ("or", 0.1), ("cor", 0.1), ("iloss", 6.0)]


def test_the_four_gates_of_pwscup_2021_are_typed_on_the_creation_page():
    user = user_create(username="gates21-org", password="pw")
    competition = competition_create(name="PWSCup 2021", slug="gates21", organizers=[])
    organizer_grant(user=user, competition=competition)
    client = Client()
    client.force_login(user)
    columns = {}
    for row, (key, most) in enumerate(UMARK):
        columns.update(
            {
                f"release_col_{row}_key": key,
                f"release_col_{row}_label": key,
                f"release_col_{row}_higher": False,
                f"gate_{row}_key": key,
                f"gate_{row}_bound": "max",
                f"gate_{row}_value": most,
            }
        )
    fill = typed(release_primary="iloss", release_rank="protection", **columns)
    answer = post_as_rendered(client, create_url(competition), "scorer-create", fill)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    config = Round.objects.get(competition=competition, slug="own").config
    assert config["gates"] == [{"key": key, "max": most} for key, most in UMARK]
