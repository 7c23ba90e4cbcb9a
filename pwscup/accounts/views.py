"""Login throttling hooks for django-axes: the lock-out page and the client's address."""

from django.conf import settings
from django.shortcuts import render


def login_locked_out(request, response=None, credentials=None):
    """The login page again, with the lock-out message instead of the form (HTTP 429)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(
        request,
        "registration/login.html",
        {"locked_out": True, "cooloff_minutes": minutes, "next": request.POST.get("next", "")},
        status=429,
    )


def client_ip(request) -> str:
    """The address lock-outs are keyed on: the proxy's header when configured, else the peer."""
    header = settings.PWSCUP_CLIENT_IP_HEADER
    if header:
        forwarded = request.META.get(header, "").split(",")[0].strip()
        if forwarded:
            return forwarded
    return request.META.get("REMOTE_ADDR", "")
