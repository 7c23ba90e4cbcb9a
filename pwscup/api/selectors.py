"""Reading personal API tokens."""

from django.db.models import QuerySet

from pwscup.api.models import ApiToken, password_bindings


def api_tokens_of(*, user) -> QuerySet[ApiToken]:
    """The user's live tokens, newest first (the profile page's list): not revoked, and made
    under the user's current password (one set since ends them)."""
    return ApiToken.objects.filter(
        user=user, revoked_at__isnull=True, password_hash__in=password_bindings(user)
    )
