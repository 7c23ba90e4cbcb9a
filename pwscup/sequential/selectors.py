"""Reads of the sequential round: steps open, a team's sequence, timeline, leaderboard.

The ranking rule of spec §11 lives here, once (``leaderboard_rows``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

import scoring.ranking
from pwscup.accounts.models import Team
from pwscup.accounts.selectors import disqualification_rule, without_disqualified
from pwscup.core.errors import Refused
from pwscup.kinds.rows import kind_row
from pwscup.sequential import engine
from pwscup.sequential.engine import LEADERBOARD_COLUMNS, per_person_known_at
from pwscup.sequential.models import Master, Release, SeqAttack, SequenceScore, SequentialRound
from pwscup.submissions.kind_rankings import mean_attack_ranking
from pwscup.submissions.selectors import Quota, quota_day_of, uploads_quota_usage_by

# Spec §11's leaderboard columns after validity, as the scoring library names them.
BOARD_METRICS = tuple(LEADERBOARD_COLUMNS)


def sequential_or_none(*, round) -> SequentialRound | None:
    """The round's ``SequentialRound`` (the one that came with the round, else read now), or
    ``None`` for a round without one."""
    rows = SequentialRound.objects.select_related("round__competition")
    return kind_row(round, "sequential", lambda: rows.filter(round=round).first())


def sequential_of(*, round) -> SequentialRound:
    sequential = sequential_or_none(round=round)
    if sequential is None:  # the round came without one: as the read says it
        raise SequentialRound.DoesNotExist("The round has no sequential part.")
    return sequential


def leaderboard_shown(*, sequential: SequentialRound, access) -> bool:
    """Who sees the leaderboard (its page, the Results tab's link, the API's standings): the
    organizers and the round's teams, and everyone once the results are published."""
    return access.is_organizer or access.team is not None or sequential.results_published


def is_online(sequential: SequentialRound) -> bool:
    return sequential.config.get("mode", "online") == "online"


def team_config(*, sequential: SequentialRound, organizer: bool = False) -> dict:
    """The configuration as ``config.json`` gives it: a team's copy (the page's download and
    the kit's) drops the pool's draw parameters (the seed stays secret) and the attack
    phase, which the local check needs neither of; an organizer's is the whole."""
    config = dict(sequential.config)
    if not organizer and config.get("per_team"):
        config["per_team"] = None
        config["attack_phase"] = False
    return config


def release_header(*, config: dict, step: int) -> str:
    """The header of ``release_<step>.csv`` in this round (spec §4)."""
    return ",".join(engine.config_of(config).release_columns(step))


def open_steps(*, sequential: SequentialRound, now=None) -> list[int]:
    """The releases a team may upload now: online, the step after the frozen prefix; batch,
    every step not frozen yet; in both, only steps whose close (if any) is still ahead."""
    n, frozen = sequential.n_releases, sequential.frozen_steps
    if frozen >= n:
        return []
    steps = [frozen + 1] if is_online(sequential) else list(range(frozen + 1, n + 1))
    now = now or timezone.now()
    return [j for j in steps if not step_closed(sequential, j, now)]


def step_closed(sequential: SequentialRound, step: int, now) -> bool:
    """Whether release ``step`` has a close and it has passed."""
    closes_at = sequential.close_of(step)
    return closes_at is not None and now >= closes_at


def step_schedule(*, sequential: SequentialRound, now=None) -> list[dict]:
    """Each release's close (None: no deadline), whether it has passed, and its state as
    every page and the console say it: ``frozen``, ``open`` (uploads taken now), ``closed``
    or ``upcoming``."""
    now = now or timezone.now()
    uploadable = open_steps(sequential=sequential, now=now)
    rows = []
    for j in range(1, sequential.n_releases + 1):
        closed = step_closed(sequential, j, now)
        if j <= sequential.frozen_steps:
            state = "frozen"
        elif j in uploadable:
            state = "open"
        else:
            state = "closed" if closed else "upcoming"
        rows.append(
            {"step": j, "closes_at": sequential.close_of(j), "closed": closed, "state": state}
        )
    return rows


def step_quotas(*, sequential: SequentialRound, team: Team, steps, now) -> dict[int, Quota]:
    """What the team has used of the round's per-release limits for each of ``steps``, in
    one query (the core's counting: rejected releases are free, the day is the round's quota
    day)."""
    steps = list(steps)
    return uploads_quota_usage_by(
        Release.objects.filter(sequential=sequential, team=team, step__in=steps),
        field="step",
        keys=steps,
        day=quota_day_of(sequential.round),
        now=now,
    )


def visible_steps(*, sequential: SequentialRound) -> int:
    """How many steps a team sees (online: the future is hidden)."""
    if is_online(sequential):
        return min(sequential.frozen_steps + 1, sequential.n_releases)
    return sequential.n_releases


def team_master(*, sequential: SequentialRound, team: Team | None) -> Master | None:
    """The master a team plays on: its own, else the round's shared one."""
    masters = {m.team_id: m for m in Master.objects.filter(sequential=sequential)}
    if team is not None and team.pk in masters:
        return masters[team.pk]
    return masters.get(None)


def no_master_text() -> str:
    return _("The organizers have not given your team a master table yet.")


def team_master_required(*, sequential: SequentialRound, team: Team) -> Master:
    """``team_master``, or refused (``Refused``) while the team has none."""
    master = team_master(sequential=sequential, team=team)
    if master is None:
        raise Refused(no_master_text())
    return master


def masters_redraw_plan(*, sequential: SequentialRound) -> dict[str, list[Team]]:
    """What "redraw the masters" does, team by team: ``redrawn`` (a master drawn from the
    pool and nothing uploaded yet), ``kept`` (a release uploaded, or a master the organizers
    uploaded) and ``drawn`` (no master yet: one is drawn from what the pool has left)."""
    masters = {m.team_id: m for m in Master.objects.filter(sequential=sequential)}
    uploaded = set(Release.objects.filter(sequential=sequential).values_list("team_id", flat=True))
    plan = {"redrawn": [], "kept": [], "drawn": []}
    teams = Team.objects.filter(competition_id=sequential.round.competition_id).order_by("name")
    for team in teams:
        master = masters.get(team.pk)
        if master is None:
            plan["drawn"].append(team)
        elif master.drawn and team.pk not in uploaded:
            plan["redrawn"].append(team)
        else:
            plan["kept"].append(team)
    return plan


def pool_left_short(*, sequential: SequentialRound, team: Team | None) -> bool:
    """The team has no master although the per-team masters were drawn from the pool, before
    step 1 froze: the team hook found too few persons left in the pool for it
    (``services.masters_draw_for_new_teams``)."""
    if team is None or not sequential.pool_file or sequential.frozen_steps:
        return False
    masters = Master.objects.filter(sequential=sequential)
    return (
        masters.filter(drawn=True).exists()
        and not masters.filter(team=team).exists()
        and not masters.filter(team=None).exists()
    )


def latest_valid_releases(*, sequential: SequentialRound, team: Team, steps) -> dict[int, Release]:
    """The team's latest valid (scored) upload of each of ``steps``, by step, in one query;
    a step it has none of is missing."""
    latest: dict[int, Release] = {}
    for release in Release.objects.filter(
        sequential=sequential, team=team, step__in=list(steps), status=Release.Status.FINISHED
    ).order_by("step", "-created_at", "-id"):
        latest.setdefault(release.step, release)
    return latest


def team_sequence(
    *, sequential: SequentialRound, team: Team, upto: int, frozen: bool = False
) -> list[Release | None]:
    """The team's release of each step 1 … upto: the frozen one for a frozen step, else (not
    ``frozen``) its latest valid upload; ``None`` where it has none."""
    sequence = []
    open_after = range(sequential.frozen_steps + 1, upto + 1)
    latest = (
        {} if frozen else latest_valid_releases(sequential=sequential, team=team, steps=open_after)
    )
    for step in range(1, upto + 1):
        if step <= sequential.frozen_steps:
            release = Release.objects.filter(
                sequential=sequential, team=team, step=step, is_frozen=True
            ).first()
        else:
            release = latest.get(step)
        sequence.append(release)
    return sequence


def team_releases(*, sequential: SequentialRound, team: Team) -> list[Release]:
    return list(
        Release.objects.filter(sequential=sequential, team=team).select_related("uploaded_by")
    )


def team_attacks(*, sequential: SequentialRound, team: Team | None):
    """The team's guesses on the round's targets, newest first (none without a team)."""
    attacks = SeqAttack.objects.filter(target__sequential=sequential, team=team)
    return attacks.select_related("target__team") if team is not None else attacks.none()


def freeze_preview(*, sequential: SequentialRound) -> dict | None:
    """What freezing the next release would do, for the organizer's confirmation: its
    number, how many teams play (have a master) and have a valid upload of it, and the
    teams without one (their sequence becomes incomplete). None: every release is frozen."""
    step = sequential.frozen_steps + 1
    if step > sequential.n_releases:
        return None
    owners = set(Master.objects.filter(sequential=sequential).values_list("team_id", flat=True))
    teams = [
        team
        for team in Team.objects.filter(competition=sequential.round.competition).order_by("name")
        if None in owners or team.pk in owners
    ]
    valid = set(
        Release.objects.filter(
            sequential=sequential, step=step, status=Release.Status.FINISHED
        ).values_list("team_id", flat=True)
    )
    return {
        "step": step,
        "teams": len(teams),
        "ready": sum(team.pk in valid for team in teams),
        "without": [team for team in teams if team.pk not in valid],
    }


def release_risk_table(*, release: Release) -> str:
    """The release's ``risk_per_person.csv`` as it may be shown: over releases 1 … j, with
    ``lsb`` as known at release j (a later departure is a later release's news)."""
    return per_person_known_at(release.per_person, release.step)


def release_groups(*, release: Release) -> list[dict]:
    """Per release 1 … j of ``release`` (a finished one): how many persons it covers and how
    many of its groups could hold each of them (``groups_per_release`` of the per-person
    table, as shown: ``release_risk_table``): ``{"step", "persons", "min", "mean", "max",
    "MU", "IL"}``; MU(j) and IL(j) from the release's results. Empty without a table."""
    text = release_risk_table(release=release)
    if not text:
        return []
    counts: dict[int, list[int]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        pieces = (row.get("groups_per_release") or "").split(";")
        if not row.get("lsf", "").isdigit():
            continue
        for offset, piece in enumerate(p for p in pieces if p.strip()):
            counts.setdefault(int(row["lsf"]) + offset, []).append(int(piece))
    results = release.results or {}
    mu, il = results.get("MU") or [], results.get("IL_per_release") or []
    return [
        {
            "step": step,
            "persons": len(values),
            "min": min(values),
            "mean": sum(values) / len(values),
            "max": max(values),
            "MU": mu[step - 1] if step <= len(mu) else None,
            "IL": il[step - 1] if step <= len(il) else None,
        }
        for step, values in sorted(counts.items())
        if step <= release.step
    ]


def risk_points(*, sequential: SequentialRound, team: Team) -> list[dict]:
    """Risk summaries per step for the team's chart: frozen steps from their scores, the open
    step from the team's latest valid upload of it."""
    scores = SequenceScore.objects.filter(sequential=sequential, team=team, complete=True)
    points = {score.step: score.results for score in scores}
    steps = [step for step in open_steps(sequential=sequential) if step not in points]
    for step, latest in latest_valid_releases(
        sequential=sequential, team=team, steps=steps
    ).items():
        points[step] = latest.results
    return [{"step": step, **points[step]} for step in sorted(points)]


@dataclass(frozen=True)
class BoardRow:
    team: Team
    step: int
    complete: bool
    results: dict
    gate_failures: tuple[str, ...]
    safety: float | None
    rank: int | None = None

    @property
    def ranked(self) -> bool:
        return self.complete and not self.gate_failures


def attack_best(*, sequential: SequentialRound) -> dict[tuple[int, int], float]:
    """(attacker team id, target team id) → the attacker's best accuracy on the target. Every
    attack counts, a disqualified team's too (``DisqualificationRule.attack_counts``)."""
    rule = disqualification_rule(competition_id=sequential.round.competition_id)
    best: dict[tuple[int, int], float] = {}
    for attack in SeqAttack.objects.filter(
        target__sequential=sequential, status=SeqAttack.Status.FINISHED
    ).select_related("target"):
        if not rule.attack_counts(attack.team_id):
            continue
        key = (attack.team_id, attack.target.team_id)
        best[key] = max(best.get(key, 0.0), attack.accuracy or 0.0)
    return best


def leaderboard_rows(*, sequential: SequentialRound) -> list[BoardRow]:
    """Every team's sequence over the frozen prefix, ranked as spec §11 (the rule is
    ``scoring.sequential.evaluate.ranking_key``): gate failures and incomplete sequences last;
    the rest by safety (``RN_max``, or with an attack phase the highest accuracy any attacker
    reached: teams, MAP_N, MAP_A), then ``RN_mean``, then IL. Equal keys share a rank. A
    disqualified team is left out (``pwscup.accounts.selectors.without_disqualified``)."""
    step = sequential.frozen_steps
    if step == 0:
        return []
    config = sequential.config
    best = attack_best(sequential=sequential) if config.get("attack_phase") else {}
    keyed = []
    scores = without_disqualified(
        SequenceScore.objects.filter(sequential=sequential, step=step).select_related("team"),
        competition_id=sequential.round.competition_id,
    )
    for score in scores:
        results = dict(score.results)
        if not score.complete:
            keyed.append(((True, 2.0, 0.0, 0.0), score, results, (), None))
            continue
        rates = [v for (_attacker, target), v in best.items() if target == score.team_id]
        attacked = max(rates) if rates else None
        key = engine.ranking_key(results, config, complete=True, attack_best=attacked)
        safety = engine.safety(results, config, attack_best=attacked)
        failures = engine.gate_failures(results, config)
        keyed.append((key, score, results, failures, safety))
    keyed.sort(key=lambda item: item[1].team.name)
    ordered = scoring.ranking.competition_ranks(
        keyed, key=lambda item: item[0], ranked=lambda item: item[1].complete and not item[0][0]
    )
    return [
        BoardRow(
            team=score.team,
            step=step,
            complete=score.complete,
            results=results,
            gate_failures=failures,
            safety=safety,
            rank=rank,
        )
        for rank, (_key, score, results, failures, safety) in ordered
    ]


def attack_matrix(*, sequential: SequentialRound) -> dict:
    """Attacker × target accuracies: the teams' best uploads and the built-in MAP_N, MAP_A.
    A disqualified team's target and row stay, marked (``disqualified``: its team ids;
    ``pwscup.accounts.selectors.DisqualificationRule``)."""
    rule = disqualification_rule(competition_id=sequential.round.competition_id)
    targets = list(sequential.targets.select_related("team").order_by("team__name"))
    best = attack_best(sequential=sequential)
    teams = list(Team.objects.filter(competition=sequential.round.competition).order_by("name"))
    rows = [
        {"name": "MAP_N", "builtin": True, "cells": [t.map_n for t in targets]},
        {"name": "MAP_A", "builtin": True, "cells": [t.map_a for t in targets]},
    ]
    for team in teams:
        cells = [None if t.team_id == team.pk else best.get((team.pk, t.team_id)) for t in targets]
        rows.append(
            {
                "name": team.name,
                "builtin": False,
                "team": team,
                "cells": cells,
                "disqualified": rule.marked(team.pk),
            }
        )
    disqualified = {team.pk for team in teams if rule.marked(team.pk)}
    return {"targets": targets, "rows": rows, "disqualified": disqualified, "rule": rule}


def attack_ranking(*, sequential: SequentialRound) -> list[dict]:
    """Mean accuracy over the other teams' targets, 0 for a target not attacked, higher
    first; equal means share a rank, and a team that attacked no target has no rank
    (``rank`` None, listed last). A disqualified team is left out of the ranking; its
    attacks stay in the matrix (as in every kind: they were made, on the others' targets)."""
    matrix = attack_matrix(sequential=sequential)
    return mean_attack_ranking(team_cells(matrix), matrix["targets"], rule=matrix["rule"])


def team_cells(matrix: dict) -> list[tuple[Team, list[float | None]]]:
    """Each team's row of ``attack_matrix``: ``(team, its best accuracy on each target)``."""
    return [(row["team"], row["cells"]) for row in matrix["rows"] if not row["builtin"]]
