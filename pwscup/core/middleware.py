"""Middleware of the platform's own."""

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
