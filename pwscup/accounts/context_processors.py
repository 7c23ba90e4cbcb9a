"""The site header: the notifications bell and the console link (``pwscup/accounts/header.py``)."""

from django.utils.functional import SimpleLazyObject

from pwscup.accounts.header import request_header


def header(request):
    # Lazy: pages that do not show the header (JSON, files) never run the query.
    if getattr(request, "user", None) is None:
        return {}
    return {"header": SimpleLazyObject(lambda: request_header(request))}
