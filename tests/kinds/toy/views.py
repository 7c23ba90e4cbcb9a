"""The toy's one page of its own: a greeting (the core's access checks apply). Its upload
form and its target, its Results tab and its CSV are the core's, from its declared
submission type and its standings (``api.py``; ``pwscup.pages.declared``)."""

from django.http import HttpResponse
from django.urls import path

from pwscup.accounts.access import kind_view


@kind_view("toygame")
def hello(request, access, word):
    """A page of the kind's own, under the round (the core's access rules apply)."""
    return HttpResponse(f"hello {word} from {access.round.name} ({access.competition.slug})")


urlpatterns = [
    path("toy/hello/<slug:word>/", hello, name="hello"),  # in a folder of its own
]
