"""What the API's own endpoints answer (who I am, the competitions, my team). Each round
kind's serializers live with its endpoints (``pwscup/<kind>/api``)."""

from rest_framework import serializers

from pwscup.core.rest import TeamRefSerializer


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
    url = serializers.CharField(help_text="This round in the API.")


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
