"""Reads of the sequential round: steps open, a team's sequence, its masters, releases and
attacks. The leaderboard and the attack matrix are ``ranking``'s (the ranking rule of spec
§11, once), read here too."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.competitions.selectors import results_published_at
from pwscup.competitions.windows import plan_line
from pwscup.core.errors import Refused
from pwscup.kinds.rows import kind_row
from pwscup.sequential import engine
from pwscup.sequential.engine import LEADERBOARD_COLUMNS
from pwscup.sequential.models import Master, Release, SeqAttack, SequenceScore, SequentialRound
from pwscup.sequential.ranking import attack_matrix as attack_matrix  # read here too
from pwscup.sequential.ranking import attack_ranking as attack_ranking
from pwscup.sequential.ranking import leaderboard_rows as leaderboard_rows
from pwscup.submissions.round_api import is_participant
from pwscup.submissions.selectors import Quota, quota_day_of, read_uploads_quota_usage
from pwscup.submissions.voids import counted, counts
from scoring.sequential.per_person import groups_per_release, per_person_known_at

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
    return is_participant(access) or sequential.results_published


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
    """The releases a team may upload now: ``ready_steps``, none before the round opens
    (``release_opens_at``)."""
    now = now or timezone.now()
    if not round_opened(sequential, now):
        return []
    return ready_steps(sequential=sequential, now=now)


def ready_steps(*, sequential: SequentialRound, now=None) -> list[int]:
    """The releases whose turn it is, open now or, before the round opens, at its opening
    (what the sample and the local check are for): online, the step after the frozen prefix;
    batch, every step not frozen yet; in both, only steps whose close (if any) is still
    ahead."""
    n, frozen = sequential.n_releases, sequential.frozen_steps
    if frozen >= n:
        return []
    steps = [frozen + 1] if is_online(sequential) else list(range(frozen + 1, n + 1))
    now = now or timezone.now()
    return [j for j in steps if not step_closed(sequential, j, now)]


def round_opened(sequential: SequentialRound, now=None) -> bool:
    """Whether the round has opened (no opening: it opened when it was created)."""
    return sequential.opens_at is None or (now or timezone.now()) >= sequential.opens_at


def release_opens_at(sequential: SequentialRound, step: int, now=None):
    """When release ``step`` opens by the clock, the window's opening as every kind's
    (``window_check``, the schedule): the round's opening for release 1, and in batch mode
    for every release; online, the next release to freeze waits for it too while it is
    ahead (release 1 was ended before the round opened); ``None`` for a later release
    online (it opens when the one before it is frozen) or a round open since its creation."""
    if step == 1 or not is_online(sequential):
        return sequential.opens_at
    waits = step == sequential.frozen_steps + 1 and not round_opened(sequential, now)
    return sequential.opens_at if waits else None


def step_closed(sequential: SequentialRound, step: int, now) -> bool:
    """Whether release ``step`` has a close and it has passed."""
    closes_at = sequential.close_of(step)
    return closes_at is not None and now >= closes_at


def step_schedule(*, sequential: SequentialRound, now=None) -> list[dict]:
    """Each release's opening (``release_opens_at``) and close (None: no deadline), whether
    the close has passed, and its state as every page and the console say it: ``frozen``,
    ``open`` (uploads taken now), ``closed`` or ``upcoming``."""
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
            {
                "step": j,
                "opens_at": release_opens_at(sequential, j, now),
                "closes_at": sequential.close_of(j),
                "closed": closed,
                "state": state,
            }
        )
    return rows


def release_schedule_lines(*, sequential: SequentialRound, now=None) -> list[dict]:
    """Each release's line of the round's schedule (``RoundKind.schedule_lines``), of the
    core's shape (``plan_line``): its opening (``release_opens_at``: the round's opening for
    release 1, none for a release that opens when the one before it is frozen), its close
    (``None``: no deadline) and its state (``step_schedule``). A release keeps no other plan,
    so none is given apart."""
    return [
        plan_line(
            label=release_label(row["step"]),
            opens_at=row["opens_at"],
            closes_at=row["closes_at"],
            planned=row["closes_at"],
            state=row["state"],
        )
        for row in step_schedule(sequential=sequential, now=now)
    ]


def release_label(step: int) -> str:
    """Release ``step`` as the schedule and the window's refusals name it."""
    return _("Release %(j)s") % {"j": step}


def attack_schedule_line(*, sequential: SequentialRound, now=None) -> dict:
    """The attack phase's line of the round's schedule (``RoundKind.schedule_lines``): its
    planned close (``None``: until the results are published), or when the results were
    published if that was earlier, the plan then given apart (the core's ``plan_line``)."""
    planned = closes_at = sequential.attack_closes_at
    if sequential.results_published and planned is not None:
        published_at = results_published_at(round=sequential.round)
        if published_at is not None and published_at < planned:
            closes_at = published_at
    return plan_line(
        label=_("Attack phase"),
        opens_at=None,  # when the last release is frozen
        closes_at=closes_at,
        planned=planned,
        state=attack_state(sequential=sequential, now=now),
    )


def attack_state(*, sequential: SequentialRound, now=None) -> str:
    """The attack phase's state as the schedule says it: ``upcoming`` until the last release
    is frozen, ``open`` while attacks are taken, then ``closed`` (its close passed, or the
    results published)."""
    if not sequential.attack_phase_begun:
        return "upcoming"
    return "open" if sequential.attack_open(now) else "closed"


def step_quotas(*, sequential: SequentialRound, releases, steps, now) -> dict[int, Quota]:
    """What the team has used of the round's per-release limits for each of ``steps``,
    counted over its releases already read (``team_releases``): no query (the core's
    counting: rejected releases are free, the day is the round's quota day)."""
    day = quota_day_of(sequential.round)
    return {
        j: read_uploads_quota_usage([r for r in releases if r.step == j], day=day, now=now)
        for j in steps
    }


def visible_steps(*, sequential: SequentialRound) -> int:
    """How many steps a team sees (online: the future is hidden)."""
    if is_online(sequential):
        return min(sequential.frozen_steps + 1, sequential.n_releases)
    return sequential.n_releases


def round_masters(*, sequential: SequentialRound) -> dict[int | None, Master]:
    """The round's masters by team id (``None``: the shared one), in one query."""
    return {m.team_id: m for m in Master.objects.filter(sequential=sequential)}


def team_master(
    *, sequential: SequentialRound, team: Team | None, masters: dict | None = None
) -> Master | None:
    """The master a team plays on: its own, else the round's shared one (from ``masters``,
    ``round_masters``'s, when the caller has read them)."""
    if masters is None:
        masters = round_masters(sequential=sequential)
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
    masters = round_masters(sequential=sequential)
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


def pool_left_short(
    *, sequential: SequentialRound, team: Team | None, masters: dict | None = None
) -> bool:
    """The team has no master although the per-team masters were drawn from the pool, before
    step 1 froze: the team hook found too few persons left in the pool for it
    (``services.masters_draw_for_new_teams``)."""
    if team is None or not sequential.pool_file or sequential.frozen_steps:
        return False
    if masters is None:
        masters = round_masters(sequential=sequential)
    drawn = any(master.drawn for master in masters.values())
    return drawn and team.pk not in masters and None not in masters


def latest_valid_releases(*, sequential: SequentialRound, team: Team, steps) -> dict[int, Release]:
    """The team's latest valid (scored) upload of each of ``steps`` that counts (a voided one
    never: ``pwscup.submissions.voids``), by step, in one query; a step it has none of is
    missing."""
    steps = list(steps)
    return latest_valid_among(
        counted(
            Release.objects.filter(
                sequential=sequential, team=team, step__in=steps, status=Release.Status.FINISHED
            )
        ),
        steps,
    )


def latest_valid_among(releases, steps) -> dict[int, Release]:
    """``latest_valid_releases`` found among ``releases`` (one team's, read already): the
    newest valid (scored) one of each of ``steps`` that is not voided, by step."""
    steps = set(steps)
    latest: dict[int, Release] = {}
    valid = (
        r for r in releases if r.step in steps and r.status == Release.Status.FINISHED and counts(r)
    )
    for release in sorted(valid, key=lambda r: (r.created_at, r.pk), reverse=True):
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
    number, how many teams play (have a master) and have a valid upload of it that counts
    (not voided), and the teams without one (their sequence becomes incomplete); ``opens_at``:
    the release's opening when it has not opened yet (else ``None``). None: every release is
    frozen."""
    step = sequential.frozen_steps + 1
    if step > sequential.n_releases:
        return None
    owners = set(Master.objects.filter(sequential=sequential).values_list("team_id", flat=True))
    opens_at = release_opens_at(sequential, step)
    teams = [
        team
        for team in Team.objects.filter(competition=sequential.round.competition).order_by("name")
        if None in owners or team.pk in owners
    ]
    valid = set(
        counted(
            Release.objects.filter(sequential=sequential, step=step, status=Release.Status.FINISHED)
        ).values_list("team_id", flat=True)
    )
    return {
        "step": step,
        "teams": len(teams),
        "ready": sum(team.pk in valid for team in teams),
        "without": [team for team in teams if team.pk not in valid],
        "opens_at": opens_at if opens_at is not None and timezone.now() < opens_at else None,
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
    results = release.results or {}
    mu, il = results.get("MU") or [], results.get("IL_per_release") or []
    return [
        {
            **row,
            "MU": mu[row["step"] - 1] if row["step"] <= len(mu) else None,
            "IL": il[row["step"] - 1] if row["step"] <= len(il) else None,
        }
        for row in groups_per_release(release_risk_table(release=release), upto=release.step)
    ]


def risk_points(*, sequential: SequentialRound, team: Team, releases) -> list[dict]:
    """Risk summaries per step for the team's chart: frozen steps from their scores, the open
    step from the team's latest valid upload of it (among ``releases``, all the team's, read
    already: ``team_releases``)."""
    scores = SequenceScore.objects.filter(sequential=sequential, team=team, complete=True)
    points = {score.step: score.results for score in scores}
    steps = [step for step in open_steps(sequential=sequential) if step not in points]
    for step, release in latest_valid_among(releases, steps).items():
        points[step] = release.results
    return [{"step": step, **points[step]} for step in sorted(points)]
