"""Listing competitions and their rounds."""

from django.shortcuts import get_object_or_404, render

from pwscup.accounts.selectors import competitions_for_user, team_for_user, user_is_organizer
from pwscup.competitions.models import Competition
from pwscup.competitions.selectors import phase_state, round_missing_phases


def home(request):
    return render(
        request,
        "competitions/home.html",
        {"competitions": competitions_for_user(user=request.user)},
    )


def competition_detail(request, competition_slug):
    competition = get_object_or_404(competitions_for_user(user=request.user), slug=competition_slug)
    rounds = []
    for round_ in competition.rounds.prefetch_related("phases"):
        phases = [(p, phase_state(phase=p)) for p in round_.phases.all()]
        rounds.append((round_, phases, round_missing_phases(round=round_)))
    return render(
        request,
        "competitions/detail.html",
        {
            "competition": competition,
            "rounds": rounds,
            "team": team_for_user(user=request.user, competition=competition),
            "is_organizer": user_is_organizer(user=request.user, competition=competition),
        },
    )


def get_competition(request, slug) -> Competition:
    return get_object_or_404(competitions_for_user(user=request.user), slug=slug)
