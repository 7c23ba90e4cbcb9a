"""The round itself: creation (settings checked against the original, the shared draws),
its two windows (the core's phases), closing them and publishing the results."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.competitions.organizer_files import round_original_save
from pwscup.competitions.services import (
    round_basics_errors,
    round_of_kind_create,
    round_phases_close,
)
from pwscup.core.errors import scoring_errors_by, scoring_form_error
from pwscup.core.files import organizer_csv
from pwscup.kinds.round_basics import RoundBasics
from pwscup.submissions.services.two_sided import (
    TwoSidedWindows,
    two_sided_results_publish,
    two_sided_round_created,
    two_sided_windows_errors,
)
from pwscup.synthetic import KEY, engine
from pwscup.synthetic.models import SyntheticRound
from pwscup.synthetic.services.draws import draws_for_teams
from scoring.errors import ScoringError
from scoring.synthetic.config import parse_config
from scoring.synthetic.draws import draw_shared
from scoring.synthetic.original import original_checked


def synthetic_config_validate(config) -> dict:
    """The kind's ``validate_config``: the settings checked on their own (the original's
    header is checked when the round is created), with every default filled in."""
    try:
        return parse_config(config).as_dict()
    except ScoringError as error:
        raise scoring_form_error("config", error) from None


def synthetic_config_check(config) -> None:
    """The settings checked on their own (as ``synthetic_config_validate``), every error
    keyed by its field as the creation service keys it (``config_error_field``)."""
    try:
        parse_config(config)
    except ScoringError as error:
        raise scoring_errors_by(error, config_error_field) from None


# The settings a creation form asks one by one: a configuration error naming one of them
# goes next to its field (``gates.u_ml_min`` is the form's ``u_ml_min``).
SETTING_FIELDS = (
    "n_holdout",
    "n_train",
    "n_challenge",
    "n_aux",
    "min_rows",
    "max_rows",
    "fpr_levels",
    "density_bandwidth",
    "u_ml_min",
    "u_1_max",
    "r_copy_excess_max",
)
COLUMN_CODES = ("syn.config.role", "syn.config.columns", "syn.config.not_number")
LABEL_CODES = ("syn.config.label", "syn.config.label_values")


def config_error_field(error) -> str:
    """The field a configuration error belongs to: ``label``, ``columns`` (a column's role,
    the header), one of ``SETTING_FIELDS``, else ``config`` (the settings as a whole)."""
    code, params = getattr(error, "code", ""), getattr(error, "params", {}) or {}
    if code in LABEL_CODES:
        return "label"
    if code in COLUMN_CODES:
        return "columns"
    key = str(params.get("key", "")).removeprefix("gates.")
    if code == "syn.config.bad_value" and key in SETTING_FIELDS:
        return key
    return "config"


@transaction.atomic
def synthetic_round_create(
    *,
    basics: RoundBasics,
    table: bytes,
    table_filename: str,
    config: dict,
    windows: TwoSidedWindows,
    user=None,
    seed: int | None = None,
) -> SyntheticRound:
    """Create a synthetic round with its ``basics`` (``round_of_kind_create``'s): the
    original checked against the settings (header, numbers, label values, enough rows for
    the draws), kept as uploaded and never shown to a team; the holdout and the auxiliary
    table drawn; its two phases (``windows``).

    Raises ``ValidationError`` keyed by field (``table``, ``label``, ``columns``, a setting
    of ``SETTING_FIELDS``, ``config``, ``slug``, ``timezone``, ``attack_opens_at``...) in the
    reader's language: every error at once (``synthetic_round_errors``)."""
    filename = table_filename or "original.csv"
    csv, population, errors = synthetic_round_errors(
        basics=basics, table=table, filename=filename, config=config, windows=windows
    )
    if errors:
        raise ValidationError(errors)
    parsed = population.config
    rows = len(population.frame)
    round_ = round_of_kind_create(
        basics=basics, kind=KEY, config=parsed.as_dict(), original_rows=rows
    )
    round_original_save(round=round_, csv=csv, filename=filename)
    synthetic = SyntheticRound(round=round_)
    if seed is not None:
        synthetic.secret_seed = seed
    try:
        shared = draw_shared(rows, parsed, seed=synthetic.secret_seed)
    except ScoringError as error:
        raise scoring_errors_by(error, config_error_field) from None
    synthetic.holdout, synthetic.aux = shared.holdout.tolist(), shared.aux.tolist()
    synthetic.save()
    draws_for_teams(synthetic=synthetic)
    two_sided_round_created(round=round_, windows=windows, user=user, rows=rows)
    return synthetic


def synthetic_round_errors(*, basics: RoundBasics, table: bytes, filename: str, config, windows):
    """A new round's checks, each run whatever the others found, so that one try shows all
    that is wrong: the address and the time zone, the windows' order, and the original with
    the settings (``original_checked``: the settings, the cells against the roles once the
    roles are right, the rows against the sizes once the sizes are). Only a table that cannot
    be read (or holds no data row) stops the settings' checks, which need its header.
    Returns the original's ``OrganizerCsv``, its ``Population`` (None when refused) and
    the errors by field."""
    errors: dict[str, list[str]] = {}
    basics_errors = round_basics_errors(
        competition=basics.competition, slug=basics.slug, timezone=basics.time_zone()
    )
    for field, message in {**basics_errors, **two_sided_windows_errors(windows=windows)}.items():
        errors[field] = [message]
    try:
        csv = organizer_csv(table, name=filename)
        header = engine.header_of(csv.utf8)
    except ScoringError as error:
        scoring_form_error("table", error).update_error_dict(errors)
        return None, None, errors
    if not csv.utf8.strip().count(b"\n"):
        # A header and no row: the table's fault, not the settings' (the label would be
        # said to have no value).
        errors.setdefault("table", []).append(_("The original table has a header and no data row."))
        return csv, None, errors
    try:
        population = original_checked(
            csv.utf8, engine.config_in_order(config, header), name=filename
        )
    except ScoringError as error:
        scoring_errors_by(error, config_error_field).update_error_dict(errors)
        population = None
    return csv, population, errors


def synthetic_round_close(*, synthetic: SyntheticRound) -> int:
    """*Close now*: every phase still open (or not yet open) closes now."""
    return round_phases_close(round=synthetic.round)


def results_publish(*, synthetic: SyntheticRound, user=None) -> None:
    """Close every open phase (a published ranking never changes), show the final half's
    scores, the matrix, the rankings and the ROC curves to everyone, tell the participants."""
    two_sided_results_publish(state=synthetic, user=user)
