"""The scorer round's REST endpoints (being written: a placeholder so that the kind registers)."""

from django.http import Http404

urlpatterns: list = []


def round_status(request, access) -> dict:
    return {"submission_types": [], "downloads": [], "uploads": [], "metrics": []}


def round_leaderboard(request, access) -> dict:
    raise Http404
