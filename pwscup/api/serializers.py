"""What the API's own endpoints answer (who I am, the competitions, my team). Each round
kind's serializers live with its endpoints (``pwscup/<kind>/api``)."""

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from pwscup.core.rest import RoundRefSerializer, TeamRefSerializer
from scoring.display import format_cell


class MembershipSerializer(serializers.Serializer):
    competition = serializers.CharField(source="team.competition.slug")
    team = TeamRefSerializer()


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    teams = MembershipSerializer(many=True)
    organizes = serializers.ListField(child=serializers.CharField())


class CompetitionSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    registration_locked = serializers.BooleanField()
    max_team_size = serializers.IntegerField()
    team = TeamRefSerializer(allow_null=True)
    is_organizer = serializers.BooleanField()


class RoundSummarySerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField()
    kind_label = serializers.CharField()
    url = serializers.CharField(
        help_text=gettext_lazy(
            "This round's status in the API, the same shape for every kind (…/status/)."
        )
    )


class CompetitionDetailSerializer(CompetitionSerializer):
    rounds = RoundSummarySerializer(many=True)


class MemberSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    joined_at = serializers.DateTimeField()
    is_captain = serializers.BooleanField()


class TeamSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    competition = serializers.CharField(source="competition.slug")
    captain = serializers.CharField(source="captain.username", allow_null=True, default=None)
    members = MemberSerializer(source="members_list", many=True)


class ScheduleLineSerializer(serializers.Serializer):
    label = serializers.CharField()
    opens_at = serializers.DateTimeField(allow_null=True)
    closes_at = serializers.DateTimeField(
        allow_null=True,
        help_text=gettext_lazy(
            "When the window closes, or closed: earlier than planned when ended early."
        ),
    )
    planned_closes_at = serializers.DateTimeField(
        allow_null=True,
        default=None,
        help_text=gettext_lazy(
            "When the window was planned to close, if it closed earlier (a freeze, Close now, "
            "a publication); else null."
        ),
    )
    state = serializers.CharField(
        help_text=gettext_lazy(
            "upcoming, open, held (open by its dates, but the round takes no upload yet: see "
            "held), closed or frozen."
        )
    )
    held = serializers.CharField(
        default="",
        help_text=gettext_lazy(
            "Why a held window takes no upload (the round waits for its organizers, such as "
            "for hidden data); empty otherwise."
        ),
    )


class FieldSerializer(serializers.Serializer):
    name = serializers.CharField()
    label = serializers.CharField()
    required = serializers.BooleanField()
    choices = serializers.ListField(child=serializers.CharField(), allow_null=True)


class UploadFilesSerializer(serializers.Serializer):
    required = serializers.ListField(
        child=serializers.CharField(),
        help_text=gettext_lazy(
            "The file names or patterns (* and ?) an upload must hold; empty: one file, of "
            "any name."
        ),
    )
    only_required = serializers.BooleanField(
        help_text=gettext_lazy("Whether every file must match one of them (no other file).")
    )
    zip = serializers.BooleanField(
        help_text=gettext_lazy("Whether they go together in one ZIP file.")
    )


class SubmissionTypeSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    url = serializers.CharField(help_text=gettext_lazy("POST multipart: file and the fields; 202."))
    open = serializers.BooleanField(help_text=gettext_lazy("Whether the team may upload it now."))
    fields = FieldSerializer(many=True)
    files = UploadFilesSerializer(
        help_text=gettext_lazy("The files an upload must hold (the Submit tab shows them).")
    )
    selectable = serializers.BooleanField(
        help_text=gettext_lazy(
            "Whether the team chooses its final upload of this type (an upload's select_url)."
        )
    )
    counts = serializers.CharField(
        allow_blank=True,
        help_text=gettext_lazy(
            "Which of the team's uploads of this type counts, in a sentence (empty: the round "
            "says nothing); an upload's final marks one that counts."
        ),
    )


class DownloadSerializer(serializers.Serializer):
    name = serializers.CharField(help_text=gettext_lazy("The file's name."))
    label = serializers.CharField()
    url = serializers.CharField()
    target = serializers.CharField(
        allow_null=True,
        default=None,
        help_text=gettext_lazy(
            "The slug of the team whose target (frozen release) the file is of; null: none."
        ),
    )


class RoundUploadSerializer(serializers.Serializer):
    type = serializers.CharField(help_text=gettext_lazy("The key of its submission type."))
    id = serializers.IntegerField()
    number = serializers.IntegerField(
        help_text=gettext_lazy("The team's number of the upload (#n).")
    )
    status = serializers.CharField(help_text=gettext_lazy("queued, running, finished or failed."))
    created_at = serializers.DateTimeField()
    about = serializers.CharField(
        allow_blank=True,
        help_text=gettext_lazy("What it is for (a release, a level, a target team)."),
    )
    message = serializers.CharField(allow_blank=True)
    note = serializers.CharField(
        allow_blank=True,
        help_text=gettext_lazy("The team's own note on it (empty: none, or a type taking none)."),
    )
    remark = serializers.CharField(
        allow_blank=True,
        help_text=gettext_lazy(
            "What the platform says of it (a release passing the gates, the half of the "
            "challenge set an attack's scores are on); empty: nothing."
        ),
    )
    scores = serializers.DictField(child=serializers.FloatField(allow_null=True))
    scores_text = serializers.DictField(child=serializers.CharField())
    final = serializers.BooleanField(
        help_text=gettext_lazy("The one that counts (chosen, or the latest).")
    )
    url = serializers.CharField(help_text=gettext_lazy("This upload in the API."))
    voided = serializers.DictField(
        required=False,
        allow_null=True,
        help_text=gettext_lazy(
            "For a type whose uploads may be voided: null while it counts, else when, whether "
            "the organizers voided it (else its team withdrew it) and why."
        ),
    )


class MetricSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    note = serializers.CharField(allow_blank=True)
    headline = serializers.BooleanField(
        help_text=gettext_lazy("Shown in a one-line summary of an upload.")
    )


class RoundNoteSerializer(serializers.Serializer):
    key = serializers.CharField(
        help_text=gettext_lazy(
            "What the note is about, e.g. older_scores: uploads whose scores an older version "
            "of the organizers' scoring program computed."
        )
    )
    text = serializers.CharField(help_text=gettext_lazy("The note, as the round's pages say it."))


class DataChoiceOptionSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    label_ja = serializers.CharField(allow_blank=True)


@extend_schema_serializer(
    description=gettext_lazy(
        "The round's data packs and the caller's team's pick (``choice``: the pack its "
        "downloads and uploads use, the round's first while it has not picked)."
    )
)
class DataChoiceSerializer(serializers.Serializer):
    choices = DataChoiceOptionSerializer(many=True)
    choice = serializers.CharField(allow_null=True)
    picked = serializers.BooleanField()
    locked = serializers.BooleanField(
        help_text=gettext_lazy("Locked since the team's first upload.")
    )
    kept = serializers.CharField(
        allow_null=True,
        help_text=gettext_lazy(
            "When the team's data does not follow its pick (then choice is null and locked "
            "true): what it is instead, e.g. rows drawn before the packs were offered."
        ),
    )
    url = serializers.CharField(help_text=gettext_lazy('POST {"choice": key} here to pick.'))


class DataChoicePickSerializer(serializers.Serializer):
    choice = serializers.CharField(max_length=64)


@extend_schema_serializer(
    description=gettext_lazy("A round of any kind, as the caller sees it now.")
)
class RoundStatusSerializer(RoundRefSerializer):
    kind_label = serializers.CharField()
    team = TeamRefSerializer(allow_null=True)
    is_organizer = serializers.BooleanField()
    schedule = ScheduleLineSerializer(many=True)
    timezone = serializers.CharField(
        help_text=gettext_lazy("The round's time zone (an IANA name).")
    )
    quota_reset_time = serializers.CharField(
        help_text=gettext_lazy(
            "When every daily limit of the round resets, local time of its time zone "
            "(HH:MM, e.g. 09:00)."
        )
    )
    quota_resets_at = serializers.DateTimeField(
        help_text=gettext_lazy(
            "The next reset of the round's daily limits (the end of today's quota day)."
        )
    )
    submission_types = SubmissionTypeSerializer(many=True)
    downloads = DownloadSerializer(many=True)
    uploads = RoundUploadSerializer(many=True)
    metrics = MetricSerializer(many=True)
    notes = RoundNoteSerializer(
        many=True,
        help_text=gettext_lazy("What the round's pages tell my team now (empty: nothing)."),
    )
    standings_url = serializers.CharField()
    data_choice = DataChoiceSerializer(
        allow_null=True,
        help_text=gettext_lazy("The round's data packs; null when it offers no choice."),
    )


class StandingsTableSerializer(serializers.Serializer):
    title = serializers.CharField()
    columns = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.ListField(child=serializers.JSONField()))
    # The figures as every page writes them, sent by the server because the ``pwscup``
    # client is standard library only (import-linter's client-standalone) and cannot import
    # ``scoring.display``: the rule stays in one place, and ``rows`` keeps the exact values.
    rows_text = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "The rows as a client prints them (scoring.display: 4 decimals for a score, a "
            "rate or a total, a count as an integer, – for none); rows keeps the exact values."
        )
    )

    def get_rows_text(self, table) -> list[list[str]]:
        return [[format_cell(cell) for cell in row] for row in table["rows"]]


@extend_schema_serializer(
    description=gettext_lazy("A round's leaderboard of any kind, as plain tables.")
)
class StandingsSerializer(serializers.Serializer):
    note = serializers.CharField(allow_blank=True)
    tables = StandingsTableSerializer(many=True)
