"""Log-in throttling, rate limits, the client's address behind the proxy, and the
Content-Security-Policy."""

import datetime as dt
import ipaddress

from django.core.exceptions import ImproperlyConfigured

from .environment import env
from .rates import rate_setting

# --- Login throttling (django-axes) -------------------------------------------------
# A user name is locked for a while from one address after this many failed log-ins in a row;
# an address (a class behind one NAT shares one) after this many failures over all user names.
PWSCUP_LOGIN_FAILURE_LIMIT = env.int("PWSCUP_LOGIN_FAILURE_LIMIT", default=5)
PWSCUP_LOGIN_FAILURE_LIMIT_PER_ADDRESS = env.int(
    "PWSCUP_LOGIN_FAILURE_LIMIT_PER_ADDRESS", default=50
)
AXES_FAILURE_LIMIT = "pwscup.accounts.backends.login_failure_limit"
AXES_COOLOFF_TIME = dt.timedelta(minutes=env.int("PWSCUP_LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "pwscup.accounts.backends.LoginThrottleHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "pwscup.accounts.views.login_locked_out"
AXES_CLIENT_IP_CALLABLE = "pwscup.accounts.addresses.client_ip"
AXES_VERBOSE = False  # no start-up banner; failures and lock-outs are still logged (WARNING)
# Sign-ups and password-reset e-mails per client address (django-ratelimit, on the cache;
# "N/s", "N/m", "N/h" or "N/d"; a malformed one stops the start, rates.py). A class signing up
# together behind one NAT shares an address.
PWSCUP_SIGNUP_RATE = rate_setting(env, "PWSCUP_SIGNUP_RATE", default="50/h")
PWSCUP_PASSWORD_RESET_RATE = rate_setting(env, "PWSCUP_PASSWORD_RESET_RATE", default="20/h")
# An unreachable cache lets requests through, as the other throttles do.
RATELIMIT_FAIL_OPEN = True
# Behind the reverse proxy the client's address is in this header (set by the proxy only).
PWSCUP_CLIENT_IP_HEADER = env("PWSCUP_CLIENT_IP_HEADER", default="")
# ...believed only when the request comes from one of these addresses or networks (the proxy;
# comma-separated, CIDR allowed); from any other peer the peer's own address counts.
# A malformed entry stops the start with a message naming the variable and the entry.


def _trusted_proxies() -> list[str]:
    networks = []
    for entry in env.list("PWSCUP_TRUSTED_PROXIES", default=["127.0.0.0/8", "::1"]):
        try:
            networks.append(str(ipaddress.ip_network(entry, strict=False)))
        except ValueError:
            raise ImproperlyConfigured(
                f"PWSCUP_TRUSTED_PROXIES: {entry!r} is not an IP address or network: write "
                "addresses or CIDR networks separated by commas, e.g. 127.0.0.0/8,::1"
            ) from None
    return networks


PWSCUP_TRUSTED_PROXIES = _trusted_proxies()

# --- Content-Security-Policy (django-csp) ------------------------------------------
# Everything comes from this site: no inline script or style, no CDN.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
