"""round_access agrees with the selectors that define the rules, for every kind of user, and
leaves the objects linked so that the pages read nothing twice."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.test import RequestFactory

from pwscup.accounts.access import round_access
from pwscup.accounts.selectors import competitions_for_user, team_for_user
from pwscup.accounts.services import user_create
from pwscup.competitions.models import Competition, Round
from pwscup.competitions.selectors import user_is_organizer

pytestmark = pytest.mark.django_db


def _request(user):
    request = RequestFactory().get("/")
    request.user = user
    return request


def _reference(user, competition_slug, round_slug):
    """The rules straight from the ORM selectors: (round pk, team pk, organizer) or None."""
    competition = competitions_for_user(user=user).filter(slug=competition_slug).first()
    if competition is None:
        return None
    round_ = Round.objects.filter(competition=competition, slug=round_slug).first()
    if round_ is None:
        return None
    team = team_for_user(user=user, competition=competition)
    return (
        round_.pk,
        team.pk if team else None,
        user_is_organizer(user=user, competition=competition),
    )


def _users(world):
    inactive = user_create(username="inactive-organizer", password="pw")
    world.competition.organizers.add(inactive)
    inactive.is_active = False
    inactive.save()
    superuser = user_create(username="root", password="pw")
    superuser.is_superuser = True
    superuser.save()
    outsider = user_create(username="outsider", password="pw")
    return {
        "anonymous": AnonymousUser(),
        "organizer": world.organizer,
        "team a": world.users["a"],
        "team b": world.users["b"],
        "outsider": outsider,
        "inactive organizer": inactive,
        "superuser": superuser,
    }


@pytest.mark.parametrize("listed", [False, True])
def test_round_access_agrees_with_the_selectors_for_every_kind_of_user(world, listed):
    Competition.objects.filter(pk=world.competition.pk).update(is_listed=listed)
    slugs = [(world.competition.slug, world.round.slug), (world.competition.slug, "nope")]
    slugs.append(("nope", world.round.slug))
    for label, user in _users(world).items():
        for competition_slug, round_slug in slugs:
            expected = _reference(user, competition_slug, round_slug)
            try:
                access = round_access(_request(user), competition_slug, round_slug)
            except Http404:
                assert expected is None, (label, competition_slug, round_slug)
                continue
            got = (access.round.pk, access.team.pk if access.team else None, access.is_organizer)
            assert got == expected, (label, competition_slug, round_slug)


def test_the_objects_are_complete_and_linked(world, django_assert_num_queries):
    access = round_access(_request(world.users["a"]), world.competition.slug, world.round.slug)
    fresh = Round.objects.get(pk=world.round.pk)
    # every field as the ORM loads it (the JSON configuration converted, times aware)
    for field in Round._meta.concrete_fields:
        assert getattr(access.round, field.attname) == getattr(fresh, field.attname), field.name
    assert access.round.config == fresh.config and isinstance(access.round.config, dict)
    with django_assert_num_queries(0):
        assert access.round.competition.pk == world.competition.pk
        phases = list(access.round.phases.all())
        assert [p.round is access.round for p in phases] == [True, True]
        assert access.team.competition is access.competition
    assert [p.pk for p in phases] == list(fresh.phases.values_list("pk", flat=True))
    assert access.team == world.teams["a"]


def test_a_round_of_another_kind_is_not_found(world):
    with pytest.raises(Http404):
        round_access(
            _request(world.users["a"]), world.competition.slug, world.round.slug, kind="dp"
        )
