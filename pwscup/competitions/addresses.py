"""The address (slug) of a competition or a round: the one rule every entry point that names
one calls (``slug_check``: the console, the wizard, the kinds' console pages, the admin, the
services, a bundle's import), and the write that keeps it when two requests take one
address at the same moment (``kept_under_address``)."""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from pwscup.competitions.models import Competition, Round
from scoring.identifiers import IDENTIFIER_MAX_LENGTH, is_identifier

# /c/<competition>/team/… and /c/<competition>/join/<code>/ (pwscup/accounts/urls.py), the
# competition's presentations and results archive (pwscup/presentations/, pwscup/archives/)
# and its standings (/c/<competition>/standings/, pwscup/pages/standings.py).
RESERVED_ROUND_SLUGS = frozenset({"team", "join", "presentations", "archive", "standings"})
# The console's own pages beside ``console/<competition>/`` (the bundle import: pwscup/bundles/).
RESERVED_COMPETITION_SLUGS = frozenset({"new", "creators", "import"})
# What the URLs' ``<slug:…>`` converter matches, within the models' SlugField length: the
# one identifier rule (scoring.identifiers).
SLUG_MAX_LENGTH = IDENTIFIER_MAX_LENGTH


def slug_check(*, slug, competition: Competition | None = None, current=None) -> None:
    """The one rule of an address (slug) on the site; every entry point that names one
    (console, wizard, kinds' console pages, admin, services) calls it.

    Without ``competition``: a competition's address, unique on the site. With it: a
    round's address in that competition, unique there and not one of
    ``RESERVED_ROUND_SLUGS`` (the team pages' addresses); a competition's is not one of
    ``RESERVED_COMPETITION_SLUGS`` (the console's pages). Either way 1 to 50 letters,
    digits, hyphens or underscores. ``current`` is the competition or round being edited:
    its own address is not taken.

    Raises ``ValidationError`` keyed ``slug``, with a message that names the value.
    """
    text = slug if isinstance(slug, str) else ""
    if not is_identifier(text):
        message = _(
            "The address %(value)s is not valid: use 1 to %(max)s letters, digits, hyphens "
            "or underscores."
        ) % {"value": repr(slug)[:80], "max": SLUG_MAX_LENGTH}
    elif competition is not None and text in RESERVED_ROUND_SLUGS:
        message = _("The address %(value)s is taken by the team pages: choose another one.") % {
            "value": text
        }
    elif competition is None and text in RESERVED_COMPETITION_SLUGS:
        message = _(
            "The address %(value)s is taken by the console's pages: choose another one."
        ) % {"value": text}
    elif competition is None and _taken(Competition.objects.filter(slug=text), current):
        message = _("A competition with this address already exists.")
    elif competition is not None and _taken(
        Round.objects.filter(competition=competition, slug=text), current
    ):
        message = _("This competition already has a round at this address.")
    else:
        return
    raise ValidationError({"slug": message})


def _taken(same_address, current) -> bool:
    if current is not None and current.pk is not None:
        same_address = same_address.exclude(pk=current.pk)
    return same_address.exists()


def kept_under_address(write, *, slug, competition: Competition | None = None, current=None):
    """``write()`` (a competition's or a round's insert, or a round's move to another
    address, after ``slug_check`` passed) in a savepoint. Two requests at the same moment (an
    organizer's double click, two organizers editing two rounds) can both find the address
    free; the database's unique key then refuses the later write, and its caller gets
    ``slug_check``'s own refusal (``ValidationError`` keyed ``slug``) instead of the
    ``IntegrityError``. ``current``: the row being moved (its own address is not taken). The
    caller's transaction goes on."""
    try:
        with transaction.atomic():
            return write()
    except IntegrityError:
        # The address is taken now: refused (another key's refusal is raised as it is).
        slug_check(slug=slug, competition=competition, current=current)
        raise
