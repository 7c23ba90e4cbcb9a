"""The DP round page's five tabs (``pwscup.kinds.tabs``): Overview (the game in plain words,
its flow, what to do now, then the paper's words), Data (the public configuration, the starter
kit, the sample estimate), Rules and scoring (each metric in a sentence, a worked example,
the budget rules, the configuration), Submit (the team's levels and their budgets, each with
its page) and Results (the team's estimates; the leaderboard after the close)."""

import json

from django.http import Http404

from pwscup.core.toolkit import install_argument, wheel_filename
from pwscup.dp import guide, kit, services
from pwscup.dp.ranking import gate_name, team_standing
from pwscup.dp.selectors import team_levels
from pwscup.dp.views.common import dp_round_or_404
from pwscup.kinds.tabs import DATA, OVERVIEW, RESULTS, RULES, SUBMIT, UploadGates, render_tab


def round_page(request, access, tab):
    """One tab of the round page; a closed round not scored yet is sent to the worker."""
    dp_round = dp_round_or_404(access)
    services.dp_round_score_request(dp_round=dp_round)
    draw = TABS.get(tab)
    if draw is None:
        raise Http404("No such tab.")
    state = guide.round_state(dp_round)
    context = {
        "dp_round": dp_round,
        "state": state,
        "scored": state == "closed" and dp_round.scored_at is not None,
        "config": guide.public_config(dp_round),
        "can_download": access.team is not None or access.is_organizer,
    }
    template, extra = draw(access, dp_round, context)
    return render_tab(request, access, tab, f"dp/{template}", {**context, **extra})


def _overview(access, dp_round, context):
    levels = team_levels(dp_round=dp_round, team=access.team)
    flow = guide.flow_steps(
        state=context["state"], scored=context["scored"], levels=levels, team=access.team
    )
    steps = guide.next_steps(
        dp_round=dp_round, state=context["state"], scored=context["scored"], levels=levels
    )
    return "overview.html", {"flow": flow, "next_steps": steps}


def _data(access, dp_round, context):
    return "data.html", {
        "wheel": wheel_filename(),
        "install": install_argument(kit.TOOLKIT_EXTRA),
        "sample": kit.sample_preview(dp_round=dp_round),
        "sample_name": kit.sample_estimate_name(dp_round=dp_round),
    }


def _rules(access, dp_round, context):
    return "rules.html", {
        "example": guide.worked_example(),
        "config_json": json.dumps(dp_round.config, indent=2, ensure_ascii=False),
    }


def _standing(access, dp_round) -> dict:
    """Where the team stands once the round is scored: each level's counting estimate
    against the gate, and the ranks (``pwscup.dp.ranking.team_standing``)."""
    ready = services.dp_round_results_ready(dp_round=dp_round)
    context = {"ready": ready, "gate_names": [], "upload_gates": [], "standing": None}
    name = gate_name(dp_round.config)
    if name:
        context["gate_names"] = [name]
    if ready and access.team is not None:
        standing = team_standing(dp_round=dp_round, team=access.team)
        context["standing"] = standing
        context["upload_gates"] = [
            UploadGates(
                label=f"{level} · #{row.estimate.number}",
                checks=((name, row.passes_gate),) if name else (),
            )
            for level, row in standing.levels.items()
        ]
    return context


def _submit(access, dp_round, context):
    return "submit.html", {
        "levels": team_levels(dp_round=dp_round, team=access.team),
        **_standing(access, dp_round),
    }


def _results(access, dp_round, context):
    standing = _standing(access, dp_round)
    own = standing["standing"].levels if standing["standing"] else {}
    levels = team_levels(dp_round=dp_round, team=access.team)
    rows = [
        {
            "level": level,
            "latest": level.estimates[0] if level.estimates else None,
            "row": own.get(level.id),
        }
        for level in levels
    ]
    return "results.html", {"rows": rows, **standing}


TABS = {OVERVIEW: _overview, DATA: _data, RULES: _rules, SUBMIT: _submit, RESULTS: _results}
