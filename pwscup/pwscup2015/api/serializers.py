"""What the 2015 game's API endpoints read and write. Output serializers take the objects the
selectors return; nothing here decides who may see what (``pwscup/pwscup2015/access.py``,
``leaderboards/access.py`` and the selectors do)."""

from django.urls import reverse
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers
from rest_framework.fields import get_attribute

from pwscup.core.rest import RoundRefSerializer, TeamRefSerializer, UploadField
from pwscup.submissions.messages import job_message_text
from pwscup.submissions.models import NOTE_MAX_LENGTH, Status
from scoring.display import UNDEFINED, format_metric, format_number
from scoring.linkage import REFERENCE_ATTACK
from scoring.metrics_info import METRIC_KINDS


def scores_text(scores: dict | None) -> dict[str, str] | None:
    """Each metric of ``scores`` as the pages show it (scoring.display's one rule), and the
    reference attack's rate (``REF``, a rate like E1–EUC2) beside them."""
    if scores is None:
        return None
    texts = {m: format_metric(m, value) for m, value in scores.items() if m in METRIC_KINDS}
    if scores.get(REFERENCE_ATTACK) is not None:
        texts[REFERENCE_ATTACK] = format_number(scores[REFERENCE_ATTACK])
    return texts


@extend_schema_serializer(
    description=gettext_lazy(
        "``scores_text`` beside ``scores``: the text a client prints (``20`` for a "
        "count, ``0.000044`` for a small rate, ``∞`` for an infinite L3), so that it "
        "needs no rule."
    )
)
class ScoresTextMixin(serializers.Serializer):
    scores_text = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "Each metric as text, e.g. U6: 20, E3: 0.000044, L3: ∞ (null is ∞ or –)."
        )
    )

    def get_scores_text(self, obj) -> dict[str, str] | None:
        return scores_text(get_attribute(obj, ["scores"]))


class QuotaSerializer(serializers.Serializer):
    used_today = serializers.IntegerField()
    used_total = serializers.IntegerField()
    resets_at = serializers.DateTimeField()


class PhaseSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["anonymization", "attack"])
    state = serializers.CharField(help_text=gettext_lazy("upcoming, open or closed"))
    opens_at = serializers.DateTimeField()
    closes_at = serializers.DateTimeField()
    daily_limit = serializers.IntegerField(allow_null=True)
    total_limit = serializers.IntegerField(allow_null=True)
    target_limit = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy("At most this many uploads per target (attack phase)."),
    )
    leaderboard_public = serializers.BooleanField()
    quota = QuotaSerializer(
        allow_null=True, help_text=gettext_lazy("Your team's uploads in the phase.")
    )


class RoundSerializer(RoundRefSerializer):
    data_mode = serializers.CharField()
    timezone = serializers.CharField()
    frozen_at = serializers.DateTimeField(allow_null=True)
    results_published = serializers.BooleanField()
    selection_rule = serializers.CharField()
    ranking_rule = serializers.CharField()
    rule_text = serializers.CharField(allow_null=True)
    metrics = serializers.ListField(child=serializers.CharField())
    metric_names = serializers.DictField(
        child=serializers.CharField(),
        help_text=gettext_lazy("The 2015 name of each metric, e.g. U1: meanMAE."),
    )
    metric_notes = serializers.DictField(
        child=serializers.CharField(),
        help_text=gettext_lazy(
            "What each metric's no-value sign means (L3: ∞ …), in the request's language."
        ),
    )
    phases = PhaseSerializer(many=True)
    config = serializers.DictField(
        allow_null=True,
        help_text=gettext_lazy("The scoring configuration (teams and organizers only)."),
    )
    team = TeamRefSerializer(allow_null=True)
    is_organizer = serializers.BooleanField()
    leaderboard_visible = serializers.BooleanField()
    results_visible = serializers.BooleanField()


def _file_url(name: str, upload) -> str:
    """The upload's file under its round (``api/submissions.py``'s declared types)."""
    round_ = upload.phase.round
    return reverse(name, args=[round_.competition.slug, round_.slug, upload.pk])


@extend_schema_serializer(description=gettext_lazy("Common to anonymization and attack uploads."))
class UploadSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    number = serializers.IntegerField(
        help_text=gettext_lazy("The team's own number of the upload (#1, #2…).")
    )
    status = serializers.ChoiceField(choices=Status.choices)
    message = serializers.SerializerMethodField(
        help_text=gettext_lazy("Why it failed (translated).")
    )
    note = serializers.CharField()
    original_filename = serializers.CharField()
    sha256 = serializers.CharField()
    size = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    competition = serializers.CharField(source="phase.round.competition.slug")
    round = serializers.CharField(source="phase.round.slug")
    team = TeamRefSerializer()

    def get_message(self, upload) -> str:
        return job_message_text(upload)


class SubmissionSerializer(UploadSerializer, ScoresTextMixin):
    scores = serializers.SerializerMethodField()
    is_selected = serializers.BooleanField(help_text=gettext_lazy("Chosen as final by the team."))
    file_url = serializers.SerializerMethodField()

    def get_scores(self, submission) -> dict[str, float | None] | None:
        return submission.scores if submission.status == Status.FINISHED else None

    def get_scores_text(self, submission) -> dict[str, str] | None:
        return scores_text(self.get_scores(submission))

    def get_file_url(self, submission) -> str:
        return _file_url("api:submission-file", submission)


class AttackSerializer(UploadSerializer):
    target = TeamRefSerializer(source="target.team")
    rate = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "Re-identification rate, once scored and visible to your team (round rule)."
        )
    )
    rate_text = serializers.SerializerMethodField(
        help_text=gettext_lazy("The rate as text (0.000044).")
    )
    correct = serializers.SerializerMethodField()
    rows = serializers.SerializerMethodField()
    file_url = serializers.SerializerMethodField()

    def _shown(self, attack) -> bool:
        return attack.status == Status.FINISHED and self.context.get("show_rates", False)

    def get_rate(self, attack) -> float | None:
        return attack.rate if self._shown(attack) else None

    def get_rate_text(self, attack) -> str | None:
        return format_number(attack.rate) if self._shown(attack) else None

    def get_correct(self, attack) -> int | None:
        return attack.correct if self._shown(attack) else None

    def get_rows(self, attack) -> int | None:
        return attack.rows if self._shown(attack) else None

    def get_file_url(self, attack) -> str:
        return _file_url("api:attack-file", attack)


class SubmissionUploadSerializer(serializers.Serializer):
    file = UploadField(help_text=gettext_lazy("The anonymized CSV."))
    note = serializers.CharField(required=False, allow_blank=True, max_length=NOTE_MAX_LENGTH)


class AttackUploadSerializer(SubmissionUploadSerializer):
    file = UploadField(help_text=gettext_lazy("The correspondence table (CSV)."))
    target = serializers.CharField(
        help_text=gettext_lazy("The target team's slug (its file-name prefix).")
    )


class UploadAcceptedSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text=gettext_lazy("The upload's id in the URLs."))
    number = serializers.IntegerField(
        help_text=gettext_lazy("The team's own number of the upload (#1, #2…).")
    )
    status = serializers.CharField()
    message = serializers.CharField()
    url = serializers.CharField(help_text=gettext_lazy("Poll this for the status and the scores."))


class TargetSerializer(serializers.Serializer):
    team = TeamRefSerializer()
    version = serializers.IntegerField()
    rows = serializers.IntegerField()
    published_at = serializers.DateTimeField()
    anonymized_url = serializers.CharField()
    candidate_url = serializers.CharField(allow_null=True)


class SafetyTextMixin(serializers.Serializer):
    safety_text = serializers.SerializerMethodField(help_text=gettext_lazy("The safety as text."))

    def get_safety_text(self, row) -> str:
        safety = get_attribute(row, ["safety"])
        return UNDEFINED if safety is None else format_number(safety)


class LeaderboardRowSerializer(ScoresTextMixin, SafetyTextMixin):
    rank = serializers.IntegerField(allow_null=True)
    team = TeamRefSerializer()
    submission = serializers.IntegerField(source="submission.pk")
    passes_gates = serializers.BooleanField()
    safety = serializers.FloatField(allow_null=True)
    scores = serializers.DictField(child=serializers.FloatField(allow_null=True))


class LeaderboardSerializer(serializers.Serializer):
    rule = serializers.CharField()
    safety_measure = serializers.CharField()
    safety_label = serializers.CharField(
        help_text=gettext_lazy(
            "The ranking number's name, as the leaderboard page heads its column."
        )
    )
    metrics = serializers.ListField(child=serializers.CharField())
    rows = LeaderboardRowSerializer(many=True)


class MatrixRowSerializer(serializers.Serializer):
    attacker = serializers.CharField()
    rates = serializers.ListField(child=serializers.FloatField(allow_null=True))


class MatrixSerializer(serializers.Serializer):
    targets = TeamRefSerializer(many=True)
    rows = MatrixRowSerializer(many=True)
    worst = serializers.ListField(child=serializers.FloatField(allow_null=True))
    reference = serializers.ListField(
        child=serializers.FloatField(allow_null=True),
        help_text=gettext_lazy(
            "The reference linkage attack's rate on each target (scoring.linkage): "
            "shown beside the matrix, never part of the worst case; null where not computed."
        ),
    )


class FinalAnonymizationRowSerializer(ScoresTextMixin, SafetyTextMixin):
    rank = serializers.IntegerField(allow_null=True)
    team = TeamRefSerializer()
    passes_gates = serializers.BooleanField()
    safety = serializers.FloatField(allow_null=True)
    attacked = serializers.BooleanField(
        help_text=gettext_lazy(
            "Some team attacked this release; if not, its safety is never below the "
            "reference attack's rate."
        )
    )
    scores = serializers.DictField(child=serializers.FloatField(allow_null=True))


class FinalAttackRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True)
    team = TeamRefSerializer()
    mean_rate = serializers.FloatField()
    targets_attacked = serializers.IntegerField()


class FinalRankingSerializer(serializers.Serializer):
    rule = serializers.CharField()
    anonymization = FinalAnonymizationRowSerializer(many=True)
    attack = FinalAttackRowSerializer(many=True)
