"""The sentence of each kind of notification, rendered in the reader's language."""

from django.utils.translation import gettext_lazy as _

from pwscup.notifications.models import Notification

Kind = Notification.Kind

TEXTS = {
    Kind.SUBMISSION_FINISHED: _("Your upload %(file)s in %(round)s was scored."),
    Kind.SUBMISSION_FAILED: _("Your upload %(file)s in %(round)s failed: the round page says why."),
    Kind.SUBMISSION_CHECKED: _("Your upload %(file)s in %(round)s was checked: it is valid."),
    Kind.ROUND_FROZEN: _("%(round)s is frozen: the attack targets are published."),
    Kind.RESULTS_PUBLISHED: _("The results of %(round)s are published."),
    Kind.RELEASE_FROZEN: _("Release %(step)s of %(round)s is frozen; release %(next)s is open."),
    Kind.SEQUENCE_SCORED: _("Release %(step)s of %(round)s is frozen; your sequence is scored."),
    Kind.UPLOAD_VOIDED: _(
        "The organizers voided your upload %(file)s in %(round)s: it no longer counts. "
        "Why: %(reason)s"
    ),
    Kind.UPLOAD_RESTORED: _("Your upload %(file)s in %(round)s counts again."),
}


def notification_text(notification: Notification) -> str:
    """The sentence in the active language; a missing parameter shows as empty, not a crash."""
    params = {
        "file": "",
        "round": "",
        "step": "",
        "next": "",
        "reason": "",
        **notification.params,
    }
    return str(TEXTS[notification.kind]) % params
