"""Operator endpoints."""

from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from pwscup.core.selectors import system_health


@never_cache
def healthz(request):
    """``ok`` (200) when the database, the broker and at least one worker answer; else 503."""
    health = system_health()
    return JsonResponse(health.as_json(), status=200 if health.healthy else 503)
