"""What the synthetic round's services share: the tasks' names, the phases' names, stored
bytes, the round's row lock and how a scoring error becomes a form's message."""

from django.core.exceptions import ValidationError
from django.utils.translation import get_language

from pwscup.submissions.services.two_sided import TWO_SIDED_PHASE_LABELS, two_sided_locked
from pwscup.synthetic.models import SyntheticRound

SCORE_RELEASE_TASK = "pwscup.synthetic.score_release"
SCORE_TARGET_TASK = "pwscup.synthetic.score_target"
SCORE_ATTACK_TASK = "pwscup.synthetic.score_attack"

# The game's names of the core's phases: its schedule, its bundle and its refusals say them.
PHASE_LABELS = TWO_SIDED_PHASE_LABELS


def stored_bytes(field) -> bytes:
    """The whole content of a stored file field (closed again)."""
    field.open("rb")
    try:
        field.seek(0)
        return field.read()
    finally:
        field.close()


def locked(synthetic: SyntheticRound) -> SyntheticRound:
    """The round's row, locked until the transaction ends: draws and the freeze take it, so
    two of them never interleave."""
    return two_sided_locked(synthetic)


def form_error(field: str, error) -> ValidationError:
    """A ``scoring`` error as a form's error on ``field``, in the reader's language."""
    text = error.render(get_language()) if hasattr(error, "render") else str(error)
    return ValidationError({field: text})
