"""The toy's pages: a leaderboard CSV (the core's writer) and a greeting. Each is thin: the
core's access checks, the toy's selectors. Its upload form and its target are the core's,
from the declared submission type (``api.py``; ``pwscup.pages.declared``)."""

from django.http import HttpResponse
from django.urls import path

from pwscup.accounts.access import kind_view
from pwscup.core.exports import csv_response
from tests.kinds.toy import selectors


@kind_view("toygame")
def hello(request, access, word):
    """A page of the kind's own, under the round (the core's access rules apply)."""
    return HttpResponse(f"hello {word} from {access.round.name} ({access.competition.slug})")


@kind_view("toygame")
def leaderboard_csv(request, access):
    return csv_response("toy.csv", ["team", "score"], selectors.toy_leaderboard(access.round))


urlpatterns = [
    path("toy/leaderboard.csv", leaderboard_csv, name="leaderboard"),
    path("hello/<slug:word>/", hello, name="hello"),
]
