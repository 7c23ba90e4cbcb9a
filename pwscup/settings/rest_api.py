"""The REST API (pwscup/api/): its throttles, authentication, parsers and documentation."""

from django.utils.translation import gettext_lazy as _

from .environment import env
from .rates import rate_setting

# --- REST API (pwscup/api/) and its documentation ----------------------------------
# Requests per token, per user (session or all the user's tokens) and per anonymous
# address; "N/sec|min|hour|day" (a malformed one stops the start, rates.py). Counted in the
# default cache; answered 429 + Retry-After.
PWSCUP_API_THROTTLE_RATES = {
    "anon": rate_setting(env, "PWSCUP_API_ANON_RATE", default="60/min"),
    "user": rate_setting(env, "PWSCUP_API_USER_RATE", default="120/min"),
    "token": rate_setting(env, "PWSCUP_API_TOKEN_RATE", default="120/min"),
}
REST_FRAMEWORK = {
    # The token first: its 401 answers carry ``WWW-Authenticate: Bearer``.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "pwscup.api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",  # with CSRF, as the pages
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_CLASSES": [
        "pwscup.api.throttling.AnonymousThrottle",
        "pwscup.api.throttling.UserThrottle",
        "pwscup.api.throttling.TokenThrottle",
    ],
    # JSON only: DRF's browsable pages use inline scripts (the CSP forbids them); /api/docs/
    # is the browsable documentation.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON bodies through the bounded reader (depth, size, number literals): never a 500.
    "DEFAULT_PARSER_CLASSES": [
        "pwscup.core.json_input.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "pwscup.core.single_parts.SinglePartsMultiPartParser",
    ],
    "EXCEPTION_HANDLER": "pwscup.core.rest.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    # Lazy: each rendering of the schema (``?lang=``, the reader's language) translates them.
    "TITLE": _("PWSCup platform API"),
    "DESCRIPTION": _(
        "Competitions, rounds, uploads, targets and results of the PWSCup platform. "
        "Authenticate with a personal API token (profile page) as "
        "`Authorization: Bearer pws_...`, or with the browser session (and its CSRF token). "
        "Errors are `{code, message}`; messages follow Accept-Language (ja, en)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from the drf-spectacular-sidecar package's static files: nothing from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}
