"""Freezing a round: per-team samples, published targets and their built-in attacks."""

import hashlib

import numpy as np
import pandas as pd
from django.db import transaction
from django.utils import timezone

import scoring
from pwscup.accounts.models import Team
from pwscup.competitions.models import Phase, Round
from pwscup.competitions.selectors import (
    cached_table,
    phase_of,
    round_original_table,
    table_config,
)
from pwscup.core.files import csv_content, opened
from pwscup.notifications.services import notify_round_frozen
from pwscup.pwscup2015.broker import SCORE_BUILTIN_ATTACKS
from pwscup.pwscup2015.models import (
    AttackSubmission,
    BuiltinAttack,
    Pwscup2015Round,
    Target,
    TeamDataset,
)
from pwscup.pwscup2015.ranking_cache import ranking_invalidate
from pwscup.pwscup2015.selectors import submissions_by_rule, target_truth, team_dataset
from pwscup.pwscup2015.services.attacks import attacks_rescore
from pwscup.submissions.broker import Dispatch, job_send
from pwscup.submissions.services.jobs import (
    job_claim,
    job_complete,
    job_reset,
    job_run,
)
from scoring import kit


def derived_seed(round: Round, *parts) -> int:
    """A secret, reproducible seed per purpose, derived from the round's secret seed."""
    text = ":".join(str(p) for p in (round.pwscup2015.secret_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 2


@transaction.atomic
def round_assign_samples(*, round: Round) -> list[TeamDataset]:
    """Per-team mode: draw each team's own sample of the master table (once per team).

    The round's row is locked first: teams registering at the same moment each draw every
    team's missing sample, and without the lock two of them would draw the same team's
    (a unique violation). After the lock, the samples another draw committed are seen."""
    if not round.pwscup2015.is_per_team:
        return []
    Round.objects.select_for_update().get(pk=round.pk)
    master = round_original_table(round=round)
    created = []
    for team in round.competition.teams.all():
        if TeamDataset.objects.filter(round=round, team=team).exists():
            continue
        index = scoring.draw_sample(
            master, size=round.pwscup2015.sample_size, seed=derived_seed(round, team.pk, "sample")
        )
        table = master.iloc[index].reset_index(drop=True)
        dataset = TeamDataset(
            round=round, team=team, sample_index=[int(i) for i in index], rows=len(table)
        )
        dataset.file.save(
            f"{team.slug}_original.csv", csv_content(table, scoring.write_csv), save=False
        )
        dataset.save()
        created.append(dataset)
    return created


@transaction.atomic
def round_freeze(*, round: Round, now=None) -> list[Target]:
    """Fix each team's final anonymization and publish it as an attack target (every kept
    row shuffled, or a random sample of ``published_rows`` of them).

    Freezing again republishes only the targets whose final submission changed; attacks
    on a republished target are rescored against its new truth. The round's row is
    locked, so an automatic freeze and an organizer's freeze run one after the other.
    """
    now = now or timezone.now()
    ranking_invalidate(round_ids=[round.pk])  # its row before the round's (the lock order)
    Round.objects.select_for_update().get(pk=round.pk)
    targets = [
        target_publish(round=round, team=team, submission=submission)
        for team, submission in freeze_plan(round=round)
    ]
    Pwscup2015Round.objects.filter(round=round).update(frozen_at=now)
    round.pwscup2015.frozen_at = now
    notify_round_frozen(round=round, frozen_at=now)
    return targets


def freeze_plan(*, round: Round) -> list[tuple]:
    """(team, submission) of each team whose final anonymization a freeze publishes."""
    phase = phase_of(round=round, kind=Phase.Kind.ANONYMIZATION)
    if phase is None:
        return []
    chosen = submissions_by_rule(phase=phase)  # every team's at once
    teams = Team.objects.filter(competition_id=round.competition_id, pk__in=list(chosen))
    teams = teams.order_by("pk")
    return [(team, chosen[team.pk]) for team in teams]


@transaction.atomic
def target_publish(*, round: Round, team, submission) -> Target:
    existing = Target.objects.select_for_update().filter(round=round, team=team).first()
    if existing is not None and existing.submission_id == submission.pk:
        return existing
    ranking_invalidate(round_ids=[round.pk])
    version = existing.version + 1 if existing else 1
    with opened(submission.file) as handle:
        anonymized = scoring.read_table(handle, name=submission.original_filename)
    # With "published rows", the published sample is the first rows of the same shuffle:
    # its truth covers only them, and the attacks are scored on them.
    published = scoring.publish_target(
        anonymized,
        seed=derived_seed(round, team.pk, "permutation", version),
        rows=round.pwscup2015.published_rows,
    )
    truth = published.truth
    target = existing or Target(round=round, team=team)
    if round.pwscup2015.is_per_team:
        dataset = team_dataset(round=round, team=team)
        candidates = scoring.candidate_table(
            round_original_table(round=round),
            np.asarray(dataset.sample_index, dtype=np.int64),
            decoys=round.pwscup2015.decoy_count or 0,
            seed=derived_seed(round, team.pk, "candidates", version),
        )
        truth = candidates.position[truth - 1]
        target.candidate_file.save(
            f"{team.slug}_candidate.csv",
            csv_content(candidates.table, scoring.write_csv),
            save=False,
        )
        reference_rows = len(candidates.table)
    else:
        reference_rows = round.original_rows
    target.submission = submission
    target.version = version
    target.rows = len(published.table)
    target.reference_rows = reference_rows
    target.published_at = timezone.now()
    target.published_file.save(
        f"{team.slug}_anonymized.csv", csv_content(published.table, scoring.write_csv), save=False
    )
    truth_table = pd.DataFrame({"row": np.asarray(truth, dtype=np.int64)})
    target.truth_file.save(
        f"{team.slug}_truth.csv", csv_content(truth_table, scoring.write_csv), save=False
    )
    target.save()
    # The built-in attacks of this version: a fresh job (a new version's run supersedes
    # any run on the previous one).
    BuiltinAttack.objects.update_or_create(target=target, defaults={"rates": {}})
    job_reset(model=BuiltinAttack, pks=[target.pk])
    enqueue_builtin(target.pk)
    if existing is not None:
        attacks_rescore(queryset=AttackSubmission.objects.filter(target=target))
    return target


def enqueue_builtin(pk: int) -> Dispatch:
    return job_send(SCORE_BUILTIN_ATTACKS, pk)


def target_reference_table(*, target: Target):
    """What an attacker of ``target`` is given as reference: the original or the candidates."""
    if target.round.pwscup2015.is_per_team:
        table = cached_table(target.candidate_file, f"candidates-{target.pk}-{target.version}")
    else:
        table = round_reference_table(round=target.round)
    return table, table_config(round=target.round, table=table)


# The shared original as the attackers' reference, one round's per worker process.
_REFERENCE: dict[tuple, object] = {}


def round_reference_table(*, round: Round):
    """The round's original as a ``scoring`` table, loaded once per worker process.

    A freeze queues one built-in attack job per target, all against this table: the
    factorised QI columns and parsed SA numbers the first job computes are kept by the
    table and reused by every other target's job (``scoring.prepare.TableCache``).
    """
    key = (round.pk, round.original_sha256)
    table = _REFERENCE.get(key)
    if table is None:
        with opened(round.original_file) as handle:
            table = scoring.load_table(handle, name=round.original_file.name)
        _REFERENCE.clear()
        _REFERENCE[key] = table
    return table


def target_builtin_score(*, target_id: int, task_id: str = "", worker: str = "") -> None:
    token = job_claim(model=BuiltinAttack, pk=target_id, task_id=task_id, worker=worker)
    if token is None:
        return
    target = Target.objects.select_related("round", "team").get(pk=target_id)

    def compute() -> dict:
        reference, config = target_reference_table(target=target)
        published = cached_table(target.published_file, f"published-{target.pk}-{target.version}")
        truth = target_truth(target=target)
        rates = scoring.builtin_attack_rates(reference, published, truth, config)
        # The lecture's pipeline, run on the shuffled file as a team would (not a score
        # of the anonymization phase: its ties depend on the file's order).
        rates[kit.BUILTIN_ATTACKER] = kit.lecture_attack_rate(reference, published, truth, config)
        # Shown beside the others, counted only for a target no team attacked
        # (``ranking.final_safety``).
        rates[scoring.REFERENCE_ATTACK] = scoring.reference_attack_rate(
            reference, published, truth, config
        )
        return rates

    status, message, rates = job_run(compute, what=f"built-in attacks on target {target_id}")
    # The rates and the round's new ranking version commit together.
    with transaction.atomic():
        ranking_invalidate(round_ids=[target.round_id])
        job_complete(
            model=BuiltinAttack,
            pk=target_id,
            token=token,
            status=status,
            message=message,
            rates={k: float(v) for k, v in rates.items()},
            scorer_version=scoring.SCORER_VERSION,
        )


def targets_rescore(*, round: Round) -> int:
    pks = list(Target.objects.filter(round=round).values_list("pk", flat=True))
    with transaction.atomic():
        ranking_invalidate(round_ids=[round.pk])
        job_reset(model=BuiltinAttack, pks=pks)
        for pk in pks:
            enqueue_builtin(pk)  # sent once the reset has committed
    return len(pks)
