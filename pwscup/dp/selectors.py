"""What the DP pages read: a team's ledgers and estimates, and the leaderboards after the close.

Scores and baselines exist only once the release phase has closed (``DPRound.scored_at``);
no selector returns a score, a truth or another team's charges before that.
"""

from dataclasses import dataclass, field
from fractions import Fraction

from pwscup.core.time_zones import answer_moment
from pwscup.dp.models import Charge, DPRound, Estimate, Ledger
from pwscup.kinds.rows import kind_row
from pwscup.submissions.models import Status
from pwscup.submissions.round_pages import first_finished
from pwscup.submissions.voids import counted, counted_among
from scoring.dp.exact import exact_text, format_epsilon


@dataclass
class LevelView:
    """One level as a team sees it: budget, spent, remaining, charges, estimates."""

    id: str
    budget: Fraction
    spent: Fraction = Fraction(0)
    charges: list = field(default_factory=list)
    estimates: list = field(default_factory=list)

    @property
    def remaining(self) -> Fraction:
        return self.budget - self.spent

    @property
    def budget_text(self) -> str:
        return format_epsilon(self.budget)

    @property
    def spent_text(self) -> str:
        return format_epsilon(self.spent)

    @property
    def remaining_text(self) -> str:
        return format_epsilon(self.remaining)

    @property
    def used_percent(self) -> int:
        return int(100 * self.spent / self.budget) if self.budget else 0

    @property
    def current_estimate(self):
        """The level's estimate that counts: the team's latest valid one not voided."""
        return first_finished(counted_among(self.estimates))


def dp_round_of(round) -> DPRound:
    dp_round = kind_row(round, "dp", lambda: DPRound.objects.get(round=round))
    if dp_round is None:  # the round came without one: as the read says it
        raise DPRound.DoesNotExist("The round has no DP part.")
    dp_round.round = round  # already read
    round.dp = dp_round  # and the reverse: ``round.dp`` costs no query either
    return dp_round


def team_levels(*, dp_round: DPRound, team) -> list[LevelView]:
    """Every level of the round with ``team``'s ledger, charges and estimates (own only)."""
    levels = {
        item["id"]: LevelView(id=item["id"], budget=Fraction(item["epsilon"]))
        for item in dp_round.config["levels"]
    }
    if team is None:
        return list(levels.values())
    for ledger in Ledger.objects.filter(dp_round=dp_round, team=team):
        if ledger.level in levels:
            levels[ledger.level].spent = Fraction(ledger.spent)
    for charge in Charge.objects.filter(
        ledger__dp_round=dp_round, ledger__team=team
    ).select_related("ledger"):
        if charge.ledger.level in levels:
            levels[charge.ledger.level].charges.append(charge)
    for estimate in Estimate.objects.filter(dp_round=dp_round, team=team).order_by(
        "-created_at", "-id"
    ):
        if estimate.level in levels:
            levels[estimate.level].estimates.append(estimate)
    return list(levels.values())


def team_level(*, dp_round: DPRound, team, level: str) -> LevelView | None:
    return next(
        (view for view in team_levels(dp_round=dp_round, team=team) if view.id == level), None
    )


def team_charge(*, dp_round: DPRound, team, level: str, number: int) -> Charge | None:
    return (
        Charge.objects.filter(
            ledger__dp_round=dp_round, ledger__team=team, ledger__level=level, number=number
        )
        .select_related("ledger")
        .first()
    )


def final_estimates(*, dp_round: DPRound, level: str) -> list[Estimate]:
    """Each team's last valid estimate at ``level`` not voided (the one that counts)."""
    chosen: dict[int, Estimate] = {}
    for estimate in (
        counted(Estimate.objects.filter(dp_round=dp_round, level=level, status=Status.FINISHED))
        .select_related("team")
        .order_by("-created_at", "-id")
    ):
        chosen.setdefault(estimate.team_id, estimate)
    return list(chosen.values())


def organizer_overview(*, dp_round: DPRound) -> list[dict]:
    """Per team: ε spent (of the level's budget) and charges at each level, and whether a
    valid estimate is in (for the organizer's console; no answer, release or score)."""
    levels = dp_round.level_ids
    budgets = {
        item["id"]: format_epsilon(Fraction(item["epsilon"])) for item in dp_round.config["levels"]
    }
    rows: dict[int, dict] = {}
    for team in dp_round.round.competition.teams.order_by("name"):
        rows[team.pk] = {
            "team": team,
            "levels": {
                lv: {"spent": "0", "charges": 0, "estimate": False, "budget": budgets[lv]}
                for lv in levels
            },
        }
    for ledger in Ledger.objects.filter(dp_round=dp_round):
        cell = rows.get(ledger.team_id, {}).get("levels", {}).get(ledger.level)
        if cell is not None:
            # As the team's pages write it (``LevelView.spent_text``): 1/6 (= 0.166667).
            cell.update(
                spent=format_epsilon(Fraction(ledger.spent)),
                charges=ledger.charges_count,
                budget=format_epsilon(Fraction(ledger.budget)),
            )
    for team_id, level in (
        counted(Estimate.objects.filter(dp_round=dp_round, status=Status.FINISHED))
        .values_list("team_id", "level")
        .distinct()
    ):
        cell = rows.get(team_id, {}).get("levels", {}).get(level)
        if cell is not None:
            cell["estimate"] = True
    return [
        {"team": row["team"], "cells": [row["levels"][lv] for lv in levels]}
        for row in rows.values()
    ]


def charge_json(charge: Charge, *, replayed: bool = False) -> dict:
    """One charge as the pages' JSON replies and the API show it: number, kind, ε, spent,
    remaining (exact), and the stored answer (or release summary)."""
    data = {
        "charge_no": charge.number,
        "kind": charge.kind,
        "request_id": charge.request_id,
        "epsilon": charge.epsilon,
        "spent": charge.spent_after,
        "remaining": exact_text(Fraction(charge.ledger.budget) - Fraction(charge.spent_after)),
        "created_at": answer_moment(charge.created_at),
        **charge.reply,
    }
    if replayed:
        data["replayed"] = True
    return data
