"""The DP round page's five tabs (``pwscup.kinds.tabs``): Overview (the game in plain words,
its flow, what to do now, then the paper's words), Data (the public configuration, the starter
kit, the sample estimate), Rules and scoring (each metric in a sentence, a worked example,
the budget rules, the configuration), Submit (the team's levels and their budgets, each with
its page) and Results (the team's estimates; the leaderboard after the close)."""

import json

from django.http import Http404

from pwscup.core.toolkit import wheel_filename
from pwscup.dp import guide, kit, services
from pwscup.dp.ranking import level_boards
from pwscup.dp.selectors import team_levels
from pwscup.dp.views.common import dp_round_or_404
from pwscup.kinds.tabs import DATA, OVERVIEW, RESULTS, RULES, SUBMIT, render_tab


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
        "sample": kit.sample_preview(dp_round=dp_round),
        "sample_name": kit.sample_estimate_name(dp_round=dp_round),
    }


def _rules(access, dp_round, context):
    return "rules.html", {
        "example": guide.worked_example(),
        "config_json": json.dumps(dp_round.config, indent=2, ensure_ascii=False),
    }


def _submit(access, dp_round, context):
    return "submit.html", {"levels": team_levels(dp_round=dp_round, team=access.team)}


def _results(access, dp_round, context):
    ready = services.dp_round_results_ready(dp_round=dp_round)
    own = {}
    if ready and access.team is not None:
        for board in level_boards(dp_round=dp_round):
            for row in [*board.verified, *board.declared]:
                if row.team.pk == access.team.pk:
                    own[board.level] = row
    levels = team_levels(dp_round=dp_round, team=access.team)
    rows = [
        {
            "level": level,
            "latest": level.estimates[0] if level.estimates else None,
            "row": own.get(level.id),
        }
        for level in levels
    ]
    return "results.html", {"ready": ready, "rows": rows}


TABS = {OVERVIEW: _overview, DATA: _data, RULES: _rules, SUBMIT: _submit, RESULTS: _results}
