"""Operator endpoints, the participants' toolkit download, and the site's icon."""

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import FileResponse, Http404, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django.views.generic.base import RedirectView

from pwscup.core.selectors import system_health
from pwscup.core.toolkit import toolkit_wheel, wheel_filename


@never_cache
def healthz(request):
    """``ok`` (200) when the database, the storage, the broker and at least one worker answer;
    else 503, in about ``PWSCUP_HEALTHZ_TIMEOUT`` seconds at most whatever hangs.

    It answers for no one: its request's user is anonymous, so no middleware reads the session
    (a session cookie would be looked up in the database, which may be down or hanging)."""
    request.user = AnonymousUser()
    health = system_health()
    return JsonResponse(health.as_json(), status=200 if health.healthy else 503)


@require_safe
def toolkit_download(request, filename: str):
    """The toolkit wheel (public: it holds only the open-source scorers and client). Its
    name carries the platform's version, so a stale link answers 404, not another build."""
    if filename != wheel_filename():
        raise Http404
    wheel = toolkit_wheel(settings.PWSCUP_TOOLKIT_DIR)
    return FileResponse(
        wheel.open("rb"), as_attachment=True, filename=filename, content_type="application/zip"
    )


class FaviconView(RedirectView):
    """``/favicon.ico``, which every browser asks for whatever a page links: the site's icon,
    ``static/favicon.svg`` (the pages link it too). Not permanent: the static address may
    change with the storage."""

    def get_redirect_url(self, *args, **kwargs):
        return static("favicon.svg")
