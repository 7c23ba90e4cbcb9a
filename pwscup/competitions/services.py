"""Writing competitions, rounds and phases; checking a round's data with ``scoring``."""

import datetime as dt
import hashlib
import re
import zoneinfo
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile, File
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import scoring
from pwscup.competitions.dates import dates_check
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.competitions.ranking import GateError, indicator_gates_check, parse_gates
from pwscup.core.files import OrganizerCsv, opened, organizer_csv
from pwscup.kinds.registry import get_kind


@dataclass(frozen=True)
class CheckedRoundData:
    sha256: str
    rows: int
    config: dict
    csv: OrganizerCsv | None = None


def round_data_check(*, original: bytes, config_raw) -> CheckedRoundData:
    """Check an original table (as uploaded, in UTF-8 or converted to it: ``organizer_csv``)
    and a round configuration together; ``sha256`` is the UTF-8 copy's.

    Raises ``scoring.ScoringError`` (its message names the key, column or row at fault, or
    the likely encoding of a file whose encoding is not sure).
    """
    csv = organizer_csv(original, name="original")
    table = scoring.read_table(csv.utf8, name="original")
    # Which columns hold integers is decided here, once, on the round's original (the
    # master table in the per-team mode), and stored with the configuration.
    config = scoring.decide_integer_columns(scoring.load_config(config_raw, table), table)
    scoring.validate_original(table, config)
    return CheckedRoundData(
        sha256=hashlib.sha256(csv.utf8).hexdigest(),
        rows=len(table),
        config=config.to_dict(),
        csv=csv,
    )


def round_original_store(*, round: Round, csv: OrganizerCsv, filename: str) -> None:
    """Put an organizer's original on the round (before it is saved): its UTF-8 copy in
    ``original_file``, and, when it was uploaded in another encoding, the upload as it was
    in ``original_source`` with that encoding."""
    round.original_file.save(filename, ContentFile(csv.utf8), save=False)
    round.original_sha256 = hashlib.sha256(csv.utf8).hexdigest()
    round.original_encoding = csv.encoding
    if csv.source is not None:
        round.original_source.save(filename, ContentFile(csv.source), save=False)
    else:
        round.original_source = ""


# /c/<competition>/team/… and /c/<competition>/join/<code>/ (pwscup/accounts/urls.py).
RESERVED_ROUND_SLUGS = frozenset({"team", "join"})
# The console's own pages beside ``console/<competition>/``.
RESERVED_COMPETITION_SLUGS = frozenset({"new", "creators"})
# What the URLs' ``<slug:…>`` converter matches, within the models' SlugField length.
SLUG_PATTERN = re.compile(r"[-a-zA-Z0-9_]+")
SLUG_MAX_LENGTH = 50


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
    if not SLUG_PATTERN.fullmatch(text) or len(text) > SLUG_MAX_LENGTH:
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


def round_settings_check(
    *,
    timezone: str,
    utility_gates,
    tie_break_metric: str,
    data_mode: str = Round.DataMode.SHARED,
    sample_size: int | None = None,
    phases: dict | None = None,
    allow_attack_before_close: bool = False,
    slug: str | None = None,
    competition: Competition | None = None,
    current: Round | None = None,
    config: dict | None = None,
) -> None:
    """Check a round's settings; the one check of the admin, the console, the commands and
    the demo.

    With ``slug`` (the round's address) and ``competition``, ``slug_check`` checks the
    address in that competition (``current``: the round being edited).

    With ``config`` (the round configuration as stored), gates on the indicators L1, L2,
    L3 and T are refused unless it has an ``indicators`` block.

    ``phases`` maps a phase kind to its ``(opens_at, closes_at)``: each closes after it
    opens, and the attack phase opens only once the anonymization phase has closed (its
    targets are published then) unless ``allow_attack_before_close``. Errors are keyed
    ``<kind>_opens_at`` / ``<kind>_closes_at``.

    Raises ``django.core.exceptions.ValidationError`` mapping each field at fault to a
    message that names the value and what is expected.
    """
    errors = _phases_errors(
        phases or {}, allow_attack_before_close=allow_attack_before_close, time_zone=timezone
    )
    if slug is not None and competition is not None:
        try:
            slug_check(slug=slug, competition=competition, current=current)
        except ValidationError as error:
            errors["slug"] = error.message_dict["slug"][0]
    try:
        zoneinfo.ZoneInfo(timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, TypeError):
        errors["timezone"] = _(
            "Unknown time zone %(value)s: use an IANA name such as Asia/Tokyo or UTC."
        ) % {"value": repr(timezone)[:80]}
    try:
        parse_gates(utility_gates)
        if config is not None:
            indicator_gates_check(utility_gates, config)
    except GateError as error:
        errors["utility_gates"] = str(error)
    if tie_break_metric not in scoring.METRICS:
        errors["tie_break_metric"] = _(
            "Unknown tie-break metric %(value)s: choose one of %(m)s."
        ) % {
            "value": repr(tie_break_metric)[:80],
            "m": ", ".join(scoring.METRICS),
        }
    if data_mode == Round.DataMode.PER_TEAM and not sample_size:
        errors["sample_size"] = _("The per-team mode needs a sample size.")
    if errors:
        raise ValidationError(errors)


# How the console's forms name each phase date (``dates_check`` messages name the field).
PHASE_DATE_LABELS = {
    Phase.Kind.ANONYMIZATION: {
        "opens_at": gettext_lazy("Anonymization phase opens"),
        "closes_at": gettext_lazy("Anonymization phase closes"),
    },
    Phase.Kind.ATTACK: {
        "opens_at": gettext_lazy("Attack phase opens"),
        "closes_at": gettext_lazy("Attack phase closes"),
    },
}


def _phases_errors(phases: dict, *, allow_attack_before_close: bool, time_zone=None) -> dict:
    errors = {}
    for kind, (opens_at, closes_at) in phases.items():
        try:
            phase_window_check(
                opens_at=opens_at,
                closes_at=closes_at,
                time_zone=time_zone,
                labels=PHASE_DATE_LABELS.get(kind),
            )
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                errors[f"{kind}_{field}"] = messages[0]
    anonymization = phases.get(Phase.Kind.ANONYMIZATION)
    attack = phases.get(Phase.Kind.ATTACK)
    if anonymization and attack and not allow_attack_before_close:
        if attack[0] is not None and anonymization[1] is not None and attack[0] < anonymization[1]:
            errors.setdefault(
                "attack_opens_at",
                _(
                    "The attack phase opens at %(attack)s, before the anonymization phase "
                    "closes (%(closes)s): attackers need the published targets. Open it at "
                    "or after that time, or allow it explicitly."
                )
                % {
                    "attack": attack[0].isoformat(timespec="minutes"),
                    "closes": anonymization[1].isoformat(timespec="minutes"),
                },
            )
    return errors


def phase_window_check(
    *, opens_at: dt.datetime, closes_at: dt.datetime, time_zone=None, labels=None
) -> None:
    """A phase opens and closes on dates the platform accepts (``dates_check`` in the
    round's ``time_zone``; ``labels`` name the two fields in its messages) and closes after
    it opens. Raises ``ValidationError`` keyed ``opens_at`` / ``closes_at``."""
    dates_check(
        {"opens_at": opens_at, "closes_at": closes_at},
        labels=labels
        or {name: Phase._meta.get_field(name).verbose_name for name in ("opens_at", "closes_at")},
        time_zone=time_zone,
    )
    if opens_at is not None and closes_at is not None and closes_at <= opens_at:
        raise ValidationError(
            {
                "closes_at": _("A phase must close after it opens (it opens at %(opens)s).")
                % {"opens": opens_at.isoformat(timespec="minutes")}
            }
        )


def round_record_data(*, round: Round, checked: CheckedRoundData) -> None:
    """Store what ``round_data_check`` found on the round (before it is saved)."""
    round.original_sha256 = checked.sha256
    round.original_rows = checked.rows
    round.config = checked.config


def competition_create(
    *, name: str, slug: str, description: str = "", organizers=()
) -> Competition:
    slug_check(slug=slug)
    competition = Competition.objects.create(name=name, slug=slug, description=description)
    if organizers:
        competition.organizers.set(organizers)
    return competition


def competition_organizers_add(*, competition: Competition, users) -> None:
    competition.organizers.add(*users)


@transaction.atomic
def round_create(
    *,
    competition: Competition,
    name: str,
    slug: str,
    original: bytes,
    original_filename: str,
    config_raw,
    data_mode: str = Round.DataMode.SHARED,
    sample_size: int | None = None,
    decoy_count: int | None = None,
    **options,
) -> Round:
    round_settings_check(
        slug=slug,
        competition=competition,
        timezone=options.get("timezone", "Asia/Tokyo"),
        utility_gates=options.get("utility_gates", {}),
        tie_break_metric=options.get("tie_break_metric", "U1"),
        data_mode=data_mode,
        sample_size=sample_size,
    )
    checked = round_data_check(original=original, config_raw=config_raw)
    try:
        indicator_gates_check(options.get("utility_gates", {}), checked.config)
    except GateError as error:
        raise ValidationError({"utility_gates": str(error)}) from None
    round_ = Round(
        competition=competition,
        name=name,
        slug=slug,
        data_mode=data_mode,
        sample_size=sample_size,
        decoy_count=decoy_count,
        **options,
    )
    round_record_data(round=round_, checked=checked)
    round_original_store(round=round_, csv=checked.csv, filename=original_filename)
    round_.save()
    return round_


def round_kind_check(*, kind: str) -> None:
    """Refuse a kind no app registered (``ValidationError`` keyed ``kind``)."""
    get_kind(kind)


@transaction.atomic
def round_of_kind_create(
    *,
    competition: Competition,
    kind: str,
    name: str,
    slug: str,
    config: dict,
    timezone: str = "Asia/Tokyo",
    order: int | None = None,
    **fields,
) -> Round:
    """Create a round of a registered kind other than the first one's data checks: the
    kind validates (and normalises) ``config`` (``RoundKind.validate_config``), the core
    checks the kind, the address and the time zone. The kind's app then adds its own rows
    (its models point at the round) and phases (``phase_set``).

    Raises ``ValidationError`` keyed by field (``kind``, ``slug``, ``timezone``, or the
    kind's own keys).
    """
    round_kind = get_kind(kind)
    errors = {}
    try:
        slug_check(slug=slug, competition=competition)
    except ValidationError as error:
        errors["slug"] = error.message_dict["slug"][0]
    try:
        zoneinfo.ZoneInfo(timezone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, TypeError):
        errors["timezone"] = _(
            "Unknown time zone %(value)s: use an IANA name such as Asia/Tokyo or UTC."
        ) % {"value": repr(timezone)[:80]}
    if errors:
        raise ValidationError(errors)
    normalised = round_kind.validate_config(config)
    return Round.objects.create(
        competition=competition,
        kind=kind,
        name=name,
        slug=slug,
        config=normalised,
        timezone=timezone,
        order=competition.rounds.count() + 1 if order is None else order,
        **fields,
    )


def phase_set(
    *,
    round: Round,
    kind: str,
    opens_at: dt.datetime,
    closes_at: dt.datetime,
    daily_limit: int | None = None,
    total_limit: int | None = None,
    leaderboard_public: bool = False,
) -> Phase:
    phase_window_check(opens_at=opens_at, closes_at=closes_at, time_zone=round.timezone)
    phase, _ = Phase.objects.update_or_create(
        round=round,
        kind=kind,
        defaults=dict(
            opens_at=opens_at,
            closes_at=closes_at,
            daily_limit=daily_limit,
            total_limit=total_limit,
            leaderboard_public=leaderboard_public,
        ),
    )
    return phase


def read_file_bytes(field: File) -> bytes:
    with opened(field) as handle:
        return handle.read()


def round_phases_close(*, round: Round, now=None) -> int:
    """Close now every phase of the round still open or not yet open: uploads are refused
    from ``now``. What *Close now* does, and what publishing does first (a published ranking
    never changes afterwards). A phase not yet open gets an empty window at ``now``.
    Returns how many phases were closed."""
    now = now or timezone.now()
    closed = 0
    for phase in Phase.objects.filter(round=round, closes_at__gt=now):
        phase.opens_at = min(phase.opens_at, now)
        phase.closes_at = now
        phase.save(update_fields=["opens_at", "closes_at"])
        closed += 1
    return closed
