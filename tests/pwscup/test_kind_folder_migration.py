"""The 2015 game's models moved to its own app (``pwscup2015``), and the audit log and the
disqualifications from the console to the core (``competitions``, ``accounts``): a database
made before the move (rounds, uploads, scores, selections, targets, attacks, samples,
operations, audit entries, disqualifications) keeps every row and value after it.

Slow (over 20 s on its own, so its module is scheduled first): it migrates the test database
back before the move (most of the project's migrations) and forward again.
"""

import pytest
from django.db import connection
from django.utils import timezone

from pwscup.accounts.models import TeamDisqualification
from pwscup.competitions.models import AuditEntry
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    RoundOperation,
    Target,
    TeamDataset,
)
from tests.support import migrate

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# The last migrations of the old shape: the models still in ``submissions`` and ``console``.
BEFORE = [
    ("submissions", "0008_upload_number_unique"),
    ("console", "0002_audit_lifecycle_actions"),
    ("competitions", "0004_round_original_source"),
    ("accounts", "0002_team_captain_invitation"),
]


def old_rows(apps, world) -> dict:
    """Rows of every moved model, made with the models as they were before the move."""
    old = {
        name: apps.get_model("submissions", name)
        for name in (
            "AnonymizationSubmission",
            "AttackSubmission",
            "Target",
            "TeamDataset",
            "RoundOperation",
        )
    }
    now = timezone.now()
    a, b = world.teams["a"], world.teams["b"]
    upload = dict(file="private/uploads/x.csv", original_filename="x.csv", sha256="a" * 64)
    chosen = old["AnonymizationSubmission"].objects.create(
        phase_id=world.anonymization.pk,
        team_id=a.pk,
        size=10,
        number=1,
        status="finished",
        scores={"U1": 1.5, "E1": 0.25},
        is_selected=True,
        note="k=5",
        created_at=now,
        **upload,
    )
    other = old["AnonymizationSubmission"].objects.create(
        phase_id=world.anonymization.pk,
        team_id=a.pk,
        size=11,
        number=2,
        status="failed",
        message="Column age, row 3: value x",
        message_code="validation",
        created_at=now,
        **upload,
    )
    target = old["Target"].objects.create(
        round_id=world.round.pk,
        team_id=a.pk,
        submission_id=chosen.pk,
        version=2,
        published_file="p.csv",
        truth_file="t.csv",
        rows=7,
        reference_rows=9,
        builtin_status="finished",
        builtin_rates={"E1": 0.5},
    )
    attack = old["AttackSubmission"].objects.create(
        phase_id=world.attack.pk,
        team_id=b.pk,
        target_id=target.pk,
        target_version=2,
        size=12,
        number=1,
        status="finished",
        rate=0.4,
        correct=3,
        rows=7,
        created_at=now,
        **upload,
    )
    sample = old["TeamDataset"].objects.create(
        round_id=world.round.pk, team_id=b.pk, sample_index=[4, 1, 2], file="s.csv", rows=3
    )
    operation = old["RoundOperation"].objects.create(
        round_id=world.round.pk,
        kind="freeze",
        status="finished",
        progress_done=2,
        progress_total=2,
        result={"published": 2},
    )
    audit = apps.get_model("console", "AuditEntry").objects.create(
        competition_id=world.competition.pk,
        round_id=world.round.pk,
        user_id=world.organizer.pk,
        action="round_frozen",
        detail={"targets": 2},
    )
    disqualified = apps.get_model("console", "TeamDisqualification").objects.create(
        team_id=b.pk, reason="shared answers", decided_by_id=world.organizer.pk
    )
    return {
        "chosen": chosen.pk,
        "other": other.pk,
        "target": target.pk,
        "attack": attack.pk,
        "sample": sample.pk,
        "operation": operation.pk,
        "audit": audit.pk,
        "disqualified": disqualified.pk,
    }


def test_moving_the_models_keeps_every_row(world):
    apps = migrate(BEFORE)
    try:
        made = old_rows(apps, world)
    finally:
        migrate()
    chosen = AnonymizationSubmission.objects.get(pk=made["chosen"])
    assert (chosen.team_id, chosen.number, chosen.status, chosen.is_selected, chosen.note) == (
        world.teams["a"].pk,
        1,
        "finished",
        True,
        "k=5",
    )
    assert chosen.scores == {"U1": 1.5, "E1": 0.25} and chosen.file.name == "private/uploads/x.csv"
    other = AnonymizationSubmission.objects.get(pk=made["other"])
    assert (other.status, other.message, other.is_selected) == (
        "failed",
        "Column age, row 3: value x",
        False,
    )
    target = Target.objects.get(pk=made["target"])
    assert (target.submission_id, target.version, target.rows, target.builtin.rates) == (
        made["chosen"],
        2,
        7,
        {"E1": 0.5},
    )
    attack = AttackSubmission.objects.get(pk=made["attack"])
    assert (attack.target_id, attack.rate, attack.correct) == (made["target"], 0.4, 3)
    assert TeamDataset.objects.get(pk=made["sample"]).sample_index == [4, 1, 2]
    assert RoundOperation.objects.get(pk=made["operation"]).result == {"published": 2}
    audit = AuditEntry.objects.get(pk=made["audit"])
    assert (audit.round_id, audit.action, audit.detail) == (
        world.round.pk,
        "round_frozen",
        {"targets": 2},
    )
    assert TeamDisqualification.objects.get(pk=made["disqualified"]).reason == "shared answers"
    # The tables carry the new apps' names now, and the old ones are gone.
    tables = connection.introspection.table_names()
    assert "pwscup2015_anonymizationsubmission" in tables
    assert "competitions_auditentry" in tables and "accounts_teamdisqualification" in tables
    # (``submissions`` keeps one table of its own now: the live-status versions.)
    left = [t for t in tables if t.startswith(("submissions_", "console_"))]
    assert left == ["submissions_liveversion"]
    # The related names still work across the move.
    assert list(world.round.targets.values_list("pk", flat=True)) == [made["target"]]
