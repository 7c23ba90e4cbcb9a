"""Setting a round's total formula (``Round.total_formula``; ``pwscup.competitions.totals``
reads it): the one check of the console and of a bundle."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import get_language

from pwscup.competitions.models import AuditEntry, Round
from pwscup.competitions.services import audit_record
from pwscup.competitions.totals import named_scores
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
        raise ValidationError({"total_formula": error.render(get_language())}) from None
    return formula


def _evaluate_everyone(formula: str, teams: dict) -> None:
    """Raise the first ``FormulaError`` the formula gives on a team's complete scores."""
    used = formula_names(formula)
    for values in teams.values():
        if all(values.get(name) is not None for name in used):
            formula_value(formula, {name: values[name] for name in used})


@transaction.atomic
def round_total_formula_set(*, user, round: Round, formula: str) -> bool:
    """Keep the round's total formula (checked by ``round_total_formula_check``); ``True``
    when it changed (with an audit line)."""
    formula = round_total_formula_check(round=round, formula=formula)
    if formula == round.total_formula:
        return False
    round.total_formula = formula
    round.save(update_fields=["total_formula"])
    audit_record(
        user=user,
        competition=round.competition,
        round=round,
        action=AuditEntry.Action.ROUND_EDITED,
        total_formula=formula,
    )
    return True
