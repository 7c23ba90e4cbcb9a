"""Teams, their members and what the organizers decide about them (a disqualification, a
judged award)."""

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.models import Competition
from pwscup.competitions.round_fields import whole_competition_round
from pwscup.core.model_fields import account_reference
from pwscup.core.text_limits import REASON_MAX_LENGTH


def new_invitation_code() -> str:
    """A code that cannot be guessed (128 bits), short enough to paste in a chat."""
    return secrets.token_urlsafe(16)


class Team(models.Model):
    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="teams", verbose_name=_("competition")
    )
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(
        _("file name prefix"), help_text=_("Used in file names such as teamA_anonymized.csv.")
    )
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="Membership",
        related_name="teams",
        blank=True,
        verbose_name=_("members"),
    )
    captain = account_reference(
        blank=True, related_name="captained_teams", verbose_name=_("captain")
    )
    invitation_code = models.CharField(
        _("invitation code"), max_length=32, unique=True, default=new_invitation_code
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["competition", "name"]
        unique_together = [("competition", "name"), ("competition", "slug")]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name


def team_reference(
    *, related_name: str = "+", on_delete=models.CASCADE, **options
) -> models.ForeignKey:
    """The team a row belongs to (an upload, a target, a draw, a member...), named "team"
    in every page and language: deleted with it unless ``on_delete`` says otherwise.
    ``options``: ``null``, ``blank`` and the like."""
    return models.ForeignKey(
        Team,
        on_delete=on_delete,
        related_name=related_name,
        verbose_name=_("team"),
        **options,
    )


class Membership(models.Model):
    team = team_reference(related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("account"),
    )
    # Denormalised so that the database itself enforces one team per competition.
    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, editable=False, verbose_name=_("competition")
    )
    joined_at = models.DateTimeField(_("joined"), default=timezone.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "competition"], name="one_team_per_competition")
        ]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return gettext("%(user)s in %(team)s") % {"user": self.user, "team": self.team}


class TeamDisqualification(models.Model):
    """A team the organizers took out of every ranking of its competition, with the reason."""

    team = models.OneToOneField(
        Team, on_delete=models.CASCADE, related_name="disqualification", verbose_name=_("team")
    )
    reason = models.TextField(_("reason"), max_length=REASON_MAX_LENGTH)
    decided_by = account_reference(verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"), default=timezone.now)

    class Meta:
        verbose_name = _("disqualification")
        verbose_name_plural = _("disqualifications")

    def __str__(self) -> str:
        return f"{self.team}: {self.reason[:40]}"


AWARD_NAME_MAX_LENGTH = 200


class Award(models.Model):
    """A prize the judges give a team beside the computed rankings (Best presentation, the
    committee's prize), for one round or, without a round, for the whole competition.

    Shown at once on the competition's page, the round's results pages and in the next
    results archive: the organizers record it when they announce it. It names a team, so
    it stays with this site's competition and is not carried by a bundle."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="awards", verbose_name=_("competition")
    )
    round = whole_competition_round(related_name="awards")
    team = team_reference(related_name="awards")
    name_en = models.CharField(_("name (English)"), max_length=AWARD_NAME_MAX_LENGTH)
    name_ja = models.CharField(_("name (Japanese)"), max_length=AWARD_NAME_MAX_LENGTH)
    citation = models.TextField(_("citation"), max_length=REASON_MAX_LENGTH, blank=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    created_at = models.DateTimeField(_("recorded at"), default=timezone.now, editable=False)
    created_by = account_reference(verbose_name=_("recorded by"))

    class Meta:
        ordering = ["competition", "order", "id"]
        verbose_name = _("award")
        verbose_name_plural = _("awards")

    def __str__(self) -> str:
        return f"{self.name_en}: {self.team}"


class PageGeneration(models.Model):
    """How many writes the rows a kept page is drawn from have seen, counted by the database.

    One row (``id`` 1). A trigger on each counted table (the competitions, their organizers,
    rounds, phases, teams, memberships, the accounts' groups and permissions, and each kind's
    own round table where the kind declares it: ``RoundKind.counted_row``) moves ``value`` in
    the writing transaction, for every statement, ``QuerySet.update()`` and raw SQL included:
    a page remembered at one value (``pwscup.accounts.conditional``) is known unchanged while
    the value is. Written by the triggers only; ``value`` is read, never set, by the code.
    """

    value = models.PositiveBigIntegerField(_("generation"), default=0)

    class Meta:
        verbose_name = _("page generation")
        verbose_name_plural = _("page generations")

    def __str__(self) -> str:
        return str(self.value)
