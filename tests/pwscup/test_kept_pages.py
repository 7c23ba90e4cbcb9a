"""Kept pages answered 304 from one read (``pwscup.accounts.conditional.kept_answer``) and the
page generation the database counts (``accounts.PageGeneration``, its triggers).

``test_conditional_pages.py`` asserts what a browser sees of every change (each of its
tests now goes through the one-read answer, since the first 200 remembers the page); this
module asserts what that answer rests on: every write to a counted table moves the
generation, writes the ORM's signals never see (``QuerySet.update()``, raw SQL) included;
a team member who left, a visitor with a copied cookie and ETag, a missing generation row
and a kind that does not keep its pages are never answered from the memory."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import connection, transaction
from django.http import Http404
from django.test import Client
from django.test.utils import CaptureQueriesContext

from pwscup.accounts.access import round_access
from pwscup.accounts.models import Membership, PageGeneration, Team
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.kinds import kind_of
from pwscup.pwscup2015.models import Pwscup2015Round
from tests.pwscup.factories import scored
from tests.pwscup.kept_support import kept, member_browser

pytestmark = pytest.mark.django_db


def _generation() -> int:
    return PageGeneration.objects.get(pk=1).value


def _again(client, url, page):
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    return answer, len(queries)


def _writes(world):
    """One write per counted table, each by a path no model signal reports."""
    user, team = world.users["a"], world.teams["a"]
    group = Group.objects.create(name="kept-pages")
    permission = Permission.objects.first()
    return {
        "competition": lambda: Competition.objects.filter(pk=world.competition.pk).update(
            name="Cup renamed"
        ),
        "organizers": lambda: world.competition.organizers.add(user),
        "round": lambda: Round.objects.filter(pk=world.round.pk).update(name="Round renamed"),
        "phase": lambda: Phase.objects.filter(pk=world.anonymization.pk).update(daily_limit=7),
        "team": lambda: Team.objects.filter(pk=team.pk).update(name="Team renamed"),
        "membership": lambda: Membership.objects.filter(team=team, user=user).delete(),
        "user groups": lambda: user.groups.add(group),
        "user permissions": lambda: user.user_permissions.add(permission),
        "group permissions": lambda: group.permissions.add(permission),
        "the 2015 round": lambda: Pwscup2015Round.objects.filter(round=world.round).update(
            results_published=True
        ),
        "raw SQL": lambda: connection.cursor().execute(
            f'UPDATE "{Round._meta.db_table}" SET name = %s WHERE id = %s',
            ["Round by SQL", world.round.pk],
        ),
    }


def test_every_write_to_a_counted_table_moves_the_generation(world):
    seen = {_generation()}
    for name, write in _writes(world).items():
        write()
        after = _generation()
        assert after not in seen, name
        seen.add(after)


def test_a_rolled_back_write_leaves_a_value_never_given_again(world):
    """What a rolled-back transaction read may be in the cache under its generation: the
    next write must not give that value again (a sequence's next value, not ``value + 1``)."""
    before = _generation()
    with pytest.raises(RuntimeError), transaction.atomic():
        Round.objects.filter(pk=world.round.pk).update(name="Never committed")
        inside = _generation()
        raise RuntimeError
    assert _generation() == before  # the row itself rolled back with the write
    Round.objects.filter(pk=world.round.pk).update(name="Committed")
    assert _generation() not in {before, inside}


def test_the_access_is_read_from_the_cache_only_while_its_rows_are_unchanged(world, rf):
    """``round_access``: one read (the generation and the ranking version), the rest from
    the cache under that generation; a membership removed by a queryset (no signal) is seen
    at once."""
    request = rf.get(world.round_url())
    request.user = world.users["a"]
    args = (world.competition.slug, world.round.slug)
    first = round_access(request, *args)
    assert first.team == world.teams["a"]
    with CaptureQueriesContext(connection) as queries:
        again = round_access(request, *args)
    assert len(queries) == 1
    assert (again.competition, again.round, again.team) == (
        first.competition,
        first.round,
        first.team,
    )
    assert [p.pk for p in again.round.phases.all()] == [p.pk for p in first.round.phases.all()]
    Membership.objects.filter(team=world.teams["a"], user=world.users["a"]).delete()
    after = round_access(request, *args) if world.competition.is_listed else None
    if after is not None:
        assert after.team is None
    else:
        with pytest.raises(Http404):
            round_access(request, *args)
    request.user = world.users["b"]  # another viewer never reads the first one's entry
    assert round_access(request, *args).team == world.teams["b"]


def test_a_write_elsewhere_leaves_it(world):
    """An upload and its score, a job's state, a notification, a log-in: not counted (the
    pages read their own versions or counts), so a rush of uploads never sends every kept
    page back, and never waits on the generation's row."""
    before = _generation()
    scored(world, "a", seed=1)
    Client().force_login(world.users["b"])
    world.users["a"].notifications.create(kind="test", event="test:1", params={})
    world.users["a"].__class__.objects.filter(pk=world.users["a"].pk).update(first_name="A")
    assert _generation() == before


@pytest.mark.parametrize(
    "write",
    ["competition", "round", "phase", "team", "membership", "the 2015 round", "raw SQL"],
)
def test_a_write_no_signal_sees_is_never_answered_from_memory(world, write):
    client = member_browser(world)
    url = world.round_url()
    page = kept(client, url)
    _writes(world)[write]()
    answer, queries = _again(client, url, page)
    # The page's own path answered (its access check and its rows: far more than 3 reads).
    assert queries > 3, write
    if write == "membership":  # no longer a team member: the page changed, or is gone
        assert answer.status_code != 304
    if write in ("round", "raw SQL"):
        assert answer.status_code == 200
        assert Round.objects.get(pk=world.round.pk).name in answer.content.decode()


def test_a_copied_etag_and_cookie_do_not_answer_for_another_viewer(world):
    client = member_browser(world)
    url = world.round_url()
    page = kept(client, url)
    stranger = Client()
    stranger.cookies = client.cookies.__class__(
        {name: morsel.value for name, morsel in client.cookies.items() if name != "sessionid"}
    )
    answer, _queries = _again(stranger, url, page)
    assert answer.status_code != 304
    other_team = member_browser(world, "b")
    other_team.cookies["csrftoken"] = client.cookies["csrftoken"].value
    answer, _queries = _again(other_team, url, page)
    assert answer.status_code != 304


def test_without_the_generation_row_nothing_is_trusted(world):
    client = member_browser(world)
    url = world.round_url()
    page = kept(client, url)
    PageGeneration.objects.all().delete()  # as a flush leaves it until the next write
    answer, queries = _again(client, url, page)
    assert answer.status_code == 304 and queries > 3  # the page's own path said so
    answer, queries = _again(client, url, page)
    assert queries > 3  # and remembered nothing without a generation


def test_a_kind_that_does_not_keep_its_pages_is_answered_by_its_view(world, monkeypatch):
    monkeypatch.setattr(type(kind_of(world.round)), "counted_row", "")
    client = member_browser(world)
    url = world.round_url()
    page = kept(client, url)
    answer, queries = _again(client, url, page)
    assert answer.status_code == 304 and queries > 3
