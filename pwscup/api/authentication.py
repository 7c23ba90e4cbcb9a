"""``Authorization: Bearer <token>`` (or ``Token <token>``) with a personal API token."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from pwscup.api.services import api_token_authenticate

KEYWORDS = (b"bearer", b"token")


class ApiTokenAuthentication(BaseAuthentication):
    """The request acts as the token's user (``request.auth`` is the ``ApiToken``)."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None  # another scheme, or the browser's session
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid Authorization header: give one token after the word Bearer.")
            )
        try:
            raw = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raw = ""
        token = api_token_authenticate(raw=raw)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid or revoked API token."))
        return token.user, token

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "pwscup.api.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": _("A personal API token made on the profile page (pws_…)."),
        }
