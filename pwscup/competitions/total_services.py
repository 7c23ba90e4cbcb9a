"""Setting a round's total formula (``Round.total_formula``; ``pwscup.competitions.totals``
reads it) and its top-N attack score (``Round.attack_top_n`` and how it is read:
``attack_top_by``, ``attack_top_own``, ``attack_top_combine``;
``pwscup.competitions.attack_top``): the one check of the console and of a bundle."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.competitions import attack_top
from pwscup.competitions.models import (
    AttackTopBy,
    AttackTopCombine,
    AttackTopOwn,
    AuditEntry,
    Round,
)
from pwscup.competitions.services import round_audit_record
from pwscup.competitions.totals import named_scores
from pwscup.core.errors import scoring_form_error
from scoring.formula import FormulaError, formula_check, formula_names, formula_value


def round_total_formula_check(*, round: Round, formula: str) -> str:
    """The formula as it will be kept (stripped; ``""``: no total), once it is checked
    against the names the round's kind offers and evaluated on every team's current scores
    (a division by zero there is refused). Raises ``ValidationError`` keyed
    ``total_formula``, in the reader's language."""
    formula = (formula or "").strip()
    if not formula:
        return ""
    scores = named_scores(round=round)
    try:
        formula_check(formula, [name["key"] for name in scores["names"]])
        _evaluate_everyone(formula, scores["teams"])
    except FormulaError as error:
        raise scoring_form_error("total_formula", error) from None
    return formula


def _evaluate_everyone(formula: str, teams: dict) -> None:
    """Raise the first ``FormulaError`` the formula gives on a team's complete scores."""
    used = formula_names(formula)
    for values in teams.values():
        if all(values.get(name) is not None for name in used):
            formula_value(formula, {name: values[name] for name in used})


_KEEP = object()


def attack_top_n_check(*, round: Round, attack_top_n) -> None:
    """Refuse an N for a round whose kind has no attack matrix (``attack_top.offered``), or
    one outside 1–1000; ``ValidationError`` keyed ``attack_top_n``."""
    if not attack_top_n:
        return
    if not isinstance(attack_top_n, int) or not 1 <= attack_top_n <= 1000:
        raise ValidationError({"attack_top_n": _("N must be a whole number from 1 to 1000.")})
    if not attack_top.offered(round):
        raise ValidationError(
            {"attack_top_n": _("This round has no attack matrix: there is no top N to count.")}
        )


# The settings of how the score is read, with their choices (absent: the default).
ATTACK_TOP_RULE = {
    "attack_top_by": AttackTopBy,
    "attack_top_own": AttackTopOwn,
    "attack_top_combine": AttackTopCombine,
}


def attack_top_rule_values(given: dict) -> dict:
    """The settings of ``given`` (a bundle's round entry, a form's data) as kept: each one
    absent or empty is its default; one outside its choices is refused, keyed by its name."""
    out = {}
    for field, choices in ATTACK_TOP_RULE.items():
        value = given.get(field) or Round._meta.get_field(field).default
        if value not in choices.values:
            raise ValidationError(
                {
                    field: _("%(value)s is not one of: %(choices)s.")
                    % {"value": repr(value)[:40], "choices": ", ".join(choices.values)}
                }
            )
        out[field] = str(value)
    return out


def attack_top_rule_check(*, round: Round, formula: str) -> None:
    """Refuse the top N by the total when the round has no total formula, or when the
    formula names ``attack_top`` (the total would need the score it ranks the top N for);
    ``ValidationError`` keyed ``attack_top_by``. ``round`` holds the settings to check."""
    if not round.attack_top_n or round.attack_top_by != AttackTopBy.TOTAL:
        return
    if not formula:
        raise ValidationError(
            {
                "attack_top_by": _(
                    "The top N by the round's total needs a total formula: write one in "
                    "Total formula, or read the top N from the release ranking."
                )
            }
        )
    if attack_top.ATTACK_TOP in formula_names(formula):
        raise ValidationError(
            {
                "attack_top_by": _(
                    "The top N cannot be read from a total whose formula names attack_top: "
                    "the total would need the score it picks the top N for. Take attack_top "
                    "out of the formula, or read the top N from the release ranking."
                )
            }
        )


@transaction.atomic
def round_total_formula_set(
    *, user, round: Round, formula: str, attack_top_n=_KEEP, rule: dict | None = None
) -> bool:
    """Keep the round's total formula (checked by ``round_total_formula_check``) and, when
    given, its ``attack_top_n`` (``None``: no top-N attack score; the formula is checked with
    the new value, so it may name ``attack_top`` at once) and ``rule``, how the score is read
    (``attack_top_rule_values``: a key absent is its default); ``True`` when any changed
    (with an audit line)."""
    fields = ["attack_top_n", *ATTACK_TOP_RULE]
    before = {field: getattr(round, field) for field in fields}
    try:
        if attack_top_n is not _KEEP:
            attack_top_n_check(round=round, attack_top_n=attack_top_n)
            round.attack_top_n = attack_top_n or None
        for field, value in ({} if rule is None else attack_top_rule_values(rule)).items():
            setattr(round, field, value)
        formula = round_total_formula_check(round=round, formula=formula)
        attack_top_rule_check(round=round, formula=formula)
    except ValidationError:
        for field, value in before.items():
            setattr(round, field, value)
        raise
    after = {field: getattr(round, field) for field in fields}
    if formula == round.total_formula and after == before:
        return False
    round.total_formula = formula
    round.save(update_fields=["total_formula", *fields])
    # How the score is read is said with its N, not for a round that counts none.
    said = after if round.attack_top_n else {"attack_top_n": None}
    round_audit_record(
        user=user, round=round, action=AuditEntry.Action.ROUND_EDITED, total_formula=formula, **said
    )
    return True
