"""What the platform tells a user: in the page's bell and, when they want it, by e-mail.

A notification stores its kind and parameters, never a sentence: each reader sees it in
their own language (``pwscup.notifications.kinds``).
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    class Kind(models.TextChoices):
        SUBMISSION_FINISHED = "submission_finished", _("A submission was scored")
        SUBMISSION_FAILED = "submission_failed", _("A submission failed")
        SUBMISSION_CHECKED = "submission_checked", _("A submission was checked")
        ROUND_FROZEN = "round_frozen", _("A round froze: targets published")
        RESULTS_PUBLISHED = "results_published", _("Results published")
        RELEASE_FROZEN = "release_frozen", _("A release froze: the next one is open")
        SEQUENCE_SCORED = "sequence_scored", _("A release froze: the sequences are scored")
        UPLOAD_VOIDED = "upload_voided", _("An upload was voided by the organizers")
        UPLOAD_RESTORED = "upload_restored", _("A voided upload counts again")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        verbose_name=_("account"),
    )
    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices)
    params = models.JSONField(_("message parameters"), default=dict, blank=True)
    url = models.CharField(_("link"), max_length=500, blank=True)
    # What happened, once per user: a job delivered twice, a rescore or a requeued freeze
    # does not notify again (e.g. "submission_failed:sequential.release:42").
    event = models.CharField(_("event"), max_length=200)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="one_notification_per_event")
        ]
        indexes = [
            models.Index(
                fields=["user"],
                condition=models.Q(read_at__isnull=True),
                name="notification_unread",
            )
        ]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self) -> str:
        return gettext("%(kind)s for %(user)s") % {
            "kind": self.get_kind_display(),
            "user": self.user,
        }


class NotificationPreference(models.Model):
    """A user's wishes; a user without a row gets the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_preference",
        verbose_name=_("account"),
    )
    email_enabled = models.BooleanField(
        _("also send notifications by e-mail"),
        default=False,
    )
    # The language the e-mails are written in: the one the user last saved preferences in.
    language = models.CharField(_("language"), max_length=8, blank=True, default="")

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")

    def __str__(self) -> str:
        return gettext("Preferences of %(user)s") % {"user": self.user}
