"""Request rates: per token, per user (session or tokens together) and per anonymous address.

The rates are read from ``settings.PWSCUP_API_THROTTLE_RATES`` on each request (set from the
environment in pwscup/settings/rest_api.py), so a deployment or a test changes them without a
restart of the import machinery; counts live in the default cache. Uploads are further
bounded by the phase quotas (services), whatever the rate.
"""

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from pwscup.accounts.addresses import client_ip
from pwscup.api.models import ApiToken
from pwscup.settings.rates import rate_parse


class _RateFromSettings:
    def get_rate(self):
        return settings.PWSCUP_API_THROTTLE_RATES.get(self.scope)

    def parse_rate(self, rate):
        # The reader the settings checked the rate with (DRF's own reads the unit's first letter).
        return (None, None) if rate is None else rate_parse(rate)

    def get_ident(self, request):
        # The address django-axes keys on (the proxy's header when configured).
        return client_ip(request) or super().get_ident(request)


class AnonymousThrottle(_RateFromSettings, AnonRateThrottle):
    scope = "anon"


class UserThrottle(_RateFromSettings, UserRateThrottle):
    scope = "user"


class TokenThrottle(_RateFromSettings, SimpleRateThrottle):
    scope = "token"

    def get_cache_key(self, request, view):
        if not isinstance(request.auth, ApiToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.auth.pk}
