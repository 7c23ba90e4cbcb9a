"""The site's pages that belong to no single package: the home page (the competitions) and a
competition's page (its rounds, each drawn by its kind)."""

from django.shortcuts import get_object_or_404, render

from pwscup.accounts.selectors import awards_of, competitions_for_user, team_for_user
from pwscup.archives.selectors import archives_for
from pwscup.competitions.selectors import user_is_organizer
from pwscup.kinds import kind_of
from pwscup.presentations.selectors import presentations_for


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
        kind = kind_of(round_)
        rounds.append(
            {
                "round": round_,
                "schedule": kind.schedule_lines(round_),
                "missing": kind.missing_phases(round_),
                "kind": kind,
                "note": kind.round_note(round_),
                "results": kind.results_summary(round_),
            }
        )
    return render(
        request,
        "competitions/detail.html",
        {
            "competition": competition,
            "rounds": rounds,
            "team": team_for_user(user=request.user, competition=competition),
            "is_organizer": user_is_organizer(user=request.user, competition=competition),
            "presentations": presentations_for(user=request.user, competition=competition),
            "archives": archives_for(user=request.user, competition=competition),
            "awards": awards_of(competition=competition),
        },
    )
