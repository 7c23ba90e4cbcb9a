"""What a round kind gives to the competition's results archive (``pwscup.archives``).

The archive is the competition's published outcome, downloadable from its page by anyone
who sees the competition: published targets, scores, attack matrices, final rankings, the
slides and a data card. It never holds a secret unless the organizer ticks that secret
when publishing the archive: each kind includes a member marked with one of ``SECRETS``
only when that key is in the ``secrets`` it is given.
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

ORIGINAL = "original"
SAMPLES = "samples"
PERMUTATIONS = "permutations"
GROUND_TRUTH = "ground_truth"

# The secrets an organizer may tick, in the order the publishing form lists them.
SECRETS = {
    ORIGINAL: _("the original tables"),
    SAMPLES: _("the samples drawn from them (per team, per release)"),
    PERMUTATIONS: _("the permutations behind the published targets"),
    GROUND_TRUTH: _("the attacks' ground truth (who is who)"),
}


@dataclass(frozen=True)
class ArchiveMember:
    """One file of a round in the archive: ``name`` under ``rounds/<slug>/`` (``/`` between
    folders, no ``..``), its bytes, and ``secret``: the key of ``SECRETS`` it belongs to
    (``""``: published anyway)."""

    name: str
    content: bytes
    secret: str = ""


def round_data_card(
    *, rows, sha256, description, columns: list[dict], rules: list, files=None
) -> dict:
    """A round's data card as ``RoundKind.data_card`` returns it: its original table
    (``rows``, ``sha256``, ``description``), its ``columns`` (``{"name", "role", "domain"}``
    each) and ``rules``, the sentences saying how it was played and ranked, joined. An
    original that is a ZIP of files rather than one table (a scorer round's reference data:
    PWSCup 2016–2018's master M and transactions T) gives ``rows=None`` and its ``files``."""
    original = {"rows": rows, "sha256": sha256, "description": str(description)}
    if files is not None:
        original["files"] = list(files)
    return {
        "original": original,
        "columns": columns,
        "rules": " ".join(str(rule) for rule in rules),
    }
