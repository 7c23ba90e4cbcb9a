"""Creating, using and revoking personal API tokens."""

import datetime as dt
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.api.models import (
    TOKEN_NAME_MAX_LENGTH,
    ApiToken,
    password_binding,
    password_bindings,
)
from pwscup.api.selectors import api_tokens_of
from pwscup.core.errors import Refused

TOKEN_START = "pws_"
PREFIX_LENGTH = 8  # hex characters after TOKEN_START
# A token's last-used time is written at most this often (no write on every request).
LAST_USED_RESOLUTION = dt.timedelta(seconds=60)
# A user keeps at most this many live tokens (each one is a key to the account).
MAX_ACTIVE_TOKENS = 20


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    secret: str  # the whole token, shown once and never stored


def _digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def api_token_create(*, user, name: str) -> NewToken:
    name = " ".join((name or "").split())
    if not name:
        raise Refused(_("Give the token a name (e.g. the machine that uses it)."))
    if len(name) > TOKEN_NAME_MAX_LENGTH:
        raise Refused(
            _("A token name has at most %(limit)s characters.") % {"limit": TOKEN_NAME_MAX_LENGTH}
        )
    if api_tokens_of(user=user).count() >= MAX_ACTIVE_TOKENS:
        raise Refused(
            _("You already have %(limit)s tokens; revoke one first.") % {"limit": MAX_ACTIVE_TOKENS}
        )
    prefix = secrets.token_hex(PREFIX_LENGTH // 2)
    raw = f"{TOKEN_START}{prefix}_{secrets.token_urlsafe(32)}"
    token = ApiToken.objects.create(
        user=user,
        name=name,
        prefix=prefix,
        digest=_digest(raw),
        password_hash=password_binding(user.password),
    )
    return NewToken(token=token, secret=raw)


def api_token_revoke(*, user, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens (another user's is "not found")."""
    token = ApiToken.objects.filter(user=user, pk=token_id, revoked_at__isnull=True).first()
    if token is None:
        raise Refused(_("No such token."), status=404)
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    return token


def api_token_authenticate(*, raw: str, now=None) -> ApiToken | None:
    """The live token ``raw`` names, its user active and their password the one the token
    was made under (``password_binding``); ``None`` otherwise. Records its use."""
    if not raw.startswith(TOKEN_START) or len(raw) < len(TOKEN_START) + PREFIX_LENGTH + 2:
        return None
    prefix = raw[len(TOKEN_START) : len(TOKEN_START) + PREFIX_LENGTH]
    token = (
        ApiToken.objects.select_related("user")
        .filter(prefix=prefix, revoked_at__isnull=True)
        .first()
    )
    if token is None or not hmac.compare_digest(token.digest, _digest(raw)):
        return None
    if not token.user.is_active:
        return None
    if not any(
        hmac.compare_digest(token.password_hash, binding)
        for binding in password_bindings(token.user)
    ):
        return None  # the password changed since the token was made, in whatever way
    now = now or timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
