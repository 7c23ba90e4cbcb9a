"""The site header: the notifications bell and the console link (``pwscup/accounts/header.py``)."""

from django.utils.functional import SimpleLazyObject

from pwscup.accounts.header import header_state


def header(request):
    # Lazy: pages that do not show the header (JSON, files) never run the query.
    user = getattr(request, "user", None)
    if user is None:
        return {}
    return {"header": SimpleLazyObject(lambda: header_state(user=user))}
