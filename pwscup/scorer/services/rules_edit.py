"""An organizer's edit of a scorer round's scores and rules after its creation (the round's
console page *Edit the round's rules*): the settings are checked as at the creation
(``scorer_config_validate``). Once a release or an attack is stored, the score keys, the
primary scores and the attack mode are fixed (the stored scores are keyed by them); once
the results are published, only the labels may change (a published ranking never changes).
The round's ranking version is bumped and the changed settings are recorded as the round's
edit."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import ranking_version_bump, round_audit_record
from pwscup.scorer.models import Attack, Release, ScorerRound
from pwscup.scorer.services.rounds import scorer_config_validate
from pwscup.submissions.services.two_sided import two_sided_locked
from scoring.scorer.round_config import CHOICES

# The settings the page changes (the others are kept). The files of an upload and the
# sandbox's limits apply from the change on: to the uploads and runs to come, a rescore too.
RULE_SETTINGS = (
    "release_columns",
    "release_primary",
    "public_columns",
    "attack_columns",
    "attack_primary",
    *CHOICES,
    "top_n",
    "unattacked",
    "bands",
    "gates",
    "release_files",
    "attack_files",
    "limits",
)
# What the stored scores are keyed by: fixed once an upload exists.
KEYED = ("release_columns", "release_primary", "attack_columns", "attack_primary", "attack_mode")
LABELS = ("label", "label_ja")


def _keyed(config: dict, setting: str):
    """What of ``setting`` the stored scores depend on (a table: its keys)."""
    value = config[setting]
    return sorted(column["key"] for column in value) if setting.endswith("_columns") else value


def _unlabelled(config: dict, setting: str):
    """``setting`` without the columns' labels (what a published ranking depends on)."""
    value = config[setting]
    if setting.endswith("_columns"):
        return [{k: v for k, v in column.items() if k not in LABELS} for column in value]
    return value


def _refusals(scorer: ScorerRound, before: dict, after: dict, changed: list[str]) -> list:
    """The errors of the changes the round's state forbids, each on its setting."""
    if scorer.results_published:
        fixed = [s for s in changed if _unlabelled(before, s) != _unlabelled(after, s)]
        text = _(
            "The results are published and a published ranking never changes: only the "
            "scores' labels can still change."
        )
    else:
        uploaded = (
            Release.objects.filter(scorer=scorer).exists()
            or Attack.objects.filter(scorer=scorer).exists()
        )
        keyed = [s for s in changed if s in KEYED and _keyed(before, s) != _keyed(after, s)]
        fixed = keyed if uploaded else []
        text = _(
            "Uploads are stored and their scores are keyed by the score keys, the primary "
            "scores and the attack mode: these can no longer change (the labels, the "
            "directions, the gates and the rules still can)."
        )
    return [ValidationError(text, code="fixed", params={"key": setting}) for setting in fixed]


def scorer_rules_edit(*, scorer: ScorerRound, rules: dict, user) -> list[str]:
    """Save the organizer's ``rules`` (any of ``RULE_SETTINGS``; one not given takes its
    default, the settings not on the page are kept) of ``scorer``'s round in one
    transaction. Raises a ``ValidationError`` on ``config`` as the creation does (each
    error naming its setting in ``params["key"]``), also for a setting the round's state
    fixes (``_refusals``). Returns the changed settings (none: nothing saved)."""
    unknown = set(rules) - set(RULE_SETTINGS)
    if unknown:
        raise TypeError(f"scorer_rules_edit: not a setting of the page: {sorted(unknown)}")
    with transaction.atomic():
        # Bumped before the round's row is locked, as a freeze does (``ranking_version_bump``).
        ranking_version_bump(round_ids=[scorer.round_id])
        scorer = two_sided_locked(scorer)
        round_ = scorer.round
        before = scorer_config_validate(round_.config)
        kept = {key: value for key, value in before.items() if key not in RULE_SETTINGS}
        after = scorer_config_validate({**kept, **rules})
        changed = [setting for setting in RULE_SETTINGS if before[setting] != after[setting]]
        if refusals := _refusals(scorer, before, after, changed):
            raise ValidationError({"config": refusals})
        if not changed:
            transaction.set_rollback(True)  # the bump too: nothing changed
            return []
        round_.config = after
        round_.save(update_fields=["config"])
        round_audit_record(
            user=user, round=round_, action=AuditEntry.Action.ROUND_EDITED, fields=changed
        )
    return changed
