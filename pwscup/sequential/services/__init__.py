"""What the sequential round writes, one module per thing written: ``rounds`` (the
configuration, the creation, the release schedule), ``schedule_edit`` (the schedule's later
edit), ``masters``, ``releases`` (uploads and their check), ``freeze`` (by hand and on
schedule) and ``attacks`` (targets, guesses, and the publication of the results that ends
the phase); ``common`` holds what they share. Every
entry point (console, admin, pages, tasks, the demo) calls these functions; the maths is
``scoring.sequential``, reached only through :mod:`pwscup.sequential.engine`. Uploads enter
through the core's upload pipeline (``upload_keep``) and are checked and scored by a Celery
worker with the core's job state machine, watched by the reaper like every kind's jobs
(``SequentialKind.jobs``)."""

from pwscup.sequential.services.attacks import attack_score, attack_upload, results_publish
from pwscup.sequential.services.common import CHECK_RELEASE_TASK, SCORE_ATTACK_TASK, audit
from pwscup.sequential.services.freeze import step_freeze, steps_auto_freeze
from pwscup.sequential.services.masters import (
    master_frame,
    master_timeline,
    master_upload,
    masters_draw,
    masters_draw_for_new_teams,
    step_table_bytes,
    team_master_bytes,
)
from pwscup.sequential.services.releases import (
    release_check,
    release_upload,
)
from pwscup.sequential.services.rounds import (
    schedule_normalise,
    schedule_set,
    sequential_config_validate,
    sequential_round_create,
)
from pwscup.sequential.services.schedule_edit import schedule_edit

__all__ = [
    "CHECK_RELEASE_TASK",
    "SCORE_ATTACK_TASK",
    "attack_score",
    "attack_upload",
    "audit",
    "master_frame",
    "master_timeline",
    "master_upload",
    "masters_draw",
    "masters_draw_for_new_teams",
    "release_check",
    "release_upload",
    "results_publish",
    "schedule_edit",
    "schedule_normalise",
    "schedule_set",
    "sequential_config_validate",
    "sequential_round_create",
    "step_freeze",
    "step_table_bytes",
    "steps_auto_freeze",
    "team_master_bytes",
]
