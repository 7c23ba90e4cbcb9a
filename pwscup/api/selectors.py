"""Reading personal API tokens."""

from django.db.models import QuerySet

from pwscup.api.models import ApiToken


def api_tokens_of(*, user) -> QuerySet[ApiToken]:
    """The user's live tokens, newest first (the profile page's list)."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True)
