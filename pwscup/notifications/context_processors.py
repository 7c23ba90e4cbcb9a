"""The header's bell: how many notifications the user has not read yet."""

from django.utils.functional import SimpleLazyObject

from pwscup.notifications.selectors import notifications_unread_count


def notifications(request):
    # Lazy: pages that do not show the header (JSON, files) never run the query.
    user = getattr(request, "user", None)
    if user is None:
        return {}
    return {"notifications_unread": SimpleLazyObject(lambda: notifications_unread_count(user=user))}
