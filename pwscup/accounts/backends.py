"""Login throttling as an authentication backend (django-axes)."""

from axes.backends import AxesStandaloneBackend


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes' lock-out check, for log-ins over HTTP only.

    Axes keys lock-outs on the request (user name + address) and raises when there is none.
    A log-in without a request (a management command, the test client's ``login()``) has no
    address to lock: it goes straight to the password check of the next backend.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
