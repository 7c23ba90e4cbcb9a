"""Competitions, rounds and their phases."""

import datetime as dt
import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.audit_details import detail_html, detail_line
from pwscup.competitions.round_fields import round_part, round_reference
from pwscup.core.files import source_encoding_label
from pwscup.core.model_fields import account_reference, limit_column
from pwscup.core.text_limits import DESCRIPTION_MAX_LENGTH
from pwscup.core.time_zones import default_time_zone
from pwscup.kinds import kind_of


def _new_seed() -> int:
    """Referenced by migration 0001 (the seed has since moved to the kinds' own models):
    Django keeps a function a migration names for as long as the migration exists."""
    return secrets.randbits(62)


def private_upload_path(instance, filename: str) -> str:
    return f"private/rounds/{timezone.now():%Y%m%d%H%M%S}-{secrets.token_hex(6)}-{filename}"


class Competition(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), unique=True)
    description = models.TextField(_("description"), max_length=DESCRIPTION_MAX_LENGTH, blank=True)
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="organized_competitions",
        verbose_name=_("organizers"),
    )
    is_listed = models.BooleanField(
        _("listed publicly"),
        default=True,
        help_text=_("Visitors see the competition's name and public leaderboards."),
    )
    max_team_size = models.PositiveSmallIntegerField(
        _("maximum team size"),
        default=5,
        validators=[MinValueValidator(1)],
        help_text=_("Members a team may have, its captain included."),
    )
    registration_locked = models.BooleanField(
        _("registration locked"),
        default=False,
        help_text=_("Participants can no longer create or join teams (organizers still can)."),
    )
    # Set by ``manage.py load_demo`` only: the competition it made, which it may complete on
    # its next run (an import or a clone never makes a demo).
    is_demo = models.BooleanField(_("demo competition"), default=False, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")

    def __str__(self) -> str:
        return self.name


class AttackTopBy(models.TextChoices):
    """Which ranking the attack score against the top N releases reads its top N from."""

    RELEASE = "release", _("the release ranking")
    TOTAL = "total", _("the round's total")


class AttackTopOwn(models.TextChoices):
    """How that score counts an attacker's own release among the top N."""

    LEFT_OUT = "left_out", _("left out")
    BEST_OTHER = "best_other", _("the best other attacker's score")


class AttackTopCombine(models.TextChoices):
    """How that score combines an attacker's scores on the top N."""

    MEAN = "mean", _("the mean")
    SUM = "sum", _("the sum")


class Round(models.Model):
    """What every round has, whatever game it plays: its competition, name, kind, original
    table, configuration and time zone. A kind keeps its own settings and state in its own
    model, one-to-one with the round (``round.pwscup2015``, ``round.dp``...)."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("competition")
    )
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"))
    # Which game the round plays (pwscup/kinds/): a key of the kind registry, checked by the
    # services, not model choices, so that a new kind needs no migration here. No default:
    # every creation path names its kind (no kind is the platform's first).
    kind = models.CharField(
        _("kind"),
        max_length=32,
        help_text=_("The game the round plays; fixed once the round exists."),
    )
    order = models.PositiveIntegerField(_("order"), default=1)
    original_file = models.FileField(
        _("original table (CSV)"),
        upload_to=private_upload_path,
        help_text=_("The table the round is played on (a kind may draw samples from it)."),
    )
    original_sha256 = models.CharField(
        _("SHA-256 of the original table"), max_length=64, blank=True, editable=False
    )
    # ``original_file`` is UTF-8 (what is scored and served); an original uploaded in another
    # encoding is kept here as uploaded, with the encoding it was converted from.
    original_source = models.FileField(
        _("original table as uploaded"),
        upload_to=private_upload_path,
        blank=True,
        editable=False,
    )
    original_encoding = models.CharField(
        _("original table converted from"), max_length=32, blank=True, editable=False
    )
    original_rows = models.PositiveIntegerField(
        _("rows of the original table"), default=0, editable=False
    )
    config = models.JSONField(_("round configuration"), default=dict)
    # The dates of the round are typed and shown in it; a new round starts from the site's
    # default (read when the row is made, so that no migration freezes a zone).
    timezone = models.CharField(_("time zone"), max_length=64, default=default_time_zone)
    # The local hour the round's daily limits start a new day at (PWSCup 2024 and 2025: 9,
    # Japan time): one rule for every kind, ``pwscup.submissions.selectors.QuotaDay``.
    quota_reset_hour = models.PositiveSmallIntegerField(
        _("daily limits reset at"),
        default=0,
        validators=[MaxValueValidator(23)],
        help_text=_(
            "The hour (0–23, in the round's time zone) at which every daily upload count of "
            "the round starts again; 0: midnight."
        ),
    )
    # The round's total from its named scores (``scoring.formula``; the names a kind offers:
    # ``RoundKind.named_scores``); empty: the round has no total.
    total_formula = models.CharField(_("total formula"), max_length=500, blank=True)
    # An attack score counted against the N best releases only (``pwscup.competitions.
    # attack_top``; PWSCup 2021: 3, 2024: 5, 2025: 10); empty: no such score.
    attack_top_n = models.PositiveSmallIntegerField(
        _("attack against the top N releases"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(1000)],
    )
    # How that score is read (docs/organizers.md, "Attack against the top N releases"): the
    # top N by the release ranking or by the round's total (2024, 2025), the attacker's own
    # release left out or counted as the best other attacker's score (2024, 2025), and
    # the scores' mean or sum (2024, 2025). The defaults are the rule before these settings.
    attack_top_by = models.CharField(
        _("top N by"), max_length=16, choices=AttackTopBy.choices, default=AttackTopBy.RELEASE
    )
    attack_top_own = models.CharField(
        _("the attacker's own release"),
        max_length=16,
        choices=AttackTopOwn.choices,
        default=AttackTopOwn.LEFT_OUT,
    )
    attack_top_combine = models.CharField(
        _("combined as"),
        max_length=16,
        choices=AttackTopCombine.choices,
        default=AttackTopCombine.MEAN,
    )

    class Meta:
        ordering = ["competition", "order", "id"]
        unique_together = [("competition", "slug")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return f"{self.competition.name} / {self.name}"

    @property
    def quota_reset_time(self) -> dt.time:
        """When the round's daily limits reset, as a local time of its time zone (pages
        print it ``H:i``)."""
        return dt.time(self.quota_reset_hour)

    @property
    def original_encoding_label(self) -> str:
        """The encoding the original was converted from (``"Shift_JIS (CP932)"``), or ``""``."""
        return source_encoding_label(self.original_encoding)


class RankingVersion(models.Model):
    """How often the round's rankings changed: the version its cached rankings are keyed by.

    Bumped in the transaction of every change that can move a rank or a number
    (``pwscup.competitions.services.ranking_version_bump``), so it commits with the score;
    read once per request with the page generation
    (``pwscup.accounts.page_versions.request_versions``). A
    row of its own, not a column of the round's or the kind's row: those are saved whole by
    forms (a stale copy would set the version back), and the workers that score a round's
    uploads lock only this small row, and only until their scoring transaction commits. A
    round whose rankings never changed has no row: version 0.
    """

    round = round_part(primary_key=True, related_name="+")
    version = models.PositiveBigIntegerField(_("version"), default=0)

    def __str__(self) -> str:
        return f"{self.round_id}: {self.version}"


class UploadDates(models.Model):
    """When a window takes uploads: from ``opens_at`` (included) to ``closes_at`` (excluded).

    What every upload window of every kind declares (a 2015 phase, a presentation window,
    a DP round's release phase); a kind may end a window earlier (the 2015 freeze:
    ``RoundKind.phase_ended_at``), never later.

    ``opens_at`` and ``closes_at`` are when the window really takes uploads (its pages show
    them). When an action moves them (*Close now*, a publication, *Open now*: every one
    through ``pwscup.competitions.windows.window_move``) the times it had before the first
    such move are kept in ``planned_opens_at`` / ``planned_closes_at``: the plan, which a
    bundle exports (``planned_window``). An organizer's edit of the dates is the new plan
    and clears them (``window_dates_edit``)."""

    opens_at = models.DateTimeField(_("opens at"))
    closes_at = models.DateTimeField(_("closes at"))
    planned_opens_at = models.DateTimeField(_("planned to open at"), null=True, blank=True)
    planned_closes_at = models.DateTimeField(_("planned to close at"), null=True, blank=True)

    class Meta:
        abstract = True

    def planned_window(self) -> tuple:
        """``(opens_at, closes_at)`` as the organizer planned them: before an action first
        moved the window, else as they are."""
        if self.planned_opens_at is not None and self.planned_closes_at is not None:
            return self.planned_opens_at, self.planned_closes_at
        return self.opens_at, self.closes_at

    def is_open(self, at=None) -> bool:
        at = at or timezone.now()
        return self.opens_at <= at < self.closes_at

    def has_closed(self, at=None) -> bool:
        return (at or timezone.now()) >= self.closes_at


class UploadLimits(models.Model):
    """How many uploads a team may make in a window, per round-local day and in total (empty:
    no limit): what the core's upload pipeline enforces for every kind
    (``pwscup.submissions.services.uploads.UploadWindow.limited_by``)."""

    daily_limit = limit_column(_("uploads per day"))
    total_limit = limit_column(_("uploads in total"))

    class Meta:
        abstract = True


class Phase(UploadDates, UploadLimits):
    """One upload window of a round played in the core's phases. ``kind`` is the phase's key
    in its round's game (the 2015 game's ``anonymization`` and ``attack``, a two-sided
    game's ``release`` and ``attack``); its name is the one the game gives it
    (``RoundKind.phase_labels``, read by ``label``)."""

    class Kind(models.TextChoices):
        """The first game's phase keys (``pwscup.pwscup2015``)."""

        ANONYMIZATION = "anonymization", _("Anonymization phase")
        ATTACK = "attack", _("Attack phase")

    round = round_reference(related_name="phases")
    kind = models.CharField(_("kind"), max_length=32)
    leaderboard_public = models.BooleanField(_("leaderboard visible to visitors"), default=False)
    # Checked only for uploads that name a target (the kinds' attacks on one team's release);
    # an upload covering every target counts once against ``total_limit``.
    target_limit = limit_column(
        _("uploads per target"),
        help_text=_(
            "At most this many uploads per target per team in this phase. Empty: no limit."
        ),
    )

    class Meta:
        ordering = ["round", "opens_at"]
        unique_together = [("round", "kind")]
        verbose_name = _("phase")
        verbose_name_plural = _("phases")

    def __str__(self) -> str:
        return f"{self.round} / {self.label}"

    @property
    def label(self) -> str:
        """The phase's name as its round's game calls it, in the active language (its key
        when the game names no such phase)."""
        return str(kind_of(self.round).phase_labels.get(self.kind, self.kind))


class AuditEntry(models.Model):
    """One organizer action: who did what to which competition or round, and when."""

    class Action(models.TextChoices):
        COMPETITION_CREATED = "competition_created", _("Created the competition")
        COMPETITION_EDITED = "competition_edited", _("Edited the competition")
        ORGANIZER_ADDED = "organizer_added", _("Added a co-organizer")
        ROUND_CREATED = "round_created", _("Created the round")
        ROUND_EDITED = "round_edited", _("Edited the round")
        ROUND_DELETED = "round_deleted", _("Deleted the round")
        ROUND_FROZEN = "round_frozen", _("Froze the round")
        PHASES_CLOSED = "phases_closed", _("Closed the open phases")
        ROUND_SCORED = "round_scored", _("Asked for the scores again")
        ROUND_RESCORED = "round_rescored", _("Rescored everything")
        RANKING_RUN = "ranking_run", _("Ran the ranking program")
        RESULTS_PUBLISHED = "results_published", _("Published the results")
        RESULTS_HIDDEN = "results_hidden", _("Hid the results")
        SAMPLES_DRAWN = "samples_drawn", _("Drew the per-team samples")
        ARCHIVE_DOWNLOADED = "archive_downloaded", _("Downloaded the archive")
        TEAM_RENAMED = "team_renamed", _("Renamed a team")
        TEAM_DISQUALIFIED = "team_disqualified", _("Disqualified a team")
        TEAM_REINSTATED = "team_reinstated", _("Reinstated a team")
        MEMBER_REMOVED = "member_removed", _("Removed a member")
        PRESENTATIONS_SCHEDULED = "presentations_scheduled", _("Scheduled presentations")
        PRESENTATIONS_PUBLISHED = "presentations_published", _("Published the slides")
        PRESENTATIONS_HIDDEN = "presentations_hidden", _("Hid the slides")
        BUNDLE_EXPORTED = "bundle_exported", _("Exported the competition as a bundle")
        COMPETITION_IMPORTED = "competition_imported", _("Imported the competition from a bundle")
        COMPETITION_CLONED = "competition_cloned", _("Cloned the competition")
        ARCHIVE_PUBLISHED = "archive_published", _("Published a results archive")
        AWARD_RECORDED = "award_recorded", _("Recorded an award")
        AWARD_EDITED = "award_edited", _("Edited an award")
        AWARD_REMOVED = "award_removed", _("Removed an award")
        UPLOADS_VOIDED = "uploads_voided", _("Voided uploads")
        UPLOAD_RESTORED = "upload_restored", _("Restored a voided upload")
        UPLOAD_WITHDRAWN = "upload_withdrawn", _("A team withdrew an upload")

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="audit_entries",
        verbose_name=_("competition"),
    )
    # Kept (NULL) when its round is deleted: the log outlives the rounds it speaks of.
    round = round_reference(
        Round, related_name="audit_entries", on_delete=models.SET_NULL, null=True, blank=True
    )
    user = account_reference()
    action = models.CharField(_("action"), max_length=32, choices=Action.choices)
    # Plain words and numbers (team names, counts, changed fields), shown with the action.
    detail = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.user} {self.action}"

    @property
    def detail_text(self) -> str:
        """The details as ``label: value; …`` in the active language."""
        return detail_line(self.detail, action=self.action)

    @property
    def detail_html(self) -> str:
        """``detail_text`` for the log's table: escaped, each moment a ``<time>``."""
        return detail_html(self.detail, action=self.action)


# The standings' and the data choice's models live in their own modules (imported here).
from pwscup.competitions.choice_models import DataChoice, TeamDataChoice  # noqa: E402, F401
from pwscup.competitions.standings_models import (  # noqa: E402, F401
    Standings,
    StandingsDivision,
    StandingsRound,
)
