"""Small builders shared by the platform tests (uploads, scoring, freezing, attacks).

The tests call the services directly: in a ``django_db`` test the ``delay_on_commit``
callbacks never run, so every scoring job is run here, in process.
"""

import io

import numpy as np
import pandas as pd

import scoring
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    RoundOperation,
    Target,
)
from pwscup.pwscup2015.selectors import target_truth
from tests.support import csv_upload, noisy_copy, settled


def read_field(field) -> bytes:
    """The bytes of a stored private file."""
    field.open("rb")
    try:
        return field.read()
    finally:
        field.close()


def upload(world, letter: str, content: bytes, *, name: str = "anonymized.csv", now=None):
    """Team ``letter`` uploads an anonymized CSV (QUEUED, not scored yet)."""
    return services.anonymization_submission_create(
        phase=world.anonymization,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=csv_upload(content, name),
        now=now,
    )


def score(submission) -> AnonymizationSubmission:
    """Run the scoring job of ``submission`` and return it fresh from the database."""
    services.anonymization_submission_score(submission_id=submission.pk)
    return settled(AnonymizationSubmission, submission.pk)


def team_original(world, letter: str) -> bytes:
    """The table team ``letter`` anonymizes: the shared original or its own sample."""
    if not world.round.pwscup2015.is_per_team:
        return world.original
    dataset = world.round.team_datasets.get(team=world.teams[letter])
    return read_field(dataset.file)


def scored(world, letter: str, *, seed: int = 0, delete: int = 0, content: bytes | None = None):
    """A FINISHED submission of team ``letter`` (a noisy copy of its original by default)."""
    if content is None:
        content = noisy_copy(team_original(world, letter), seed=seed, delete=delete)
    return score(upload(world, letter, content))


def freeze(world, now=None) -> dict[str, Target]:
    """Freeze the round, run every built-in attack job, return the targets by team letter."""
    world.round.refresh_from_db()
    services.round_freeze(round=world.round, now=now)
    by_team = {}
    for letter, team in world.teams.items():
        target = Target.objects.filter(round=world.round, team=team).first()
        if target is None:
            continue
        services.target_builtin_score(target_id=target.pk)
        by_team[letter] = Target.objects.select_related("round", "team").get(pk=target.pk)
    return by_team


def run_operations() -> list[RoundOperation]:
    """Run every queued round operation (freeze, rescore, publish) here, as a worker would
    (or wait for the suite's worker that took one first)."""
    queued = list(RoundOperation.objects.filter(status="queued").order_by("pk"))
    for operation in queued:
        services.round_operation_run(operation_id=operation.pk)
    return [settled(RoundOperation, o.pk) for o in queued]


def answer_bytes(answer) -> bytes:
    """A correspondence table: one guessed reference row number per line, with a header."""
    return ("guess\n" + "\n".join(str(int(v)) for v in answer) + "\n").encode()


def truth_of(target: Target) -> np.ndarray:
    return target_truth(target=target)


def attack(world, attacker: str, target: Target, content: bytes, *, now=None):
    """Team ``attacker`` uploads a correspondence table on ``target`` (QUEUED)."""
    return services.attack_submission_create(
        phase=world.attack,
        team=world.teams[attacker],
        target=target,
        user=world.users[attacker],
        uploaded_file=csv_upload(content, f"attack_{target.team.slug}.csv"),
        now=now,
    )


def score_attack(submission) -> AttackSubmission:
    services.attack_submission_score(submission_id=submission.pk)
    return settled(AttackSubmission, submission.pk)


def scored_attack(world, attacker: str, target: Target, answer) -> AttackSubmission:
    return score_attack(attack(world, attacker, target, answer_bytes(answer)))


def read_csv_text(content: bytes) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(content), dtype=str, keep_default_na=False)


def evaluate_bytes(original: bytes, anonymized: bytes, config: dict) -> dict:
    """``scoring.evaluate`` on raw CSV bytes, as the platform should compute it."""
    table = scoring.read_table(original)
    return scoring.evaluate(
        table, scoring.read_table(anonymized), scoring.load_config(config, table)
    )
