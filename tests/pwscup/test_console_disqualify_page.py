"""The console's disqualification page says what it does before the organizer confirms it."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_disqualify_page_names_the_team_the_effect_and_the_action(client, world):
    client.force_login(world.organizer)
    team = world.teams["a"]
    address = reverse("console:team_disqualify", args=[world.competition.slug, team.pk])
    page = client.get(address, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f"<h1>{team.name} を失格にする</h1>" in page
    assert "すべてのラウンドのすべての順位から外れます" in page
    assert "理由はチームのメンバーがチームのページで読めます" in page
    assert '<button type="submit">失格にする</button>' in page
    rename = reverse("console:team_rename", args=[world.competition.slug, team.pk])
    renamed = client.get(rename, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<button type="submit">保存</button>' in renamed
