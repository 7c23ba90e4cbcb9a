"""Reads of the scorer round page's five tabs (``pwscup.kinds.tabs``): where the round is (its
flow picture), what the team should do now, the columns in the reader's language, the team's
releases and attacks with the scores it may see, the rankings and the matrix. The views render
what these return; nothing here writes.

Every attack score shown here goes through ``selectors.attack_visibility`` and
``selectors.attack_scores_for`` / ``selectors.shown_value`` (exact, band or hidden until the
results are published); a release's scores are shown to its own team exactly as stored."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.accounts.models import Team
from pwscup.kinds.tabs import FlowStep
from pwscup.scorer import score_text, selectors
from pwscup.scorer.api.common import column_label
from pwscup.scorer.models import Attack, ProgramVersion, Release, ScorerRound
from pwscup.submissions.messages import job_message_text
from pwscup.submissions.models import Status
from pwscup.submissions.two_sided_tabs import (
    TwoSidedPhases,
    TwoSidedSteps,
    attack_target_uses,
    two_sided_flow,
)

NEXT_STEPS = TwoSidedSteps(
    data=gettext_lazy("Download the data and read the rules."),
    upload=gettext_lazy("Upload a release; the organizer's program scores it in a few minutes."),
    choose_final=gettext_lazy(
        "Choose which of your scored releases is final (else the newest scored one)."
    ),
    targets=gettext_lazy("Download the other teams' frozen releases."),
    targets_anchor="#targets",
    attack=gettext_lazy("Upload your attacks."),
)


@dataclass(frozen=True)
class RoundState(TwoSidedPhases):
    """The round as every tab describes it."""

    scorer: ScorerRound
    next_step_words = NEXT_STEPS
    row_field = "scorer"
    final_release_of = staticmethod(selectors.final_release)
    config_of = staticmethod(selectors.round_config)

    @cached_property
    def program(self) -> ProgramVersion | None:
        """The version of the program scoring now, read when a tab shows it (the Data and
        Results tabs do not)."""
        return selectors.current_program(scorer=self.scorer)

    @property
    def per_target(self) -> bool:
        return self.config.attack_mode == "per_target"

    @property
    def attack_counts_text(self) -> str:
        """Which of a team's attacks counts (the round's ``attack_counts``), in a sentence."""
        return score_text.attack_counts_text(self.config)

    @property
    def release_columns(self) -> list[dict]:
        return columns_of(self.config.release_columns, primary=self.config.release_primary)

    @property
    def public_labels(self) -> list[str]:
        """The public board's scores (``public_columns``) by their labels, in its order."""
        return [column_label(column) for column in self.config.public_release_columns]

    @property
    def attack_columns(self) -> list[dict]:
        return columns_of(self.config.attack_columns, primary=self.config.attack_primary)


def columns_of(columns, *, primary: str) -> list[dict]:
    """The columns as the pages show them: key, label in the reader's language, direction,
    whether it is the primary one."""
    return [
        {
            "key": column.key,
            "label": column_label(column),
            "higher": column.higher_is_better,
            "primary": column.key == primary,
        }
        for column in columns
    ]


# --- the overview ------------------------------------------------------------------------


def flow(*, state: RoundState, team: Team | None) -> list[FlowStep]:
    """The overview's five-step picture, the box the round (and the team) is at marked."""
    boxes = [
        (_("Download the data"), _("The files for every team and your team's own folder.")),
        (
            _("Upload a release"),
            _("The organizer's program scores it in a sandbox; choose your final one."),
        ),
        (_("Freeze"), _("Each team's final release becomes a target the other teams attack.")),
        (
            _("Attack the others"),
            _("Download the targets' public files and upload your attacks on them."),
        ),
        (_("Results"), _("The release ranking, the attack ranking and the attack matrix.")),
    ]

    def releasing() -> int:
        if team is not None and state.final_release(team) is None:
            return 0 if not state.release_open else 1
        return 1

    return two_sided_flow(state, boxes, releasing=releasing)


# --- the submit tab ----------------------------------------------------------------------


def _release_scores(release: Release, state: RoundState) -> list[dict]:
    scores = release.scores or {}
    return [
        {
            "key": column["key"],
            "text": score_text.format_score(scores[column["key"]])
            if scores.get(column["key"]) is not None
            else "—",
        }
        for column in state.release_columns
    ]


def target_choices(*, state: RoundState, team: Team) -> list:
    """The targets the team may attack, each with ``used``: its uploads on it that count
    against the attack phase's per-target limit (``target_uses``, one query)."""
    targets = list(selectors.attack_target_choices(scorer=state.scorer, team=team))
    uses = attack_target_uses(state, Attack.objects.filter(scorer=state.scorer, team=team))
    for target in targets:
        target.used = uses.get(target.pk, 0)
    return targets


def release_rows(*, state: RoundState, team: Team) -> list[Release]:
    """The team's releases, newest first, each with its scores as stored, its failed gates,
    its failure message in the reader's language and whether it is the final one."""
    releases = list(
        selectors.team_releases(scorer=state.scorer, team=team).select_related("program")
    )
    state.final_release_found(team, selectors.final_release_among(releases))
    final = state.final_release(team)
    for release in releases:
        release.shown = _release_scores(release, state)
        release.is_final = final is not None and release.pk == final.pk
        release.failed_gates = (
            [
                score_text.gate_text(gate, config=state.config)
                for gate in selectors.gate_failures(release.scores or {}, config=state.config)
            ]
            if release.status == Status.FINISHED
            else []
        )
        release.failure = job_message_text(release) if release.status == Status.FAILED else ""
    return releases


def attack_rows(*, state: RoundState, team: Team, is_organizer: bool = False) -> list[Attack]:
    """The team's attacks, newest first, their scores as the reader may see them now
    (``attack_visibility``), an all-target upload's per-target scores likewise; ``counts``:
    an upload that counts now, where the round counts the last or the chosen one."""
    visibility = selectors.attack_visibility(scorer=state.scorer, is_organizer=is_organizer)
    names: dict[str, str] = {}  # the targets' names, read for an all-target upload's cells
    attacks = list(selectors.team_attacks(scorer=state.scorer, team=team).select_related("program"))
    keys = [column.key for column in state.config.attack_columns]
    counted = selectors.team_counted_attacks(scorer=state.scorer, team=team)
    for attack in attacks:
        attack.counts = attack.pk in counted
        finished = attack.status == Status.FINISHED
        scores = (
            selectors.attack_scores_for(attack, visibility=visibility, config=state.config)
            if finished
            else {}
        )
        attack.shown = [scores.get(key, {"text": "—"})["text"] for key in keys]
        attack.per_target = []
        if finished and attack.target_id is None:
            if not names:
                names = {
                    t.team.slug: t.team.name for t in selectors.round_targets(scorer=state.scorer)
                }
            for slug, values in sorted((attack.targets or {}).items()):
                cells = [
                    selectors.shown_value(
                        values.get(key), visibility=visibility, bands=state.config.bands
                    )["text"]
                    for key in keys
                ]
                attack.per_target.append({"name": names.get(slug, slug), "cells": cells})
        attack.failure = job_message_text(attack) if attack.status == Status.FAILED else ""
    return attacks
