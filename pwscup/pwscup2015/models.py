"""The PWSCup 2015 game's data: the round's game settings and state, anonymizations,
per-team samples, attack targets, attacks and the round-wide operations (freeze, rescore,
publish).

Every scored object carries its job state in ``status``; each transition is a conditional
UPDATE (``pwscup.submissions.services.jobs``), so a task delivered twice does no harm.
"""

import secrets

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import team_reference
from pwscup.competitions.models import Phase
from pwscup.competitions.round_fields import round_part, round_reference
from pwscup.core.model_fields import account_reference
from pwscup.submissions.models import JobState, KeptUpload, VoidableUpload


def generated_path(instance, filename: str) -> str:
    return f"private/generated/{secrets.token_hex(8)}-{filename}"


def new_secret_seed() -> int:
    return secrets.randbits(62)


class Pwscup2015Round(models.Model):
    """What a round of the 2015 game has beyond what every round has (``Round``): how its data
    is handed out, how teams are ranked, and where it is in its lifecycle (frozen, published).

    One row per round of this kind, created with the round by ``round_create``; reached as
    ``round.pwscup2015``.
    """

    class DataMode(models.TextChoices):
        SHARED = "shared", _("Shared original (every team anonymizes the same table)")
        PER_TEAM = "per_team", _("Per-team sample with candidate tables")

    class RankingRule(models.TextChoices):
        WORST_ATTACK = "worst_attack", _("Lowest worst-case re-identification rate")
        MEAN_ATTACK = "mean_attack", _("Lowest mean re-identification rate")

    class SelectionRule(models.TextChoices):
        SELECTED_OR_LAST = "selected_or_last", _("Selected submission, else the last valid one")
        BEST = "best", _("Best valid submission")

    class AttackVisibility(models.TextChoices):
        LIVE = "live", _("Live: a team sees its own rates as soon as they are scored")
        AFTER_PHASE = "after_phase", _("After the attack phase has closed")
        ON_PUBLISH = "on_publish", _("Only when the organizer publishes the results")

    round = round_part(primary_key=True, related_name="pwscup2015")
    data_mode = models.CharField(
        _("data mode"), max_length=16, choices=DataMode.choices, default=DataMode.SHARED
    )
    sample_size = models.PositiveIntegerField(_("sample size per team"), null=True, blank=True)
    decoy_count = models.PositiveIntegerField(
        _("decoys per candidate table"), null=True, blank=True
    )
    # Derives every team's sample and the targets' permutations: never shown to anyone.
    secret_seed = models.BigIntegerField(_("secret seed"), default=new_secret_seed, editable=False)
    utility_gates = models.JSONField(
        _("utility gates"),
        default=dict,
        blank=True,
        help_text=_(
            'Upper bounds a submission must meet to be ranked, e.g. {"U1": 100, "U4": 0.05}.'
        ),
    )
    tie_break_metric = models.CharField(_("tie-break metric"), max_length=8, default="U1")
    # The range rule (iPWS 2023: 13 ≤ age ≤ 85): in these columns an anonymized value is any
    # number within the bounds instead of a value of the original column.
    value_ranges = models.JSONField(
        _("value ranges"),
        default=dict,
        blank=True,
        help_text=_(
            'Per column, the numbers a submission may write: {"age": {"min": 13, "max": 85}}.'
        ),
    )
    published_rows = models.PositiveIntegerField(
        _("published rows per target"),
        null=True,
        blank=True,
        help_text=_("Empty: every kept row. A number: a random sample of that many rows."),
    )
    ranking_rule = models.CharField(
        _("ranking rule"),
        max_length=16,
        choices=RankingRule.choices,
        default=RankingRule.WORST_ATTACK,
    )
    selection_rule = models.CharField(
        _("which submission represents a team"),
        max_length=20,
        choices=SelectionRule.choices,
        default=SelectionRule.SELECTED_OR_LAST,
    )
    attack_visibility = models.CharField(
        _("attack rates visible to the attacker"),
        max_length=16,
        choices=AttackVisibility.choices,
        default=AttackVisibility.LIVE,
    )
    auto_freeze = models.BooleanField(
        _("freeze automatically when the anonymization phase closes"), default=True
    )
    results_published = models.BooleanField(
        _("results published"),
        default=False,
        help_text=_("Everyone sees the attack matrix and the final ranking."),
    )
    frozen_at = models.DateTimeField(_("frozen at"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("PWSCup 2015 round settings")
        verbose_name_plural = _("PWSCup 2015 round settings")

    def __str__(self) -> str:
        return str(self.round)

    @property
    def is_per_team(self) -> bool:
        return self.data_mode == self.DataMode.PER_TEAM


class ScoredUpload(KeptUpload, VoidableUpload):
    """An upload of a phase of the core (the anonymizations and the attacks) and its scores'
    scorer version; the organizers may void it (``pwscup.submissions.voids``: kept as
    uploaded, counted nowhere)."""

    phase = models.ForeignKey(
        Phase, on_delete=models.PROTECT, related_name="+", verbose_name=_("phase")
    )
    team = team_reference(on_delete=models.PROTECT)
    scorer_version = models.CharField(_("scorer version"), max_length=32, blank=True)

    class Meta(KeptUpload.Meta):
        abstract = True


class AnonymizationSubmission(ScoredUpload):
    PHASE_KIND = Phase.Kind.ANONYMIZATION

    scores = models.JSONField(_("scores"), default=dict, blank=True)
    is_selected = models.BooleanField(_("selected as final"), default=False)

    class Meta(ScoredUpload.Meta):
        verbose_name = _("anonymization submission")
        verbose_name_plural = _("anonymization submissions")
        constraints = [
            models.UniqueConstraint(
                fields=["phase", "team"],
                condition=models.Q(is_selected=True),
                name="one_selected_submission_per_team",
            ),
            models.UniqueConstraint(
                fields=["phase", "team", "number"], name="anonymization_number_per_team"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label} {self.team} ({self.status})"


class TeamDataset(models.Model):
    """Per-team mode: the team's own sample of the master table (secret to other teams)."""

    round = round_reference(related_name="team_datasets")
    team = team_reference(related_name="datasets")
    sample_index = models.JSONField(
        _("sample row numbers"), help_text=_("0-based master row indices, in sample order")
    )
    file = models.FileField(_("file"), upload_to=generated_path, max_length=300)
    rows = models.PositiveIntegerField(_("number of rows"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        unique_together = [("round", "team")]
        verbose_name = _("team dataset")
        verbose_name_plural = _("team datasets")

    def __str__(self) -> str:
        return gettext("%(team)s sample (%(rows)s rows)") % {"team": self.team, "rows": self.rows}


class Target(models.Model):
    """A team's frozen anonymization, published (shuffled) for the attack phase."""

    round = round_reference(related_name="targets")
    team = team_reference(related_name="targets")
    submission = models.ForeignKey(
        AnonymizationSubmission,
        on_delete=models.PROTECT,
        related_name="targets",
        verbose_name=_("anonymization submission"),
    )
    version = models.PositiveIntegerField(_("version"), default=1)
    published_file = models.FileField(
        _("published target"), upload_to=generated_path, max_length=300
    )
    # Secret: 1-based row numbers in the reference table of each published row.
    truth_file = models.FileField(_("truth (secret)"), upload_to=generated_path, max_length=300)
    # Per-team mode only: the candidate table (sample + decoys, shuffled).
    candidate_file = models.FileField(
        _("candidate table"), upload_to=generated_path, max_length=300, blank=True
    )
    rows = models.PositiveIntegerField(_("published rows"))
    reference_rows = models.PositiveIntegerField(_("rows of the reference table"))
    published_at = models.DateTimeField(_("published at"), default=timezone.now)

    class Meta:
        unique_together = [("round", "team")]
        ordering = ["round", "team__name"]
        verbose_name = _("attack target")
        verbose_name_plural = _("attack targets")

    def __str__(self) -> str:
        return gettext("%(team)s target v%(version)s") % {
            "team": self.team,
            "version": self.version,
        }


class BuiltinAttack(JobState):
    """The platform's built-in attacks on one target: a job of its own, one row per target
    (its primary key is the target's), created with the target and reset at each of its
    versions. ``rates`` holds each attack's re-identification rate, ``scorer_version`` the
    scorer that computed them."""

    target = models.OneToOneField(
        Target,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="builtin",
        verbose_name=_("attack target"),
    )
    rates = models.JSONField(_("built-in attack rates"), default=dict, blank=True)
    scorer_version = models.CharField(_("scorer version"), max_length=32, blank=True)

    class Meta:
        verbose_name = _("built-in attacks")
        verbose_name_plural = _("built-in attacks")

    def __str__(self) -> str:
        return gettext("built-in attacks on %(target)s") % {"target": self.target}


class AttackSubmission(ScoredUpload):
    PHASE_KIND = Phase.Kind.ATTACK

    target = models.ForeignKey(
        Target, on_delete=models.CASCADE, related_name="attacks", verbose_name=_("attack target")
    )
    target_version = models.PositiveIntegerField(_("target version"))
    rate = models.FloatField(_("re-identification rate"), null=True, blank=True)
    correct = models.PositiveIntegerField(_("rows re-identified"), null=True, blank=True)
    rows = models.PositiveIntegerField(_("rows attacked"), null=True, blank=True)

    class Meta(ScoredUpload.Meta):
        verbose_name = _("attack submission")
        verbose_name_plural = _("attack submissions")
        constraints = [
            models.UniqueConstraint(
                fields=["phase", "team", "number"], name="attack_number_per_team"
            )
        ]

    def __str__(self) -> str:
        return f"{self.label} {self.team} → {self.target.team} ({self.status})"


class RoundOperation(JobState):
    """An organizer's round-wide operation (freeze, rescore, publish) run as a background job.

    One row per request; its job state uses the same fields and transitions as an
    upload's scoring (``services/jobs.py``). While one is queued or running, asking again
    returns it (one active operation per round and kind).
    """

    class Kind(models.TextChoices):
        FREEZE = "freeze", _("Freeze")
        RESCORE = "rescore", _("Rescore everything")
        PUBLISH = "publish", _("Publish the results")

    round = round_reference(related_name="operations")
    kind = models.CharField(_("operation"), max_length=16, choices=Kind.choices)
    requested_by = account_reference(blank=True, verbose_name=_("requested by"))
    progress_done = models.PositiveIntegerField(_("progress: done"), default=0)
    progress_total = models.PositiveIntegerField(_("progress: total"), default=0)
    # What the operation did, e.g. {"published": 3, "unchanged": 97} for a freeze.
    result = models.JSONField(_("result"), default=dict, blank=True)
    created_at = models.DateTimeField(_("requested at"), default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("round operation")
        verbose_name_plural = _("round operations")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "kind"],
                condition=models.Q(status__in=["queued", "running"]),
                name="one_active_operation_per_round_and_kind",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.round} ({self.status})"
