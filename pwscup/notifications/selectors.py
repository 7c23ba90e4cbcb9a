"""Reading a user's notifications."""

from pwscup.notifications.models import Notification, NotificationPreference


def notifications_unread_count(*, user) -> int:
    if not user.is_authenticated:
        return 0
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notifications_for_user(*, user, limit: int = 100) -> list[Notification]:
    return list(Notification.objects.filter(user=user)[:limit])


def notification_preference(*, user) -> NotificationPreference:
    """The user's preferences (the defaults when never saved)."""
    return NotificationPreference.objects.filter(user=user).first() or NotificationPreference(
        user=user
    )
