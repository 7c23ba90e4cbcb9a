"""Telling users what happened: one in-app notification per user and event, and an
e-mail to those who asked for one (sent when the transaction commits, in their language)."""

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from pwscup.kinds import kind_of
from pwscup.notifications.kinds import notification_text
from pwscup.notifications.models import Notification, NotificationPreference

log = logging.getLogger(__name__)
Kind = Notification.Kind


def notify(*, users, kind: str, event: str, params: dict, url: str = "") -> list[Notification]:
    """Notify each of ``users`` of ``event`` once: users already told are skipped.

    Returns the notifications created now; their e-mails leave after the commit.
    """
    user_ids = {user.pk for user in users}
    already = set(
        Notification.objects.filter(user_id__in=user_ids, event=event).values_list(
            "user_id", flat=True
        )
    )
    fresh = [
        Notification(user_id=pk, kind=kind, event=event, params=params, url=url)
        for pk in sorted(user_ids - already)
    ]
    # A simultaneous run may insert the same rows: the unique (user, event) drops ours.
    Notification.objects.bulk_create(fresh, ignore_conflicts=True)
    if fresh:
        transaction.on_commit(lambda: _emails_send(fresh))
    return fresh


def _emails_send(notifications: list[Notification]) -> None:
    by_user = {n.user_id: n for n in notifications}
    wanted = NotificationPreference.objects.filter(
        user_id__in=by_user, email_enabled=True
    ).select_related("user")
    messages = []
    for preference in wanted:
        if not preference.user.email or not preference.user.is_active:
            continue
        notification = by_user[preference.user_id]
        with translation.override(preference.language or settings.LANGUAGE_CODE):
            text = notification_text(notification)
            link = settings.PWSCUP_SITE_URL.rstrip("/") + (
                notification.url or reverse("notification_list")
            )
            body = "\n\n".join(
                [
                    text,
                    link,
                    _(
                        "You receive this e-mail because you asked for notifications by e-mail "
                        "on your profile page: %(url)s"
                    )
                    % {"url": settings.PWSCUP_SITE_URL.rstrip("/") + reverse("profile")},
                ]
            )
            messages.append(
                EmailMessage(subject=f"[PWSCup] {text}", body=body, to=[preference.user.email])
            )
    if not messages:
        return
    try:
        get_connection().send_messages(messages)
    except Exception:  # noqa: BLE001 - a mail server down must not fail the job that notified
        log.exception("sending %d notification e-mails failed", len(messages))


def notifications_mark_read(*, user, ids=None) -> int:
    """Mark the user's notifications (those of ``ids``, else all) read; returns how many."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    return unread.update(read_at=timezone.now())


def notification_preference_set(
    *, user, email_enabled: bool, language: str
) -> NotificationPreference:
    """Keep the user's wishes (e-mails in ``language``). Turning e-mails on for an account
    without an address is refused (``ValidationError`` keyed ``email_enabled``): nothing
    would ever arrive. Turning them off always works."""
    if email_enabled and not (user.email or "").strip():
        raise ValidationError(
            {
                "email_enabled": _(
                    "Your account has no e-mail address to send them to: add one first (My "
                    "profile › Account), then turn e-mails on."
                )
            }
        )
    preference, _created = NotificationPreference.objects.update_or_create(
        user=user, defaults={"email_enabled": email_enabled, "language": language}
    )
    return preference


# --- The events -------------------------------------------------------------------


def _round_url(round_) -> str:
    return reverse("round_detail", args=[round_.competition.slug, round_.slug])


OUTCOME_KINDS = {"finished": Kind.SUBMISSION_FINISHED, "failed": Kind.SUBMISSION_FAILED}


def notify_upload_outcome(*, upload, round, status: str) -> list[Notification]:
    """A team's upload in ``round`` (any kind's ``KeptUpload``) finished or failed: its
    members are told, once per outcome (a rescore with the same outcome stays silent). An
    upload its job only checks (``SCORED_ON_CHECK`` false: a DP estimate, scored at the
    close) is told checked, not scored."""
    kind = OUTCOME_KINDS[status]
    if kind == Kind.SUBMISSION_FINISHED and not upload.SCORED_ON_CHECK:
        kind = Kind.SUBMISSION_CHECKED
    return notify(
        users=get_user_model().objects.filter(memberships__team_id=upload.team_id),
        kind=kind,
        event=f"{kind}:{upload._meta.label_lower}:{upload.pk}",
        params={"file": upload.original_filename, "round": round.name},
        url=_round_url(round),
    )


def notify_participants(
    *, round, kind: str, url: str, event_suffix: str = "", params: dict | None = None
) -> list[Notification]:
    """Tell every participant of the round's competition, once: the event is the kind, the
    round and ``event_suffix`` (``":step2"``: once per step); the round's name is a
    parameter of the text, beside ``params``."""
    return notify(
        users=get_user_model().objects.filter(memberships__competition_id=round.competition_id),
        kind=kind,
        event=f"{kind}:{round.pk}{event_suffix}",
        params={"round": round.name, **(params or {})},
        url=url,
    )


def notify_round_frozen(*, round, frozen_at) -> list[Notification]:
    """The round froze at ``frozen_at`` (its attack targets are published): every participant
    is told, once per freeze."""
    return notify_participants(
        round=round,
        kind=Kind.ROUND_FROZEN,
        event_suffix=f":{frozen_at.isoformat()}",
        url=_round_url(round),
    )


def notify_results_published(*, round) -> list[Notification]:
    """The round's results are published: every participant is told, once, with a link to
    the results page of the round's kind."""
    url = kind_of(round).results_url(round) or reverse(
        "round_detail", args=[round.competition.slug, round.slug]
    )
    return notify_participants(round=round, kind=Kind.RESULTS_PUBLISHED, url=url)
