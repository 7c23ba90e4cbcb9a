"""The console's pages that show one competition and take no form: for its organizers only
(``console_competition``: the same 404 as for a competition that does not exist for anyone
else, after the log-in), the competition in the page beside what the page reads of it."""

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from pwscup.competitions.selectors import console_competition


def competition_console_page(template: str):
    """Make ``context_of(competition)`` (what the page reads of the competition) the view of
    the page ``template`` at the competition's address (``competition_slug``)."""

    def decorate(context_of):
        @login_required
        @wraps(context_of)
        def view(request, competition_slug):
            competition = console_competition(user=request.user, slug=competition_slug)
            context = {"competition": competition, **context_of(competition)}
            return render(request, template, context)

        return view

    return decorate
