"""The browsable documentation at /api/docs/: Swagger UI from the sidecar package's static
files and its start-up script from this site (no inline script or style, no CDN)."""

from drf_spectacular.views import SpectacularSwaggerSplitView


class DocsView(SpectacularSwaggerSplitView):
    template_name = "api/swagger_ui.html"
    url_name = "api:schema"
    title = "PWSCup platform API"
