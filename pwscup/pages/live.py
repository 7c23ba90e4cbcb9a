"""The live status's polls: "has anything of mine changed since this ETag?".

A page that shows jobs (a team's uploads in any kind, the console's round page) embeds the
ETag of its scope (``pwscup.submissions.selectors.live_etag``, read before the jobs) and
the address of one of these views; ``static/live.js`` polls it with ``If-None-Match``.

* Unchanged: an empty 304 from ONE indexed read that also checks the access
  (``condition(etag_func=...)``: the view itself does not run, nothing is rendered).
* Changed (or the one read could not vouch for the user): the view checks the access as
  the page does and answers 200 with the scope's ETag now; the script then fetches the
  page's fragment, or reloads a page that has none.

The ETag is the scope's version, which the job state machine bumps
(``pwscup.submissions.services.live``): it is right whatever the page shows of the jobs,
without a list of what it shows and without rendering it.
"""

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import condition, require_GET

from pwscup.accounts.access import round_access
from pwscup.accounts.selectors import competitions_for_user, team_for_user
from pwscup.competitions.selectors import console_round
from pwscup.submissions.selectors import (
    live_etag,
    live_round_poll_etag,
    live_team_of_no_round_poll_etag,
    live_team_poll_etag,
)


def _changed(etag: str) -> JsonResponse:
    response = JsonResponse({"etag": etag})
    response["ETag"] = etag
    return response


def _poll_etag(selector):
    """A poll's ``condition(etag_func=...)``: ``selector``'s one read for the user and the
    address's slugs (``None`` when that read cannot answer: the view runs)."""
    return lambda request, **slugs: selector(user=request.user, **slugs)


@require_GET
@condition(etag_func=_poll_etag(live_team_poll_etag))
def team_poll(request, competition_slug, round_slug):
    """The user's team's jobs in the round (every kind's pages of the team)."""
    access = round_access(request, competition_slug, round_slug)
    if access.team is None:
        raise Http404("No team of yours in this round.")
    return _changed(live_etag(round_id=access.round.pk, team_id=access.team.pk))


@require_GET
@condition(etag_func=_poll_etag(live_round_poll_etag))
def round_poll(request, competition_slug, round_slug):
    """Every job and operation of the round (the console's round page): its organizers only,
    anyone else gets the console's 404."""
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    return _changed(live_etag(round_id=round_.pk))


@require_GET
@condition(etag_func=_poll_etag(live_team_of_no_round_poll_etag))
def team_of_no_round_poll(request, competition_slug):
    """The user's team's jobs of no round (its slides: the presentations page)."""
    competition = get_object_or_404(competitions_for_user(user=request.user), slug=competition_slug)
    team = team_for_user(user=request.user, competition=competition)
    if team is None:
        raise Http404("No team of yours in this competition.")
    return _changed(live_etag(round_id=None, team_id=team.pk))
