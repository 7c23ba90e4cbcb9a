"""A level whose budget is spent: the page says so and offers only the estimate upload, not
forms that can only be refused."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.pwscup.dp_world import build_dp_world


@pytest.fixture
def world(db):
    return build_dp_world()


def level_url(world, name="level"):
    kwargs = {
        "competition_slug": world.competition.slug,
        "round_slug": world.round.slug,
        "level": "eps-1",
    }
    return reverse(f"dp:{name}", kwargs=kwargs)


def test_a_spent_level_says_so_and_keeps_only_the_estimate_form(world):
    client = Client()
    client.force_login(world.users["a"])
    page = client.get(level_url(world), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'data-testid="dp-query-form"' in page and "dp-budget-spent" not in page
    form = {"type": "histogram", "attributes": ["gender", "age"], "request_id": "s-1"}
    answered = client.post(level_url(world, "query"), {**form, "epsilon": "1"})
    assert answered.status_code == 302
    page = client.get(level_url(world), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'data-testid="dp-remaining">0<' in page
    assert 'data-testid="dp-budget-spent"' in page
    assert "このレベルの予算を使い切りました" in page
    assert 'data-testid="dp-query-form"' not in page
    assert 'data-testid="dp-release-form"' not in page
    assert 'data-testid="dp-estimate-form"' in page
