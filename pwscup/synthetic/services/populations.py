"""A round's populations when it offers a data choice (``competitions.DataChoice``): the
organizer uploads one table per pack, checked as the round's original was at creation (the
same columns in the same order, the settings' roles and label, enough rows for the draws),
kept as uploaded, with its own holdout and auxiliary table drawn from the round's secret seed
and the pack's key. A team whose pack it is draws its rows from it."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.competitions.choice_selectors import round_choices
from pwscup.competitions.models import AuditEntry
from pwscup.competitions.organizer_files import organizer_csv_keep
from pwscup.competitions.services import round_audit_record
from pwscup.core.errors import scoring_form_error
from pwscup.core.files import organizer_csv
from pwscup.core.stored import stored_bytes
from pwscup.submissions.services.two_sided import two_sided_locked
from pwscup.synthetic import engine
from pwscup.synthetic.models import SynPopulation, SyntheticRound, TeamDraw
from scoring.errors import ScoringError
from scoring.synthetic.config import parse_config
from scoring.synthetic.draws import draw_shared, rows_check
from scoring.synthetic.messages import POPULATION_TABLE
from scoring.synthetic.population import read_population


def pack_tag(key: str) -> str:
    """The tag of a pack's shared draws under the round's seed (``scoring.synthetic.draws``)."""
    return f"shared:{key}"


def population_check(*, synthetic: SyntheticRound, table: bytes, filename: str):
    """``(csv, population)`` of an organizer's table for one pack, or ``ValidationError``
    (field ``table``) naming the column, row or value: the round's original's header, its
    settings (roles, label values, numbers) and enough rows for the round's draws."""
    round_ = synthetic.round
    try:
        csv = organizer_csv(table, name=filename)
        header = engine.header_of(csv.utf8)
    except ScoringError as error:
        raise scoring_form_error("table", error) from None
    expected = engine.header_of(stored_bytes(round_.original_file))
    if header != expected:
        missing = [c for c in expected if c not in header]
        extra = [c for c in header if c not in expected]
        if missing or extra:
            detail = _("columns missing: %(missing)s; columns not in the original: %(extra)s") % {
                "missing": ", ".join(missing) or "-",
                "extra": ", ".join(extra) or "-",
            }
        else:
            detail = _("the columns are in another order")
        raise ValidationError(
            {
                "table": _(
                    "A population must have the round's original's columns, in its order "
                    "(%(columns)s): %(detail)s."
                )
                % {"columns": ", ".join(expected), "detail": detail}
            }
        )
    if not csv.utf8.strip().count(b"\n"):
        raise ValidationError({"table": _("The table has a header and no data row.")})
    try:
        parsed = parse_config(engine.config_in_order(round_.config, header), header)
        # The messages name the population (the faulty file), not the round's original.
        population = read_population(csv.utf8, parsed, name=filename, table=POPULATION_TABLE)
        rows_check(len(population.frame), parsed, table=POPULATION_TABLE)
        draw_shared(len(population.frame), parsed, seed=synthetic.secret_seed)
    except ScoringError as error:
        raise scoring_form_error("table", error) from None
    return csv, population


@transaction.atomic
def population_upload(
    *, synthetic: SyntheticRound, key: str, table: bytes, filename: str, user=None
) -> SynPopulation:
    """Keep ``table`` as the population of the round's data pack ``key`` (replacing the
    one before while no team has drawn from it), with its holdout and auxiliary table.
    Raises ``ValidationError`` (``choice``: no such pack, or teams already drew from it;
    ``table``: the check of ``population_check``)."""
    synthetic = two_sided_locked(synthetic)
    if key not in {choice.key for choice in round_choices(round=synthetic.round)}:
        raise ValidationError(
            {"choice": _("This round offers no data pack %(key)s.") % {"key": key}}
        )
    drawn = TeamDraw.objects.filter(synthetic=synthetic, choice_key=key).count()
    if drawn:
        raise ValidationError(
            {
                "choice": _(
                    "%(count)d team(s) already drew their rows from the population of "
                    "%(key)s: it cannot be replaced."
                )
                % {"count": drawn, "key": key}
            }
        )
    return population_store(synthetic=synthetic, key=key, table=table, filename=filename, user=user)


def population_store(
    *, synthetic: SyntheticRound, key: str, table: bytes, filename: str, user=None
) -> SynPopulation:
    """Check ``table`` (``population_check``) and keep it as the population of ``key`` with
    its holdout and auxiliary table, replacing any before. ``population_upload`` (the
    console) checks the pack first; a bundle's import calls this before the core imports the
    round's packs."""
    filename = (filename or f"{key}.population.csv")[:200]
    csv, population = population_check(synthetic=synthetic, table=table, filename=filename)
    parsed = population.config
    shared = draw_shared(
        len(population.frame), parsed, seed=synthetic.secret_seed, tag=pack_tag(key)
    )
    SynPopulation.objects.filter(synthetic=synthetic, choice_key=key).delete()
    stored = SynPopulation(
        synthetic=synthetic,
        choice_key=key,
        filename=filename,
        rows=len(population.frame),
        encoding=csv.encoding,
        holdout=shared.holdout.tolist(),
        aux=shared.aux.tolist(),
    )
    stored.sha256 = organizer_csv_keep(stored, csv=csv, filename=filename)
    stored.save()
    round_audit_record(
        user=user,
        round=synthetic.round,
        action=AuditEntry.Action.ROUND_EDITED,
        population=key,
        rows=stored.rows,
    )
    return stored
