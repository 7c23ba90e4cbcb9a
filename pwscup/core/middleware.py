"""Middleware of the platform's own."""

from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control


class PrivateCacheControlMiddleware:
    """``Cache-Control: private, no-store`` on every answer to a logged-in user.

    A page or file seen after logging in (a team's round page, the original, an upload, the
    API's JSON) is never kept by a shared cache (a school's proxy) nor on disk by the browser.
    One rule for the whole site: the user, not the view, decides. The session user is known
    here; an API token's user too, since DRF sets it on this request when it authenticates.
    Conditional GETs are unaffected (the live status's polls send their own If-None-Match and
    still get 304), and anonymous visitors' public pages (leaderboards) stay cacheable.
    Static files never reach this middleware (WhiteNoise answers them first).

    One exception, decided by the page: an answer already marked ``no-cache`` with an ETag
    (``pwscup.accounts.conditional``: a page that shows nothing private to the team,
    answered 304 while unchanged) is kept by the browser and revalidated every time.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not _revalidated(response):
            patch_cache_control(response, private=True, no_store=True)
        return response


def _revalidated(response) -> bool:
    """The answer asks to be kept and revalidated: an ETag and ``Cache-Control: no-cache``."""
    directives = {
        directive.split("=", 1)[0].strip().lower()
        for directive in response.get("Cache-Control", "").split(",")
    }
    return response.has_header("ETag") and "no-cache" in directives


class MethodNotAllowedPageMiddleware:
    """A page, not a blank screen, for a browser that opens an address taking only a form's
    POST (an upload's, a freeze's: Django's ``require_POST`` answers 405 with no body), e.g.
    from a bookmark or the history. It keeps the 405 and its ``Allow`` header, says what the
    address is for, and links to the round the address belongs to, if any. The API's 405s
    (JSON, from DRF) and answers that have a body are left as they are."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.method != "GET":
            return response
        if request.path.startswith("/api/"):
            return response
        page = render(
            request, "405.html", {"round_url": _round_url(request.resolver_match)}, status=405
        )
        if response.has_header("Allow"):
            page["Allow"] = response["Allow"]
        return page


def _round_url(match) -> str | None:
    """The page of the round the address is under (its URL names both slugs), else None."""
    kwargs = getattr(match, "kwargs", None) or {}
    if "competition_slug" in kwargs and "round_slug" in kwargs:
        return reverse("round_detail", args=[kwargs["competition_slug"], kwargs["round_slug"]])
    return None
