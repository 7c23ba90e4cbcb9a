"""The competition's standings (``pwscup.competitions.standings``): the same table as the
standings page and its CSV, for anyone who sees the competition. ``…/standings/`` answers
the first division (the shape it had before divisions) with the list of every division;
``…/standings/<key>/`` answers one."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.accounts.selectors import competitions_for_user
from pwscup.competitions.standings import standings_divisions, standings_table
from pwscup.core.rest import TeamRefSerializer, errors


class StandingsColumnSerializer(serializers.Serializer):
    round = serializers.CharField(help_text=gettext_lazy("The round's address (slug)."))
    round_name = serializers.CharField()
    ranking = serializers.CharField(help_text=gettext_lazy("The key of the round's ranking."))
    label = serializers.CharField()
    weight = serializers.FloatField(help_text=gettext_lazy("The round's weight."))
    higher_is_better = serializers.BooleanField(
        help_text=gettext_lazy("The direction of the score.")
    )
    pending = serializers.BooleanField(
        help_text=gettext_lazy("The round's results are not published yet.")
    )


class CountedDivisionColumnSerializer(serializers.Serializer):
    division = serializers.CharField(help_text=gettext_lazy("The counted division's key."))
    division_name = serializers.CharField(
        help_text=gettext_lazy("Its name in the answer's language.")
    )
    weight = serializers.FloatField(
        help_text=gettext_lazy("The weight of the division's rank here.")
    )
    pending = serializers.BooleanField(
        help_text=gettext_lazy("A round the division counts is not published yet.")
    )


class CountedDivisionCellSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("The team's rank in that division; null: none.")
    )
    combined = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("The team's combined value in that division.")
    )
    pending = serializers.BooleanField()


class StandingsCellSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("null: no rank there."))
    score = serializers.FloatField(allow_null=True)
    pending = serializers.BooleanField()


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("null: pending, or no rank in a counted ranking.")
    )
    team = TeamRefSerializer()
    combined = serializers.FloatField(allow_null=True)
    cells = StandingsCellSerializer(
        many=True, help_text=gettext_lazy("One per column, in their order.")
    )
    division_cells = CountedDivisionCellSerializer(
        many=True, help_text=gettext_lazy("One per counted division, in their order.")
    )


class DivisionRefSerializer(serializers.Serializer):
    key = serializers.CharField(help_text=gettext_lazy("The division's address (slug)."))
    name = serializers.CharField(help_text=gettext_lazy("Its name in the answer's language."))
    url = serializers.CharField(help_text=gettext_lazy("Its standings in this API."))


class CompetitionStandingsSerializer(serializers.Serializer):
    key = serializers.CharField(help_text=gettext_lazy("The division's address (slug)."))
    name = serializers.CharField(help_text=gettext_lazy("Its name in the answer's language."))
    divisions = DivisionRefSerializer(
        many=True, help_text=gettext_lazy("Every division of the competition, in order.")
    )
    rule = serializers.ChoiceField(choices=["weighted_rank", "inverse_rank_sum", "weighted_score"])
    rule_label = serializers.CharField()
    higher_is_better = serializers.BooleanField(
        help_text=gettext_lazy("The direction of `combined`.")
    )
    pending = serializers.BooleanField(
        help_text=gettext_lazy(
            "Some counted round is not published: no combined value nor rank yet."
        )
    )
    columns = StandingsColumnSerializer(many=True)
    counted_divisions = CountedDivisionColumnSerializer(
        many=True,
        help_text=gettext_lazy(
            "The other divisions whose ranks count here (empty: it counts rounds only)."
        ),
    )
    rows = StandingsRowSerializer(many=True)


def _data(table, division, divisions) -> dict:
    return {
        "key": division.key,
        "name": division.name,
        "divisions": divisions,
        "rule": table.rule,
        "rule_label": table.rule_label,
        "higher_is_better": table.higher_is_better,
        "pending": table.pending,
        "columns": [
            {
                "round": column.round.slug,
                "round_name": column.round.name,
                "ranking": column.declared.key,
                "label": str(column.declared.label),
                "weight": float(column.weight),
                "higher_is_better": column.declared.higher_is_better,
                "pending": column.pending,
            }
            for column in table.columns
        ],
        "counted_divisions": [
            {
                "division": column.key,
                "division_name": column.division.name,
                "weight": float(column.weight),
                "pending": column.pending,
            }
            for column in table.divisions
        ],
        "rows": [
            {
                "rank": row.rank,
                "team": row.team,
                "combined": row.value,
                "cells": [
                    {
                        "rank": None if cell is None else cell.rank,
                        "score": None if cell is None else cell.score,
                        "pending": column.pending,
                    }
                    for column, cell in zip(table.columns, row.cells, strict=True)
                ],
                "division_cells": [
                    {
                        "rank": None if cell is None else cell.rank,
                        "combined": None if cell is None else cell.score,
                        "pending": column.pending,
                    }
                    for column, cell in zip(table.divisions, row.division_cells, strict=True)
                ],
            }
            for row in table.rows
        ],
    }


def _answer(request, competition_slug, key):
    competition = get_object_or_404(competitions_for_user(user=request.user), slug=competition_slug)
    divisions = standings_divisions(competition=competition)
    division = next((d for d in divisions if key is None or d.key == key), None)
    if division is None:
        raise NotFound(_("This competition has no standings."))
    listed = [
        {
            "key": each.key,
            "name": each.name,
            "url": reverse("api:competition-standings-division", args=[competition.slug, each.key]),
        }
        for each in divisions
    ]
    data = _data(standings_table(division), division, listed)
    return Response(CompetitionStandingsSerializer(data).data)


class CompetitionStandingsView(APIView):
    @extend_schema(
        responses={200: CompetitionStandingsSerializer, **errors(404)},
        summary=gettext_lazy(
            "The competition's standings (its first division): its rounds' rankings combined"
        ),
    )
    def get(self, request, competition_slug):
        return _answer(request, competition_slug, None)


class CompetitionStandingsDivisionView(APIView):
    # Its own operation id: drf-spectacular would derive the first division's from the
    # path (``competitions_standings_retrieve``) and warn at ``check --deploy``.
    @extend_schema(
        operation_id="competitions_standings_division_retrieve",
        responses={200: CompetitionStandingsSerializer, **errors(404)},
        summary=gettext_lazy("One division of the competition's standings"),
    )
    def get(self, request, competition_slug, division_key):
        return _answer(request, competition_slug, division_key)
