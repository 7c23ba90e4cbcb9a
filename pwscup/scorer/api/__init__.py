"""The scorer round in the REST API: its uploads as declared submission types
(``submissions.py``: the core serves their endpoints and their place in the round status),
its downloads (``files.py``: declared round endpoints, served by the core too) and its
answers to the API's round status and standings, the same shape for every kind
(``round_status.py``)."""

from pwscup.scorer.api.files import ROUND_ENDPOINTS
from pwscup.scorer.api.round_status import round_leaderboard, round_status
from pwscup.scorer.api.submissions import SUBMISSION_TYPES

__all__ = ["ROUND_ENDPOINTS", "SUBMISSION_TYPES", "round_leaderboard", "round_status"]
