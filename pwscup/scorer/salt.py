"""The committed salt's rule and what every reader may see of it (docs/scorer.md, "Cohort
assignment by a committed salt").

The rule, which every team can recompute once the salt is revealed: the commitment is the
SHA-256 of the salt's text (hex, as ``printf '%s' SALT | sha256sum`` prints it); the teams
are ordered by SHA-256 of ``salt + ":" + team slug`` (hex, ascending) and get the slots
1, 2, … in that order.

``published_salt`` is the one read the Rules tab, the API's round status and the archive's
data card show: the salt itself, and each team's digest (which would let anyone test a
guessed salt), only once the organizers revealed it."""

import hashlib
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.core.languages import sentences
from pwscup.scorer.models import SlotSalt

# What a salt may hold: safe inside single quotes of a shell, no ":" (the rule's separator).
SALT_PATTERN = r"[A-Za-z0-9._-]{8,128}"


def salt_commitment(salt: str) -> str:
    """The SHA-256 of the salt's text, in hex.

    >>> salt_commitment("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(salt.encode("utf-8")).hexdigest()


def salt_digest(salt: str, slug: str) -> str:
    """A team's digest: the SHA-256 of ``salt:slug``, in hex."""
    return salt_commitment(f"{salt}:{slug}")


def salt_order(salt: str, slugs) -> list[str]:
    """The team slugs in slot order (slot 1 first): by their digest, ascending.

    >>> salt_order("abc", ["teama", "teamb", "teamc"])
    ['teama', 'teamc', 'teamb']
    """
    return sorted(slugs, key=lambda slug: (salt_digest(salt, slug), slug))


@dataclass(frozen=True)
class PublishedSalt:
    """What a reader of the round sees of its salt: the commitment and when it was made,
    when the slots were assigned from it and how many were changed since; once revealed,
    the salt and the assignment (``rows``: slug, digest, slot from the salt)."""

    commitment: str
    committed_at: object
    assigned_at: object = None
    changed: int = 0
    revealed_at: object = None
    salt: str = ""
    rows: list = field(default_factory=list)

    @property
    def slugs(self) -> str:
        return " ".join(row["slug"] for row in self.rows)

    def note(self) -> str:
        """The API's note, in the reader's language."""
        text = _(
            "The slots are assigned from a committed salt: SHA-256 of the salt %(commitment)s, "
            "committed at %(at)s."
        ) % {"commitment": self.commitment, "at": self.committed_at.isoformat()}
        revealed = self.revealed_at is not None
        return sentences(
            [text, revealed and _("The salt, revealed: %(salt)s.") % {"salt": self.salt}]
        )


def published_salt(scorer) -> PublishedSalt | None:
    """The round's salt as every reader may see it; ``None`` before any commitment."""
    salt = SlotSalt.objects.filter(scorer=scorer).first()
    if salt is None:
        return None
    shown = {
        "commitment": salt.commitment,
        "committed_at": salt.committed_at,
        "assigned_at": salt.assigned_at,
        "changed": len(salt.hand_changes or []),
    }
    if salt.revealed_at is None:
        return PublishedSalt(**shown)
    assigned = salt.assigned or []
    names = dict(
        Team.objects.filter(
            competition_id=scorer.round.competition_id, slug__in=[slug for slug, _slot in assigned]
        ).values_list("slug", "name")
    )
    rows = [
        {
            "slug": slug,
            "team": names.get(slug, slug),
            "digest": salt_digest(salt.salt, slug),
            "slot": slot,
        }
        for slug, slot in assigned
    ]
    return PublishedSalt(**shown, revealed_at=salt.revealed_at, salt=salt.salt, rows=rows)
