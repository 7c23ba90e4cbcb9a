"""The browsable documentation at /api/docs/: Swagger UI from the sidecar package's static
files and its start-up script from this site (no inline script or style, no CDN).

The page is in the reader's language (what LocaleMiddleware picked: the language cookie, then
Accept-Language), or in the one ``?lang=`` names; the start-up script loads the schema in that
language (``api:schema?lang=``, which drf-spectacular renders under ``translation.override``).
"""

from urllib.parse import urlencode

from django.conf import settings
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularSwaggerSplitView


def asked_language(request) -> str | None:
    """The language ``?lang=`` names, ``""`` for one the site does not have, ``None`` if none."""
    asked = request.GET.get("lang")
    if asked is None or asked in dict(settings.LANGUAGES):
        return asked
    return ""


def with_language(request, language: str) -> str:
    """This request's address with ``lang=language`` (its other parameters kept)."""
    query = request.GET.copy()
    query["lang"] = language
    return f"{request.path}?{query.urlencode()}"


class DocsView(SpectacularSwaggerSplitView):
    template_name = "api/swagger_ui.html"
    url_name = "api:schema"
    title = gettext_lazy("PWSCup platform API")

    @extend_schema(exclude=True)
    def get(self, request, *args, **kwargs):
        asked = asked_language(request)
        if asked == "":
            # An unknown ``?lang=``: the page again, in the reader's language.
            query = request.GET.copy()
            del query["lang"]
            return redirect(f"{request.path}?{query.urlencode()}" if query else request.path)
        language = asked or translation.get_language()
        # Per request (``as_view`` makes a view instance for each): the start-up script's
        # address and the schema's carry the page's language, asked with ``?lang=`` or not.
        self.url = f"{reverse(self.url_name)}?{urlencode({'lang': language})}"
        self.url_self = with_language(request, language)
        with translation.override(language):
            response = super().get(request, *args, **kwargs)
            if isinstance(response.data, dict) and "title" in response.data:
                # The page is rendered after the view returns: its language-dependent parts
                # are resolved now.
                response.data["title"] = str(self.title)
                response.data["language_code"] = language
        response.headers["Content-Language"] = language
        return response
