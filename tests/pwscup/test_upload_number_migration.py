"""Migration 0007 numbers the uploads that existed before per-team numbers did: per team
and phase, in the order they were made (created_at, then id); 0008 then makes the
numbers unique per team and phase.

Slow (over 20 s on its own, so its module is scheduled first): it migrates the test database
back before the numbering and forward again.
"""

import datetime as dt

import pytest
from django.utils import timezone

from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission
from tests.support import migrate

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BEFORE = [("submissions", "0006_round_operation")]


def test_existing_uploads_are_numbered_per_team_and_phase_in_upload_order(world):
    apps = migrate(BEFORE)
    try:
        Anonymization = apps.get_model("submissions", "AnonymizationSubmission")
        Attack = apps.get_model("submissions", "AttackSubmission")
        Target = apps.get_model("submissions", "Target")
        now = timezone.now()
        a, b = world.teams["a"].pk, world.teams["b"].pk

        def made(model, team, minutes, **fields):
            return model.objects.create(
                phase_id=fields.pop("phase", world.anonymization.pk),
                team_id=team,
                file="private/uploads/x.csv",
                original_filename="x.csv",
                sha256="0" * 64,
                size=1,
                created_at=now - dt.timedelta(minutes=minutes),
                **fields,
            ).pk

        # Made out of order: the ids do not follow the upload times.
        a_late = made(Anonymization, a, 1)
        a_first = made(Anonymization, a, 30)
        b_only = made(Anonymization, b, 20)
        a_second = made(Anonymization, a, 10, status="failed")
        a_tied = made(Anonymization, a, 10)  # same time as a_second: the id decides
        target = Target.objects.create(
            round_id=world.round.pk,
            team_id=a,
            submission_id=a_first,
            published_file="p.csv",
            truth_file="t.csv",
            rows=1,
            reference_rows=1,
        )
        attack_fields = {"phase": world.attack.pk, "target_id": target.pk, "target_version": 1}
        b_attack_2 = made(Attack, b, 2, **attack_fields)
        b_attack_1 = made(Attack, b, 5, **attack_fields)
    finally:
        migrate()
    # The models have moved to the 2015 kind's app since (its own migration test).
    Anonymization = AnonymizationSubmission
    Attack = AttackSubmission
    numbers = dict(Anonymization.objects.values_list("pk", "number"))
    assert numbers == {a_first: 1, a_second: 2, a_tied: 3, a_late: 4, b_only: 1}
    assert dict(Attack.objects.values_list("pk", "number")) == {b_attack_1: 1, b_attack_2: 2}
