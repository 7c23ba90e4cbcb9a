"""Everything that writes the 2015 game's submissions, targets, attacks and operations."""

from pwscup.pwscup2015.services.anonymization import (
    anonymization_submission_create,
    anonymization_submission_score,
    anonymization_submission_select,
)
from pwscup.pwscup2015.services.attacks import attack_submission_create, attack_submission_score
from pwscup.pwscup2015.services.freeze import (
    round_assign_samples,
    round_freeze,
    target_builtin_score,
)
from pwscup.pwscup2015.services.maintenance import round_rescore_all, rounds_auto_freeze
from pwscup.pwscup2015.services.operations import (
    round_freeze_request,
    round_operation_request,
    round_operation_run,
    round_publish_request,
    round_rescore_request,
    round_results_set,
)
from pwscup.submissions.services.uploads import upload_note_set

__all__ = [
    "anonymization_submission_create",
    "anonymization_submission_score",
    "anonymization_submission_select",
    "attack_submission_create",
    "attack_submission_score",
    "round_assign_samples",
    "round_freeze",
    "round_freeze_request",
    "round_operation_request",
    "round_operation_run",
    "round_publish_request",
    "round_rescore_request",
    "round_results_set",
    "round_rescore_all",
    "rounds_auto_freeze",
    "target_builtin_score",
    "upload_note_set",
]
