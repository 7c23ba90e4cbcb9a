"""Setting a round's total formula (``Round.total_formula``; ``pwscup.competitions.totals``
reads it) and its top-N attack score (``Round.attack_top_n``;
``pwscup.competitions.attack_top``): the one check of the console and of a bundle."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.competitions import attack_top
from pwscup.competitions.models import AuditEntry, Round
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


@transaction.atomic
def round_total_formula_set(*, user, round: Round, formula: str, attack_top_n=_KEEP) -> bool:
    """Keep the round's total formula (checked by ``round_total_formula_check``) and, when
    given, its ``attack_top_n`` (``None``: no top-N attack score; the formula is checked with
    the new value, so it may name ``attack_top`` at once); ``True`` when either changed (with
    an audit line)."""
    before = round.attack_top_n
    if attack_top_n is not _KEEP:
        attack_top_n_check(round=round, attack_top_n=attack_top_n)
        round.attack_top_n = attack_top_n or None
    try:
        formula = round_total_formula_check(round=round, formula=formula)
    except ValidationError:
        round.attack_top_n = before
        raise
    if formula == round.total_formula and round.attack_top_n == before:
        return False
    round.total_formula = formula
    round.save(update_fields=["total_formula", "attack_top_n"])
    round_audit_record(
        user=user,
        round=round,
        action=AuditEntry.Action.ROUND_EDITED,
        total_formula=formula,
        attack_top_n=round.attack_top_n,
    )
    return True
