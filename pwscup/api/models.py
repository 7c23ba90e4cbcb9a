"""Personal API tokens: a user's keys for scripts and the ``pwscup`` client."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

TOKEN_NAME_MAX_LENGTH = 100
PASSWORD_BINDING_SALT = "pwscup.api.models.ApiToken.password_binding"


def password_binding(password_hash: str, *, secret: str | None = None) -> str:
    """The HMAC of a user's stored password hash that a token carries, as Django's
    ``AbstractBaseUser.get_session_auth_hash`` does for sessions: a new password (set in any
    way: the site, the admin, ``changepassword``, ``set_password`` and ``save``) changes
    the user's ``password`` column, and every token made before no longer matches.
    ``secret``: a key of ``SECRET_KEY_FALLBACKS`` (default ``SECRET_KEY``)."""
    return salted_hmac(
        PASSWORD_BINDING_SALT, password_hash, secret=secret, algorithm="sha256"
    ).hexdigest()


def password_bindings(user) -> list[str]:
    """The bindings a token of ``user`` may carry now: under ``SECRET_KEY``, then under each
    of ``SECRET_KEY_FALLBACKS`` (so rotating the key does not end every token at once, as
    Django does for sessions)."""
    return [password_binding(user.password)] + [
        password_binding(user.password, secret=key) for key in settings.SECRET_KEY_FALLBACKS
    ]


class ApiToken(models.Model):
    """Stored hashed: ``digest`` is the SHA-256 of the whole token; ``prefix`` (random, shown
    in the list) finds the row without scanning. A token acts as its user, nothing more, and
    only while the user's password is the one it was made under (``password_hash``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("account"),
    )
    name = models.CharField(_("name"), max_length=TOKEN_NAME_MAX_LENGTH)
    prefix = models.CharField(_("prefix"), max_length=16, unique=True, editable=False)
    digest = models.CharField(_("SHA-256 of the token"), max_length=64, editable=False)
    # ``password_binding`` of the user's password hash when the token was made.
    password_hash = models.CharField(_("password check"), max_length=64, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
