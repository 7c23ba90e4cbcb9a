"""The DP round's answers to the API's round status and standings, the same shape for every
kind (``RoundKind.api_round_status``, ``api_leaderboard``), and the round's files they point
to:

* ``GET dp/sample_estimate.csv``    the Data tab's sample estimate (the uniform one);
* ``GET dp/dp_config.json``, ``dp/practice_table.csv``  the kit's configuration and practice
  table, what the kit's commands read.

The team's estimates in the status, and their addresses (``dp/estimates/<id>/``), are the
declared type's (``submissions.py``). The same access rules as the pages: a team member (or
an organizer) of a DP round, else 404; the hidden table is never served, scores only once
the round is closed and scored.
"""

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.core.errors import Refused
from pwscup.core.exports import csv_bytes_response, json_text_response
from pwscup.core.rest import errors
from pwscup.core.rest_schemas import CSV_ANSWER, JSON_OBJECT
from pwscup.dp import kit, services
from pwscup.dp.api.submissions import dp_part, estimate_type_key
from pwscup.dp.ranking import level_boards, overall_ranking
from pwscup.dp.selectors import team_levels
from pwscup.submissions import round_api
from pwscup.submissions.round_endpoints import RoundEndpoint
from scoring.dp.exact import exact_text, format_epsilon


def round_status(request, access) -> dict:
    """``DPKind.api_round_status``: one estimate upload per level (open while the release
    phase is), the sample estimate and the team's own releases (the team's estimates are
    the declared type's)."""
    answer = {"submission_types": [], "downloads": [], "uploads": [], "metrics": []}
    answer["metrics"] = [
        round_api.metric("mean_l2", _("mean L2 error"), headline=True),
        round_api.metric("mean_spearman", _("mean Spearman correlation"), headline=True),
    ]
    if not round_api.is_participant(access):
        return answer
    dp_round = dp_part(access)
    args = round_api.round_args(access.round)
    answer["downloads"] += [
        round_api.download(
            kit.sample_estimate_name(dp_round=dp_round),
            _("Sample estimate"),
            reverse("api:dp-sample-estimate", args=args),
        ),
        round_api.api_download(access, "dp-config", kit.CONFIG_NAME, _("Configuration")),
        round_api.api_download(access, "dp-practice-table", kit.PRACTICE_NAME, _("Practice table")),
    ]
    if access.team is None:
        return answer
    is_open = dp_round.is_open()
    for level in team_levels(dp_round=dp_round, team=access.team):
        answer["submission_types"].append(
            {
                "key": estimate_type_key(level.id),
                "label": _("Estimate at level %(level)s (ε = %(epsilon)s)")
                % {"level": level.id, "epsilon": format_epsilon(level.budget)},
                "url": reverse("api:dp-level-estimates", args=[*args, level.id]),
                "open": is_open,
                "fields": [],
                "files": round_api.upload_files(),  # one estimate CSV, of any name
                "selectable": False,  # the latest valid estimate of a level counts
                "counts": "",
            }
        )
        for charge in level.charges:
            if charge.release_file:
                name = f"release_{level.id}_{charge.number}.csv"
                answer["downloads"].append(
                    round_api.download(
                        name,
                        _("Your release %(n)s at level %(level)s")
                        % {"n": charge.number, "level": level.id},
                        reverse("api:dp-release-file", args=[*args, level.id, charge.number]),
                    )
                )
    return answer


def round_leaderboard(request, access) -> dict:
    """``DPKind.api_leaderboard``: the per-level tables and the overall ranking of the
    leaderboard page, after the close only (404 ``not_closed`` before: no score leaks)."""
    dp_round = dp_part(access)
    if not services.dp_round_results_ready(dp_round=dp_round):
        raise Refused(_("Scores are published after the close."), status=404, code="not_closed")
    boards = level_boards(dp_round=dp_round)
    tables = []
    for board in boards:
        rows = [
            [
                row.rank,
                row.team.name,
                row.label,
                exact_text(row.spent),
                round_api.score_cell(row.mean_l2),
                round_api.score_cell(row.mean_spearman),
            ]
            for row in board.verified
        ]
        tables.append(
            round_api.ranking_table(
                _("Level %(level)s (ε = %(epsilon)s)")
                % {"level": board.level, "epsilon": exact_text(board.epsilon)},
                [_("Method"), "ε", "mean L2", "mean Spearman"],
                rows,
            )
        )
    tables.append(
        round_api.ranking_table(
            _("Overall ranking"),
            [_("Sum of ranks")],
            ([row.rank, row.team.name, row.total] for row in overall_ranking(boards)),
        )
    )
    return {"note": "", "tables": tables}


def _kit_reader(access) -> None:
    """The kit's files are for a team member or an organizer of the round (the kit page's
    rule), else 404."""
    if access.team is None and not access.is_organizer:
        raise Http404


def sample_estimate(request, access, dp_round):
    _kit_reader(access)
    return csv_bytes_response(
        kit.sample_estimate(dp_round=dp_round), kit.sample_estimate_name(dp_round=dp_round)
    )


def config_file(request, access, dp_round):
    _kit_reader(access)
    return json_text_response(kit.config_text(dp_round=dp_round), kit.CONFIG_NAME)


def practice_table(request, access, dp_round):
    _kit_reader(access)
    return csv_bytes_response(kit.practice_table(dp_round=dp_round), kit.PRACTICE_NAME)


# Served under /api/ by the API (``DPKind.api_round_endpoints``).
ROUND_ENDPOINTS = [
    RoundEndpoint(
        "dp/sample_estimate.csv",
        "dp-sample-estimate",
        sample_estimate,
        part=dp_part,
        responses=CSV_ANSWER,
        summary=gettext_lazy(
            "The sample estimate (uniform counts), an estimate.csv that uploads as is"
        ),
    ),
    RoundEndpoint(
        "dp/dp_config.json",
        "dp-config",
        config_file,
        part=dp_part,
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary=gettext_lazy(
            "The round's public configuration (dp_config.json, for python -m scoring dp)"
        ),
    ),
    RoundEndpoint(
        "dp/practice_table.csv",
        "dp-practice-table",
        practice_table,
        part=dp_part,
        responses=CSV_ANSWER,
        summary=gettext_lazy(
            "The kit's practice table: random rows over the public values, not the hidden table"
        ),
    ),
]
