"""What the DP round's tabs explain (reads only): where the round is in its flow, what a team
should do now, the metrics' worked example (computed by ``scoring.dp``, so the page's numbers
are the scorer's), and the configuration in plain words."""

from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.core.time_zones import in_zone_html, sentence_html
from pwscup.dp import engine
from pwscup.dp.models import DPRound
from pwscup.dp.selectors import LevelView
from pwscup.kinds import tabs
from pwscup.kinds.tabs import DATA, RULES, SUBMIT, FlowStep, NextStep, tab_url
from scoring.dp.utility import l2, spearman

# The worked example of the Rules tab: four cells, the truth, a team's estimate and the
# uniform guess the sample estimate makes (every cell N / cells).
EXAMPLE_TRUTH = (10, 5, 3, 2)
EXAMPLE_ESTIMATE = (8, 6, 1, 3)


def round_state(dp_round: DPRound, now=None) -> str:
    """``"upcoming"``, ``"open"`` or ``"closed"`` (the release phase's window)."""
    now = now or timezone.now()
    if now < dp_round.opens_at:
        return "upcoming"
    return "closed" if dp_round.has_closed(now) else "open"


def _at(text: str, dp_round: DPRound, moment, name: str) -> str:
    """``text`` with its ``%(name)s`` the moment in the round's time zone, as a page writes it."""
    return sentence_html(text, **{name: in_zone_html(moment, dp_round.round.timezone)})


def level_url(round_, level: str) -> str:
    return reverse("dp:level", args=[round_.competition.slug, round_.slug, level])


def leaderboard_url(round_) -> str:
    return reverse("dp:leaderboard", args=[round_.competition.slug, round_.slug])


def flow_steps(*, state: str, scored: bool, levels: list[LevelView], team) -> list[FlowStep]:
    """The overview's picture: read the rules → spend budget → upload an estimate per level →
    close → scores and ranking, the step the round (and the reader's team) is at marked."""
    steps = [
        (_("Read the rules"), _("What you estimate, how ε is spent, how you are ranked.")),
        (
            _("Spend your budget"),
            _("Noisy count queries or noisy releases of the table, up to ε per level."),
        ),
        (
            _("Upload an estimate per level"),
            _("Your counts of every workload histogram; the last valid one counts."),
        ),
        (_("The round closes"), _("Estimates are frozen; nobody sees a score before.")),
        (
            _("Scores and ranking"),
            _("L2 error and Spearman against the true counts; ranks per level and overall."),
        ),
    ]
    if state == "upcoming" or (state == "open" and team is None):
        now = 0
    elif state == "open":
        started = any(level.charges or level.estimates for level in levels)
        now = 2 if started else 1
    else:
        now = 4 if scored else 3
    return tabs.flow_steps(steps, now)


def next_steps(
    *, dp_round: DPRound, state: str, scored: bool, levels: list[LevelView]
) -> list[NextStep]:
    """ "What to do now" for a team: one line per level that still needs something."""
    round_ = dp_round.round
    if state == "upcoming":
        return [
            NextStep(
                _at(
                    _(
                        "The round opens on %(opens)s. Meanwhile read the rules and download "
                        "the starter kit."
                    ),
                    dp_round,
                    dp_round.opens_at,
                    "opens",
                ),
                tab_url(round_, RULES),
                _("Rules and scoring"),
            )
        ]
    if state == "closed":
        if scored:
            return [
                NextStep(
                    _("The round is closed: see the leaderboard."),
                    leaderboard_url(round_),
                    _("Leaderboard"),
                )
            ]
        return [NextStep(_("The round is closed: the scores are being computed. Come back soon."))]
    steps = []
    if not any(level.estimates for level in levels) and not engine.declared_only(dp_round.config):
        steps.append(
            NextStep(
                _(
                    "Start with the sample estimate of the Data tab: it uploads as is at any "
                    "level and costs no budget."
                ),
                tab_url(round_, DATA),
                _("Data"),
            )
        )
    for level in levels:
        if level.current_estimate is not None:
            continue
        if level.charges:
            text = _("Upload an estimate for level %(level)s (you have none yet).")
        else:
            text = _("Open level %(level)s and ask a first query, or upload an estimate.")
        steps.append(
            NextStep(
                text % {"level": level.id},
                level_url(round_, level.id),
                _("Open level %(level)s") % {"level": level.id},
            )
        )
    if len(steps) == 0:
        steps.append(
            NextStep(
                _at(
                    _(
                        "Every level has an estimate. Until %(closes)s you may spend the rest "
                        "of your budget and upload a better one: the last valid one counts."
                    ),
                    dp_round,
                    dp_round.closes_at,
                    "closes",
                ),
                tab_url(round_, SUBMIT),
                _("Submit"),
            )
        )
    return steps


@dataclass(frozen=True)
class ExampleRow:
    cell: str
    truth: float
    estimate: float
    uniform: float
    truth_rank: float
    estimate_rank: float


def worked_example() -> dict:
    """Four cells: the truth, an estimate and the uniform guess, with their L2 and Spearman
    as ``scoring.dp.utility`` computes them (the leaderboard's code)."""
    # Imported here, not with the module: scipy.stats costs about a second of CPU, and every
    # process that loads the URLs (web, worker, each manage.py command) would pay it at start.
    from scipy.stats import rankdata

    truth, estimate = list(EXAMPLE_TRUTH), list(EXAMPLE_ESTIMATE)
    uniform = [sum(truth) / len(truth)] * len(truth)
    truth_ranks, estimate_ranks = rankdata(truth), rankdata(estimate)
    rows = [
        ExampleRow(
            _("cell %(n)s") % {"n": k + 1},
            truth[k],
            estimate[k],
            uniform[k],
            float(truth_ranks[k]),
            float(estimate_ranks[k]),
        )
        for k in range(len(truth))
    ]
    return {
        "rows": rows,
        "total": sum(truth),
        "l2": l2(estimate, truth),
        "spearman": spearman(estimate, truth),
        "uniform_value": uniform[0],
        "uniform_l2": l2(uniform, truth),
        "uniform_spearman": spearman(uniform, truth),
        "squares": " + ".join(f"{(e - t) ** 2:g}" for e, t in zip(estimate, truth, strict=True)),
    }


def public_config(dp_round: DPRound) -> dict:
    """What the round declares in public: N, the attributes and their domains, the workload
    (with each target's cells), the levels, the tracks and the scoring options."""
    config = dp_round.config
    parsed = engine.config_of(config)
    return {
        "rows": dp_round.round.original_rows,
        "attributes": [
            {"name": name, "values": list(values), "size": len(values)}
            for name, values in config["attributes"].items()
        ],
        "workload": [
            {"id": t.id, "attributes": list(t.attributes), "cells": parsed.cells(t.id)}
            for t in parsed.workload
        ],
        "levels": [{"id": level["id"], "epsilon": level["epsilon"]} for level in config["levels"]],
        "interactive": parsed.interactive,
        "batch": parsed.batch,
        "batch_platform": engine.batch_platform_enabled(config),
        "declared": engine.declared_enabled(config),
        "uploads": not engine.declared_only(config),
        "query_types": list(config.get("query_types", [])),
        "max_charges": config.get("max_charges_per_level"),
        "adjacency": config.get("adjacency", "replace"),
        "rank_metric": config.get("rank_metric", "l2"),
        "gate": config.get("spearman_gate"),
        "header": ",".join(["target", *parsed.workload_attributes, "count"]),
    }
