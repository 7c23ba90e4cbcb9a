"""What the DP round writes: the round, charges (queries and releases), estimates, scores.

Every entry point (pages, API, console, admin, demo) calls these functions. The mathematics
is ``scoring.dp``, reached through ``pwscup.dp.engine``. One module per thing written:
``rounds`` (creation, window, the close), ``charges`` (queries, releases), ``estimates``;
``common`` holds the request error and the checks they share.
"""

from pwscup.dp.ledger import LedgerRefusal
from pwscup.dp.services.charges import dp_query_answer, dp_release_request
from pwscup.dp.services.common import DPRequestError, dp_error_text, level_known
from pwscup.dp.services.estimates import (
    dp_declared_upload,
    dp_estimate_check,
    dp_estimate_from_answer,
    dp_estimate_from_release,
    dp_estimate_upload,
    dp_estimates_build_queued,
)
from pwscup.dp.services.rounds import (
    dp_round_close_now,
    dp_round_create,
    dp_round_rescore,
    dp_round_results_ready,
    dp_round_score,
    dp_round_score_by_id,
    dp_round_score_request,
    dp_round_window_end,
    dp_round_window_set,
    dp_rounds_score_closed,
)

__all__ = [
    "DPRequestError",
    "LedgerRefusal",
    "dp_declared_upload",
    "dp_error_text",
    "level_known",
    "dp_estimate_check",
    "dp_estimate_from_answer",
    "dp_estimate_from_release",
    "dp_estimate_upload",
    "dp_estimates_build_queued",
    "dp_query_answer",
    "dp_release_request",
    "dp_round_create",
    "dp_round_results_ready",
    "dp_round_score",
    "dp_round_score_by_id",
    "dp_round_score_request",
    "dp_round_close_now",
    "dp_round_window_end",
    "dp_round_rescore",
    "dp_round_window_set",
    "dp_rounds_score_closed",
]
