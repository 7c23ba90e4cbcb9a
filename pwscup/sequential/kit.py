"""The sequential round's starter kit and sample release (reads only).

The kit is a ZIP (``pwscup.core.kits`` packs it with the toolkit wheel) holding what the
team may download on the Data tab, no more: ``config.json`` (the team's copy),
``master.csv`` (online: only as known so far), ``T(j).csv`` of the releases it may see, its
own frozen releases and a bilingual README with the kit's baseline command and the local
check command. The sample release is what the README's baseline command writes for the
release the team should publish next, on the team's own data: it uploads as is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from pwscup.accounts.models import Team
from pwscup.core.errors import Refused, scoring_text
from pwscup.core.kits import KitFile, kit_readme_context
from pwscup.core.stored import stored_bytes
from pwscup.sequential import engine, selectors
from pwscup.sequential.models import Release, SequentialRound
from pwscup.sequential.services import step_table_bytes, team_master_bytes
from scoring.sequential import cli


def check_command(*, sequential: SequentialRound, last: int | None = None) -> str:
    """The local check of releases 1 … ``last`` (default: the last release whose turn it is,
    ``ready_steps``, else the last one) on the files the Data tab and the kit give (the
    CLI's ``check_command``)."""
    if last is None:
        last = max(selectors.ready_steps(sequential=sequential), default=sequential.n_releases)
    return cli.check_command(last)


@dataclass(frozen=True)
class SamplePlan:
    """The release the sample is of (``step``), the team's release before it it is built on
    (``previous``; None for release 1), or why there is none now: no master (``no_master``),
    no release open (``step`` None), or the team's release ``missing`` must come first."""

    step: int | None = None
    previous: Release | None = None
    missing: int | None = None
    no_master: bool = False

    @property
    def ready(self) -> bool:
        return self.step is not None and self.missing is None and not self.no_master


def planned_step(*, sequential: SequentialRound, team: Team, open_steps: list[int]) -> int:
    """The first of ``open_steps`` (not empty) the team has no valid upload of yet, else the
    first: the release its sample, its "What to do now" and its upload form are for."""
    valid = selectors.latest_valid_releases(sequential=sequential, team=team, steps=open_steps)
    return next((j for j in open_steps if j not in valid), open_steps[0])


def sample_plan(
    *, sequential: SequentialRound, team: Team, now=None, has_master: bool | None = None
) -> SamplePlan:
    """The first release whose turn it is (``ready_steps``: open, or opening at the round's
    opening) the team has no valid upload of yet (else the first such one),
    on the team's releases before it (frozen, else its latest valid ones, as the check reads
    them). ``has_master``: whether the team has a master, when the caller read it already."""
    if has_master is None:
        has_master = selectors.team_master(sequential=sequential, team=team) is not None
    if not has_master:
        return SamplePlan(no_master=True)
    open_steps = selectors.ready_steps(sequential=sequential, now=now)
    if not open_steps:
        return SamplePlan()
    step = planned_step(sequential=sequential, team=team, open_steps=open_steps)
    prefix = selectors.team_sequence(sequential=sequential, team=team, upto=step - 1)
    missing = next((j for j, release in enumerate(prefix, start=1) if release is None), None)
    if missing is not None:
        return SamplePlan(step=step, missing=missing)
    return SamplePlan(step=step, previous=prefix[-1] if prefix else None)


def sample_release(*, sequential: SequentialRound, team: Team) -> tuple[int, bytes]:
    """``(j, release_<j>.csv)``: the kit's baseline release of the planned step, made from the
    team's ``T(j).csv`` and its release j−1 exactly as the kit's command makes it. Refused
    (with the reason) when there is no sample now."""
    plan = sample_plan(sequential=sequential, team=team)
    if plan.no_master:
        raise Refused(selectors.no_master_text())
    if plan.step is None:
        raise Refused(_("No release is open: there is no sample to upload now."))
    if plan.missing is not None:
        raise Refused(
            _("Your team has no valid release %(j)s: upload it first.") % {"j": plan.missing}
        )
    table = step_table_bytes(sequential=sequential, team=team, step=plan.step)
    previous = stored_bytes(plan.previous.file) if plan.previous is not None else None
    try:
        content = engine.baseline_bytes(table, previous, sequential.config, step=plan.step)
    except scoring.ScoringError as error:
        raise Refused(scoring_text(error)) from None
    return plan.step, content


def kit_files(*, sequential: SequentialRound, team: Team, now=None) -> list[KitFile]:
    """The kit's files for ``team`` (what its Data tab offers, nothing of the future);
    refused when the team has no master yet."""
    now = now or timezone.now()
    selectors.team_master_required(sequential=sequential, team=team)
    config = selectors.team_config(sequential=sequential)
    visible = selectors.visible_steps(sequential=sequential)
    frozen = [
        release
        for release in selectors.team_sequence(
            sequential=sequential, team=team, upto=sequential.frozen_steps, frozen=True
        )
        if release is not None
    ]
    online = selectors.is_online(sequential)
    # The releases still to publish, each on the one before (the frozen ones are in the kit).
    first, n = sequential.frozen_steps + 1, sequential.n_releases
    steps = list(range(first, n + 1))[: 1 if online else None]
    context = {
        **kit_readme_context(sequential.round, who=team.name, now=now),
        "m": config.get("m"),
        "n": n,
        "online": online,
        "tables": [f"T{j}.csv" for j in range(1, visible + 1)],
        "frozen": [f"release_{r.step}.csv" for r in frozen],
        "baseline_commands": [cli.baseline_command(j) for j in steps],
        "check_command": check_command(sequential=sequential, last=steps[-1] if steps else n),
    }
    files = [
        KitFile("README.md", render_to_string("sequential/kit/README.md", context)),
        KitFile("config.json", json.dumps(config, indent=2, ensure_ascii=False)),
        KitFile("master.csv", team_master_bytes(sequential=sequential, team=team)),
    ]
    for j in range(1, visible + 1):
        files.append(
            KitFile(f"T{j}.csv", step_table_bytes(sequential=sequential, team=team, step=j))
        )
    files += [KitFile(f"release_{r.step}.csv", r.file) for r in frozen]
    return files
