"""The 2015 game's models moved to its own app (``pwscup2015``), and the audit log and the
disqualifications from the console to the core (``competitions``, ``accounts``): a database
made before the move (rounds, uploads, scores, selections, targets, attacks, samples,
operations, audit entries, disqualifications) keeps every row and value after it. On a
database of its own migrated forward from nothing (``tests.history``).
"""

import pytest
from django.utils import timezone

from tests.history import history_database, old_world

pytestmark = pytest.mark.django_db

# The last migrations of the old shape: the models still in ``submissions`` and ``console``.
BEFORE = [
    ("submissions", "0008_upload_number_unique"),
    ("console", "0002_audit_lifecycle_actions"),
    ("competitions", "0004_round_original_source"),
    ("accounts", "0002_team_captain_invitation"),
]
# The move: the models in their new apps, the old tables renamed.
AFTER = [
    ("submissions", "0009_models_moved_to_pwscup2015"),
    ("pwscup2015", "0002_tables_renamed"),
    ("console", "0003_models_moved_to_core"),
    ("competitions", "0006_audit_entry_table_renamed"),
    ("accounts", "0004_team_disqualification_table_renamed"),
]


def old_rows(history, apps, world) -> dict:
    """Rows of every moved model, made with the models as they were before the move."""
    old = {
        name: history.objects(apps, "submissions", name)
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
    chosen = old["AnonymizationSubmission"].create(
        phase_id=world.anonymization,
        team_id=a,
        size=10,
        number=1,
        status="finished",
        scores={"U1": 1.5, "E1": 0.25},
        is_selected=True,
        note="k=5",
        created_at=now,
        **upload,
    )
    other = old["AnonymizationSubmission"].create(
        phase_id=world.anonymization,
        team_id=a,
        size=11,
        number=2,
        status="failed",
        message="Column age, row 3: value x",
        message_code="validation",
        created_at=now,
        **upload,
    )
    target = old["Target"].create(
        round_id=world.round,
        team_id=a,
        submission_id=chosen.pk,
        version=2,
        published_file="p.csv",
        truth_file="t.csv",
        rows=7,
        reference_rows=9,
        builtin_status="finished",
        builtin_rates={"E1": 0.5},
    )
    attack = old["AttackSubmission"].create(
        phase_id=world.attack,
        team_id=b,
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
    sample = old["TeamDataset"].create(
        round_id=world.round, team_id=b, sample_index=[4, 1, 2], file="s.csv", rows=3
    )
    operation = old["RoundOperation"].create(
        round_id=world.round,
        kind="freeze",
        status="finished",
        progress_done=2,
        progress_total=2,
        result={"published": 2},
    )
    audit = history.objects(apps, "console", "AuditEntry").create(
        competition_id=world.competition,
        round_id=world.round,
        user_id=world.organizer,
        action="round_frozen",
        detail={"targets": 2},
    )
    disqualified = history.objects(apps, "console", "TeamDisqualification").create(
        team_id=b, reason="shared answers", decided_by_id=world.organizer
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


def test_moving_the_models_keeps_every_row():
    with history_database() as history:
        apps = history.migrate(BEFORE)
        world = old_world(history, apps)
        made = old_rows(history, apps, world)
        apps = history.migrate(AFTER)

        def moved(app_label, model):
            return history.objects(apps, app_label, model)

        chosen = moved("pwscup2015", "AnonymizationSubmission").get(pk=made["chosen"])
        other = moved("pwscup2015", "AnonymizationSubmission").get(pk=made["other"])
        target = moved("pwscup2015", "Target").get(pk=made["target"])
        attack = moved("pwscup2015", "AttackSubmission").get(pk=made["attack"])
        sample = moved("pwscup2015", "TeamDataset").get(pk=made["sample"])
        operation = moved("pwscup2015", "RoundOperation").get(pk=made["operation"])
        audit = moved("competitions", "AuditEntry").get(pk=made["audit"])
        disqualified = moved("accounts", "TeamDisqualification").get(pk=made["disqualified"])
        tables = history.table_names()
        # The related names still work across the move.
        round_targets = list(
            moved("competitions", "Round").get(pk=world.round).targets.values_list("pk", flat=True)
        )
    assert (chosen.team_id, chosen.number, chosen.status, chosen.is_selected, chosen.note) == (
        world.teams["a"],
        1,
        "finished",
        True,
        "k=5",
    )
    assert chosen.scores == {"U1": 1.5, "E1": 0.25} and chosen.file.name == "private/uploads/x.csv"
    assert (other.status, other.message, other.is_selected) == (
        "failed",
        "Column age, row 3: value x",
        False,
    )
    assert (target.submission_id, target.version, target.rows, target.builtin_rates) == (
        made["chosen"],
        2,
        7,
        {"E1": 0.5},
    )
    assert (attack.target_id, attack.rate, attack.correct) == (made["target"], 0.4, 3)
    assert sample.sample_index == [4, 1, 2]
    assert operation.result == {"published": 2}
    assert (audit.round_id, audit.action, audit.detail) == (
        world.round,
        "round_frozen",
        {"targets": 2},
    )
    assert disqualified.reason == "shared answers"
    # The tables carry the new apps' names now, and the old ones are gone.
    assert "pwscup2015_anonymizationsubmission" in tables
    assert "competitions_auditentry" in tables and "accounts_teamdisqualification" in tables
    assert [t for t in tables if t.startswith(("submissions_", "console_"))] == []
    assert round_targets == [made["target"]]
