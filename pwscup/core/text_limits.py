"""The one place that declares how long a text organizers or teams type may be, and the
check every service applies (the forms' ``max_length`` and the bundle's JSON Schema state
the same numbers; a test compares them).

A text field without a bound let one bundle put a 50 MB description on the home page
(52 MB for every visitor). Names are ``CharField``s (their column bounds them); these are
the ``TextField``s.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# A competition's description (Markdown), shown on the home page and its own page.
DESCRIPTION_MAX_LENGTH = 20_000
# Why a team was disqualified (told to the team).
REASON_MAX_LENGTH = 2_000
# A team's anonymization or attack policy beside its slides.
POLICY_MAX_LENGTH = 4_000
# How many rounds, and presentation windows, a competition bundle may hold.
BUNDLE_MAX_ROUNDS = 100
BUNDLE_MAX_WINDOWS = 101


def text_length_check(*, field: str, label: str, value: str, max_length: int) -> None:
    """Refuse ``value`` longer than ``max_length`` characters: ``ValidationError`` keyed
    ``field``, naming ``label``, the limit and the length."""
    if value is not None and len(value) > max_length:
        raise ValidationError(
            {
                field: _("%(field)s has at most %(limit)s characters; this one has %(length)s.")
                % {"field": label, "limit": f"{max_length:,}", "length": f"{len(value):,}"}
            }
        )
