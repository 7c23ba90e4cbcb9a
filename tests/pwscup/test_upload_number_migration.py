"""Migration 0007 numbers the uploads that existed before per-team numbers did: per team
and phase, in the order they were made (created_at, then id); 0008 then makes the
numbers unique per team and phase.

On a database of its own migrated forward from nothing (``tests.history``): the uploads are
made with the models as they were before 0007 and read with the models after 0008.
"""

import datetime as dt

import pytest
from django.utils import timezone

from tests.history import history_database, old_world

pytestmark = pytest.mark.django_db

BEFORE = [("submissions", "0006_round_operation")]
AFTER = [("submissions", "0008_upload_number_unique")]


def test_existing_uploads_are_numbered_per_team_and_phase_in_upload_order():
    with history_database() as history:
        apps = history.migrate(BEFORE)
        world = old_world(history, apps)
        Target = history.objects(apps, "submissions", "Target")
        now = timezone.now()
        a, b = world.teams["a"], world.teams["b"]

        def made(model, team, minutes, **fields):
            return (
                history.objects(apps, "submissions", model)
                .create(
                    phase_id=fields.pop("phase", world.anonymization),
                    team_id=team,
                    file="private/uploads/x.csv",
                    original_filename="x.csv",
                    sha256="0" * 64,
                    size=1,
                    created_at=now - dt.timedelta(minutes=minutes),
                    **fields,
                )
                .pk
            )

        # Made out of order: the ids do not follow the upload times.
        a_late = made("AnonymizationSubmission", a, 1)
        a_first = made("AnonymizationSubmission", a, 30)
        b_only = made("AnonymizationSubmission", b, 20)
        a_second = made("AnonymizationSubmission", a, 10, status="failed")
        a_tied = made("AnonymizationSubmission", a, 10)  # same time as a_second: the id decides
        target = Target.create(
            round_id=world.round,
            team_id=a,
            submission_id=a_first,
            published_file="p.csv",
            truth_file="t.csv",
            rows=1,
            reference_rows=1,
        )
        attack_fields = {"phase": world.attack, "target_id": target.pk, "target_version": 1}
        b_attack_2 = made("AttackSubmission", b, 2, **attack_fields)
        b_attack_1 = made("AttackSubmission", b, 5, **attack_fields)

        apps = history.migrate(AFTER)
        anonymization = history.objects(apps, "submissions", "AnonymizationSubmission")
        attack = history.objects(apps, "submissions", "AttackSubmission")
        numbers = dict(anonymization.values_list("pk", "number"))
        attacks = dict(attack.values_list("pk", "number"))
    assert numbers == {a_first: 1, a_second: 2, a_tied: 3, a_late: 4, b_only: 1}
    assert attacks == {b_attack_1: 1, b_attack_2: 2}
