"""Login throttling (django-axes): the authentication backend, the handler and its limit.

Axes counts failures per lock-out parameter (here: user name + address, and address) and
compares the largest count with one limit, ``AXES_FAILURE_LIMIT``. It has no setting for a
limit per parameter (its maintainers point to a custom handler and a callable limit, which is
what this module is), yet the two must differ: five typos lock one user name out, while a
whole class behind one NAT shares an address and must not be locked out by a few typos each.
"""

from axes.attempts import get_cool_off_threshold
from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes' lock-out check, for log-ins over HTTP only.

    Axes keys lock-outs on the request (user name + address, address) and raises when there
    is none. A log-in without a request (a management command, the test client's ``login()``)
    has no address to lock: it goes straight to the password check of the next backend.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def _address_attempts(request):
    return AccessAttempt.objects.filter(ip_address=request.axes_ip_address)


def _user_name_attempts(request, credentials=None):
    return _address_attempts(request).filter(username=get_client_username(request, credentials))


def _recent_failures(attempts, request) -> int:
    recent = attempts.filter(attempt_time__gte=get_cool_off_threshold(request))
    return recent.aggregate(total=Sum("failures_since_start"))["total"] or 0


def user_name_locked_out(request, credentials=None) -> bool:
    """Whether this user name has too many recent failures from this address."""
    failures = _recent_failures(_user_name_attempts(request, credentials), request)
    return failures >= settings.PWSCUP_LOGIN_FAILURE_LIMIT


def address_locked_out(request) -> bool:
    """Whether this address has too many recent failures over all user names."""
    failures = _recent_failures(_address_attempts(request), request)
    return failures >= settings.PWSCUP_LOGIN_FAILURE_LIMIT_PER_ADDRESS


def login_failure_limit(request, credentials=None) -> int:
    """``AXES_FAILURE_LIMIT``: the per-user-name limit once this user name has reached it from
    this address, else the (larger) per-address limit.

    Axes locks out when the largest of its counts reaches this limit; the address's count
    includes the user name's, so this locks out exactly when the user name has
    ``PWSCUP_LOGIN_FAILURE_LIMIT`` failures from this address or the address has
    ``PWSCUP_LOGIN_FAILURE_LIMIT_PER_ADDRESS`` over all user names.
    """
    if user_name_locked_out(request, credentials):
        return settings.PWSCUP_LOGIN_FAILURE_LIMIT
    return settings.PWSCUP_LOGIN_FAILURE_LIMIT_PER_ADDRESS


class LoginThrottleHandler(AxesDatabaseHandler):
    """Axes' database handler, except that a good log-in forgives only its own user name's
    failures from that address: axes would delete the whole address's, so an attacker with one
    valid account could log in now and then to go on spraying passwords at the others."""

    def reset_user_attempts(self, request, credentials=None) -> int:
        count, _deleted = _user_name_attempts(request, credentials).delete()
        return count
