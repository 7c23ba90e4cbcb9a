"""Reads of the synthetic round page's five tabs (``pwscup.kinds.tabs``): the words of its flow
picture and of what the team should do now (``NEXT_STEPS``), the columns of the data, the team's
releases and attacks with the scores it may see, the matrix and the rankings. The views
render what these return; nothing here writes.

The one rule on what a page may show: the half of the challenge sets is
``selectors.visible_half`` (dev before the results are published, final after); every score
of an attack shown here comes from that half, and the ROC curves (final half) only once the
results are published."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from pwscup.accounts.models import Team
from pwscup.core.errors import Refused
from pwscup.submissions.attack_matrix import AttackMatrix
from pwscup.submissions.models import Status
from pwscup.submissions.round_pages import attacks_by_target
from pwscup.submissions.two_sided_tabs import (
    TwoSidedPhases,
    TwoSidedSteps,
    attack_target_uses,
)
from pwscup.synthetic import charts, engine, selectors
from pwscup.synthetic.api.round_status import (
    attacker_label,
    attacker_name,
    metric_name,
    worst_by_text,
)
from pwscup.synthetic.api.views import attack_metrics, attackable
from pwscup.synthetic.models import SynRelease, SyntheticRound
from scoring.synthetic.config import tpr_key

DOMAIN_SHOWN = 8


NEXT_STEPS = TwoSidedSteps(
    data=gettext_lazy(
        "Download your members table (teamX_train.csv) and read what each column is."
    ),
    upload=gettext_lazy(
        "Make a synthetic stand-in of it and upload it; the scores appear in a minute."
    ),
    choose_final=gettext_lazy(
        "Choose which of your scored releases is final (else the last valid one)."
    ),
    targets=gettext_lazy(
        "Download the other teams' releases, challenge sets and the auxiliary table."
    ),
    targets_anchor="#published",
    attack=gettext_lazy("Upload one membership score per challenge row for each target."),
    flow=(
        (
            gettext_lazy("Download your members table"),
            gettext_lazy("teamX_train.csv: the private rows of your team (nobody else sees them)."),
        ),
        (
            gettext_lazy("Upload a synthetic release"),
            gettext_lazy("A stand-in table with the same columns; scored by utility and fidelity."),
        ),
        (
            gettext_lazy("Freeze"),
            gettext_lazy(
                "Each team's final release is published with its challenge set and the "
                "auxiliary table."
            ),
        ),
        (
            gettext_lazy("Attack the others"),
            gettext_lazy(
                "Membership inference: score each challenge row, higher = more likely a member."
            ),
        ),
        (
            gettext_lazy("Results"),
            gettext_lazy("The attack matrix, the release ranking and the attack ranking."),
        ),
    ),
)


@dataclass(frozen=True)
class RoundState(TwoSidedPhases):
    """The round as every tab describes it."""

    synthetic: SyntheticRound
    next_step_words = NEXT_STEPS
    row_field = "synthetic"
    final_release_of = staticmethod(selectors.final_release)
    config_of = staticmethod(engine.round_config)

    @property
    def half(self) -> str:
        return selectors.visible_half(synthetic=self.synthetic)

    @property
    def levels(self) -> list[dict]:
        """The round's FPR levels, each with its score's key (``tpr@0.1``)."""
        return [{"level": level, "key": tpr_key(level)} for level in self.config.fpr_levels]

    @property
    def headline_level(self) -> float:
        return self.config.fpr_levels[0]


# --- the data tab ------------------------------------------------------------------------


def columns(*, synthetic: SyntheticRound, team: Team | None = None, draws=None) -> list[dict]:
    """Each column of ``P``: its role, the label mark, its range (numeric) or its domain
    (categorical: the size and the first values). Aggregates of ``P`` only, no row. In a
    round offering a data choice, ``P`` is the team's pack's population once it is uploaded
    (else the round's original, which has the same columns). ``draws``: the round's draws
    already read (``selectors.round_draws``)."""
    try:
        population = (
            engine.team_population(synthetic, team, draws).population
            if team is not None
            else engine.round_population(synthetic.round)
        )
    except Refused:
        population = engine.round_population(synthetic.round)
    config = population.config
    out = []
    for column in config.columns:
        role = config.roles[column]
        row = {"name": column, "role": role, "label": column == config.label}
        if role == "numeric":
            low, high = population.ranges[column]
            row["low"], row["high"] = low, high
        else:
            domain = population.domains[column]
            row["size"] = len(domain)
            row["values"] = list(domain[:DOMAIN_SHOWN])
            row["more"] = max(0, len(domain) - DOMAIN_SHOWN)
        out.append(row)
    return out


def published_files(*, state: RoundState, access) -> list[dict]:
    """After the freeze: each target a participant may download (the API's rule,
    ``attackable``: a team, the other teams'), with the data pack its rows are of."""
    if not state.frozen:
        return []
    packs = selectors.draw_pack_keys(synthetic=state.synthetic)
    return [
        {"target": target, "pack": packs.get(target.team_id, "")}
        for target in attackable(access, state.synthetic)
    ]


# --- the submit tab ----------------------------------------------------------------------


def team_releases(*, state: RoundState, team: Team) -> list[SynRelease]:
    """The team's releases, newest first, each with its gates and whether it is the final."""
    config = state.config
    final = state.final_release(team)
    releases = list(selectors.team_releases(synthetic=state.synthetic, team=team))
    for release in releases:
        scores = release.scores or {}
        release.is_final = final is not None and release.pk == final.pk
        release.gate_ml = scores.get("u_ml") is not None and scores["u_ml"] >= config.u_ml_min
        release.gate_u1 = scores.get("u_1") is not None and scores["u_1"] <= config.u_1_max
        # The copy gate's figures: R_copy, its reference (as many holdout rows; 0 for a
        # release scored before the gate had one) and the excess the limit bounds.
        release.copy_reference = scores.get("r_copy_holdout", 0.0)
        release.copy_excess = scores.get("r_copy", 1.0) - release.copy_reference
        release.gate_copy = (
            scores.get("r_copy") is not None
            and selectors.release_copy_gate(scores, config=config) is None
        )
    return releases


def attack_targets(*, state: RoundState, access) -> list[dict]:
    """After the freeze: each other team's target (``attackable``) with the caller's team's
    attacks on it, each with its scores on the visible half (``shown``: in the order and
    under the names the API gives them, ``attack_metrics``), and ``used``: those that count
    against the attack phase's per-target limit (``target_uses``)."""
    team = access.team
    if not state.frozen or team is None:
        return []
    half, keys = state.half, attack_metrics(state.synthetic)
    mine = selectors.team_attacks(synthetic=state.synthetic, team=team)
    attacks = list(mine)
    for attack in attacks:
        scores = getattr(attack, half) if attack.status == Status.FINISHED else None
        attack.shown = [{"name": metric_name(k), "value": scores.get(k)} for k in keys if scores]
    uses = attack_target_uses(state, mine)
    return attacks_by_target(attackable(access, state.synthetic), attacks, team=team, uses=uses)


def team_ranks(*, state: RoundState, team: Team) -> dict:
    """The team's place in the two rankings on the visible half (after the freeze)."""
    if not state.frozen:
        return {}
    results = selectors.round_results(synthetic=state.synthetic, half=state.half)
    rankings = {"release": results.releases, "attack": results.attacks}
    return {
        name: next((row for row in ranking if row["team"].pk == team.pk), None)
        for name, ranking in rankings.items()
    }


# --- the results tab ---------------------------------------------------------------------


def matrix(table: AttackMatrix) -> dict:
    """The attacker × target matrix on the visible half (``table``: ``selectors.attack_matrix``
    on that half) as the Results tab shows it, each cell marked when the attacker is the
    target's own team (no attack there), a disqualified team's target and row marked."""
    rows = []
    for row in table.rows:
        cells = [
            {"cell": cell, "own": row.team is not None and target.team_id == row.team.pk}
            for cell, target in zip(row.cells, table.targets, strict=True)
        ]
        rows.append(
            {
                "name": attacker_name(row),
                "builtin": row.builtin,
                "cells": cells,
                "disqualified": row.disqualified,
            }
        )
    return {"targets": table.targets, "rows": rows, "disqualified": table.disqualified}


def release_ranking(releases: list[dict]) -> list[dict]:
    """The release ranking's rows (``selectors.release_ranking``) as the Results tab shows
    them: each with who reached its worst attack (``worst_by_text``, and each name apart,
    ``worst_by_names``, kept whole on a phone), so that a team reads when that was the
    built-in null attack, i.e. chance."""
    return [
        {
            **row,
            "worst_by_text": worst_by_text(row),
            "worst_by_names": [attacker_name(by) for by in row["worst_by"]],
        }
        for row in releases
    ]


def roc_charts(rocs: list[dict]) -> list[charts.Roc]:
    """Each target's ROC chart (``selectors.roc_curves``), an attacker named as the matrix
    names it (``attacker_label``: a built-in attack by what it is, not by its key) and in
    the same colour on every chart."""
    named = [
        {
            **entry,
            "curves": [
                {**c, "name": attacker_label(c["name"], builtin=bool(c.get("builtin")))}
                for c in entry["curves"]
            ],
        }
        for entry in rocs
    ]
    colours = charts.curve_colours(named)
    return [charts.roc_chart(e["target"], e["curves"], colours=colours) for e in named]
