"""What every sequential service shares: the names the two jobs are sent by and the
organizer audit log. One module so that the services of masters, releases, freezes and
attacks need nothing of each other for these."""

from pwscup.competitions.services import audit_record
from pwscup.sequential.models import SequentialRound

# The jobs, sent by name (``pwscup.submissions.broker.job_send``): tasks.py imports the
# services, so the services do not import the tasks.
CHECK_RELEASE_TASK = "pwscup.sequential.tasks.check_release"
SCORE_ATTACK_TASK = "pwscup.sequential.tasks.score_attack"


AUDIT_ACTIONS = {
    "freeze": "round_frozen",
    "draw": "samples_drawn",
    "master": "round_edited",
    "create": "round_created",
}


def audit(*, user, sequential: SequentialRound, action: str, **detail) -> None:
    """Keep an action on the round in the console's audit log, also one no one made (the
    step frozen at its close by the schedule: ``user`` is ``None``)."""
    if action not in AUDIT_ACTIONS:
        return
    round_ = sequential.round
    audit_record(
        user=user,
        competition=round_.competition,
        round=round_,
        action=AUDIT_ACTIONS[action],
        frozen_steps=sequential.frozen_steps,
        **detail,
    )
