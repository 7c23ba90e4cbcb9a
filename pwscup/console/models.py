"""What the organizer console keeps: the audit log and the teams' disqualifications."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import Team
from pwscup.competitions.models import Competition, Round


class AuditEntry(models.Model):
    """One organizer action: who did what to which competition or round, and when."""

    class Action(models.TextChoices):
        COMPETITION_CREATED = "competition_created", _("Created the competition")
        COMPETITION_EDITED = "competition_edited", _("Edited the competition")
        ORGANIZER_ADDED = "organizer_added", _("Added a co-organizer")
        ROUND_CREATED = "round_created", _("Created the round")
        ROUND_EDITED = "round_edited", _("Edited the round")
        ROUND_FROZEN = "round_frozen", _("Froze the round")
        PHASES_CLOSED = "phases_closed", _("Closed the open phases")
        ROUND_SCORED = "round_scored", _("Asked for the scores again")
        ROUND_RESCORED = "round_rescored", _("Rescored everything")
        RESULTS_PUBLISHED = "results_published", _("Published the results")
        RESULTS_HIDDEN = "results_hidden", _("Hid the results")
        SAMPLES_DRAWN = "samples_drawn", _("Drew the per-team samples")
        ARCHIVE_DOWNLOADED = "archive_downloaded", _("Downloaded the archive")
        TEAM_RENAMED = "team_renamed", _("Renamed a team")
        TEAM_DISQUALIFIED = "team_disqualified", _("Disqualified a team")
        TEAM_REINSTATED = "team_reinstated", _("Reinstated a team")
        MEMBER_REMOVED = "member_removed", _("Removed a member")

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="audit_entries"
    )
    round = models.ForeignKey(
        Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit_entries"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=32, choices=Action.choices)
    # Plain words and numbers (team names, counts, changed fields), shown with the action.
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.user} {self.action}"

    @property
    def detail_text(self) -> str:
        """``key: value; …`` with lists joined by commas, for the log's table."""
        return "; ".join(
            f"{key}: {', '.join(map(str, value)) if isinstance(value, list) else value}"
            for key, value in self.detail.items()
        )


class TeamDisqualification(models.Model):
    """A team the organizers took out of every ranking of its competition, with the reason."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="disqualification")
    reason = models.TextField(_("reason"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("disqualification")
        verbose_name_plural = _("disqualifications")

    def __str__(self) -> str:
        return f"{self.team}: {self.reason[:40]}"
