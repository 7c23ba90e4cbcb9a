"""What the synthetic round's services share: the tasks' names, the phases' names, stored
bytes and how a scoring error becomes a form's message."""

from django.core.exceptions import ValidationError
from django.utils.translation import get_language

from pwscup.submissions.services.two_sided import TWO_SIDED_PHASE_LABELS

SCORE_RELEASE_TASK = "pwscup.synthetic.score_release"
SCORE_TARGET_TASK = "pwscup.synthetic.score_target"
SCORE_ATTACK_TASK = "pwscup.synthetic.score_attack"

# The game's names of the core's phases: its schedule, its bundle and its refusals say them.
PHASE_LABELS = TWO_SIDED_PHASE_LABELS


def form_error(field: str, error) -> ValidationError:
    """A ``scoring`` error as a form's error on ``field``, in the reader's language."""
    text = error.render(get_language()) if hasattr(error, "render") else str(error)
    return ValidationError({field: text})
