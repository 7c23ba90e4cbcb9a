"""A team's upload waits for the team's row lock no longer than for a storage write slot.

Another upload of the team holds the row while its file is written; a stalled storage holds
it for as long as its timeouts allow (30 s in production). A real PostgreSQL transaction of
another connection holds the team's row here, as that upload would: an upload of the team
through the API is refused (503, ``Retry-After``) after ``PWSCUP_STORAGE_SLOT_WAIT`` with
nothing kept, and a lock released while the upload waits (a healthy burst) lets it be kept.
Every other request of a team that locks its row (``team_row_lock``: a data pick, a renewed
invitation...) waits no longer either, and is refused saying nothing was changed.
"""

import contextlib
import threading
from pathlib import Path

import pytest
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse

from pwscup.accounts.models import Team, TeamDisqualification
from pwscup.api.services import api_token_create
from pwscup.core.errors import Refused
from pwscup.core.row_locks import row_lock_within
from pwscup.pwscup2015.models import AnonymizationSubmission
from tests.pwscup.races import waiting_on_a_lock
from tests.support import csv_upload, wait_for

MESSAGE_EN = "Another upload of your team is still being written"
MESSAGE_JA = "チームの別のアップロード"
UNCHANGED_EN = "Nothing was changed"
UNCHANGED_JA = "何も変更していません"
CONTENT = b"39,State-gov,77516,Bachelors,13,Never-married,Adm-clerical,White,Male,40\n" * 50


@contextlib.contextmanager
def team_row_held(team: Team):
    """The team's row locked by a transaction of another connection as an upload locks it
    (``upload_keep``: writing its file) until the block ends."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                row_lock_within(Team.objects.filter(pk=team.pk), seconds=5, busy=Exception)
                locked.set()
                release.wait(20)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    assert locked.wait(30)
    try:
        yield release
    finally:
        release.set()
        holder.join(60)


def _api_upload(client, world, letter: str, **extra):
    token = api_token_create(user=world.users[letter], name="script").secret
    url = reverse("api:submissions", args=[world.competition.slug, world.round.slug])
    return client.post(
        url, {"file": csv_upload(CONTENT)}, HTTP_AUTHORIZATION=f"Bearer {token}", **extra
    )


def _files_under(folder) -> list[Path]:
    return [path for path in Path(folder).rglob("*") if path.is_file()]


@pytest.mark.django_db(transaction=True)
def test_an_upload_of_a_team_whose_row_is_held_is_refused_and_keeps_nothing(
    make_world, client, settings, tmp_path
):
    world = make_world()
    settings.MEDIA_ROOT = tmp_path
    settings.PWSCUP_STORAGE_SLOT_WAIT = 0.2
    with team_row_held(world.teams["a"]):
        english = _api_upload(client, world, "a")
        japanese = _api_upload(client, world, "a", HTTP_ACCEPT_LANGUAGE="ja")
        # Another team's row is free (the competition's row is not locked with the team's):
        # its upload is kept meanwhile.
        assert _api_upload(client, world, "b").status_code == 202
    for response, message in ((english, MESSAGE_EN), (japanese, MESSAGE_JA)):
        assert response.status_code == 503, response.content[:300]
        assert int(response["Retry-After"]) >= 1
        assert response.json()["code"] == "storage_unavailable"
        assert message in response.json()["message"]
    assert not AnonymizationSubmission.objects.filter(team=world.teams["a"]).exists()
    assert len(_files_under(tmp_path)) == 1  # team b's
    # The row free again, the team's upload is kept.
    assert _api_upload(client, world, "a").status_code == 202


@pytest.mark.django_db(transaction=True)
def test_an_upload_waits_for_a_team_row_released_in_time(make_world, client, settings):
    # A healthy burst: the team's other upload commits while this one waits for the row.
    world = make_world()
    settings.PWSCUP_STORAGE_SLOT_WAIT = 30
    with team_row_held(world.teams["a"]) as release:

        def release_once_waited() -> None:
            try:
                wait_for(lambda: waiting_on_a_lock() >= 1, timeout=30, what="the upload to wait")
            finally:
                release.set()
                connection.close()

        waited = threading.Thread(target=release_once_waited)
        waited.start()
        response = _api_upload(client, world, "a")
        waited.join(60)
    assert response.status_code == 202, response.content[:300]
    assert AnonymizationSubmission.objects.filter(team=world.teams["a"]).count() == 1


@pytest.mark.django_db
def test_the_bounded_wait_leaves_the_transactions_own_lock_timeout(world):
    # Later locks of the upload's transaction (after its file is written) wait as before.
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '7s'")
        row_lock_within(
            Team.objects.filter(pk=world.teams["a"].pk), seconds=0.2, busy=lambda: Refused("busy")
        )
        with connection.cursor() as cursor:
            cursor.execute("SHOW lock_timeout")
            assert cursor.fetchone()[0] == "7s"


@pytest.mark.django_db(transaction=True)
def test_a_data_pick_of_a_team_whose_row_is_held_is_refused_by_the_api(make_world, settings):
    world = make_world()
    settings.PWSCUP_STORAGE_SLOT_WAIT = 0.2
    token = api_token_create(user=world.users["a"], name="script").secret
    url = reverse("api:round-data-choice", args=[world.competition.slug, world.round.slug])

    def pick(**extra):
        return Client().post(
            url, {"choice": "adult"}, HTTP_AUTHORIZATION=f"Bearer {token}", **extra
        )

    with team_row_held(world.teams["a"]):
        english, japanese = pick(), pick(HTTP_ACCEPT_LANGUAGE="ja")
    for response, message in ((english, UNCHANGED_EN), (japanese, UNCHANGED_JA)):
        assert response.status_code == 503, response.content[:300]
        assert int(response["Retry-After"]) >= 1
        assert response.json()["code"] == "storage_unavailable"
        assert message in response.json()["message"]
    # The row free again, the pick is answered (this round offers no choice of data).
    assert pick().status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_captain_renewing_the_invitation_while_the_row_is_held_changes_nothing(
    make_world, settings
):
    world = make_world()
    settings.PWSCUP_STORAGE_SLOT_WAIT = 0.2
    team = world.teams["a"]
    before = team.invitation_code
    captain = Client()
    captain.force_login(world.users["a"])
    url = reverse("team_invitation_renew", args=[world.competition.slug])
    with team_row_held(team):
        refused = captain.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert UNCHANGED_EN in refused.content.decode()
    team.refresh_from_db()
    assert team.invitation_code == before
    captain.post(url)
    team.refresh_from_db()
    assert team.invitation_code != before


@pytest.mark.django_db(transaction=True)
def test_the_console_s_team_actions_while_the_row_is_held_say_so_and_change_nothing(
    make_world, settings
):
    # An organizer's removal of a member and disqualification wait no longer than a team's
    # request: the console's page says why nothing changed (no 500), in both languages.
    world = make_world()
    settings.PWSCUP_STORAGE_SLOT_WAIT = 0.2
    team, member = world.teams["a"], world.users["a"]
    organizer = Client()
    organizer.force_login(world.organizer)
    slug = world.competition.slug
    remove = reverse("console:member_remove", args=[slug, team.pk, member.pk])
    disqualify = reverse("console:team_disqualify", args=[slug, team.pk])
    with team_row_held(team):
        answers = {
            "en": organizer.post(remove, follow=True, HTTP_ACCEPT_LANGUAGE="en"),
            "ja": organizer.post(remove, follow=True, HTTP_ACCEPT_LANGUAGE="ja"),
            "disqualify": organizer.post(
                disqualify, {"reason": "copied"}, follow=True, HTTP_ACCEPT_LANGUAGE="en"
            ),
        }
    for key, text in (
        ("en", "An upload of this team is still being written"),
        ("ja", "このチームのアップロードをまだ保存先に書き込んでいます"),
        ("disqualify", "Nothing was changed"),
    ):
        assert answers[key].status_code == 200, key
        assert answers[key].redirect_chain[-1][0] == reverse("console:teams", args=[slug])
        assert text in answers[key].content.decode(), key
    assert team.memberships.filter(user=member).exists()
    assert not TeamDisqualification.objects.filter(team=team).exists()
    # The row free again, the member is removed.
    organizer.post(remove)
    assert not team.memberships.filter(user=member).exists()
