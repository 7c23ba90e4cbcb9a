"""The header's bell and console link (pwscup/core/header.py)."""

from django.utils.functional import SimpleLazyObject

from pwscup.core.header import header_state


def notifications(request):
    # Lazy: pages that do not show the header (JSON, files) never run the query.
    user = getattr(request, "user", None)
    if user is None:
        return {}
    return {"header": SimpleLazyObject(lambda: header_state(user=user))}
