"""competitions' 0025 gives the ranking program's runs, logged before as "Asked for the
scores again" with their run's number, their own action; other such lines (a DP round's
scores asked for again) stay; going back restores them. The migration's functions run on
the current models, whose audit fields they share."""

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import competition_create

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("pwscup.competitions.migrations.0025_audit_ranking_run")
EDITOR = SimpleNamespace(connection=connection)  # what the functions read of a schema editor


def test_old_ranking_runs_take_their_action_and_give_it_back():
    competition = competition_create(name="Audit", slug="audit25", organizers=[])
    lines = AuditEntry.objects

    def line(action, detail):
        return lines.create(competition=competition, action=action, detail=detail).pk

    run = line("round_scored", {"ranking_run": 7})
    dp = line("round_scored", {})
    MIGRATION.ranking_runs_named(apps, EDITOR)
    assert lines.get(pk=run).get_action_display() == "Ran the ranking program"
    assert lines.get(pk=dp).action == "round_scored"
    MIGRATION.ranking_runs_unnamed(apps, EDITOR)
    assert {lines.get(pk=pk).action for pk in (run, dp)} == {"round_scored"}
