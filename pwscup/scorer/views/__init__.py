"""The scorer round's pages (being written: a placeholder so that the kind registers)."""

from django.http import Http404

urlpatterns: list = []
site_urlpatterns: list = []


def round_page(request, access, tab):
    raise Http404


def results_url(round_) -> str | None:
    return None
