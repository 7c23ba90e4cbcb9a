"""The services that write the competition's standings: one division's settings
(``standings_update``), a new division (``standings_division_add``) and its removal
(``standings_division_remove``). Every entry point (the console, a bundle's import) calls
them; each check is here, each write is in the audit log.

A division may count other divisions' ranks (``CountedInput``: PWSCup 2023's grand
ranking). The rules, each owned here: a division never counts itself nor another
competition's; it counts divisions only by rank (a weighted sum of scores cannot); one
level (a division that counts divisions is never counted, so no cycle can form); a counted
division is not removed while another counts it; a division counts at least one round or
division."""

from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.competitions.audit_details import separator
from pwscup.competitions.models import AuditEntry, Competition, Round
from pwscup.competitions.services import audit_record
from pwscup.competitions.standings import (
    declared_rankings,
    divisions_counting,
    removal_refusal,
    standings_settings,
)
from pwscup.competitions.standings_models import (
    DIVISION_NAME_MAX_LENGTH,
    Standings,
    StandingsDivision,
    StandingsRound,
)
from scoring import standings as rules

# The key of the division a competition's standings start with (and that every competition's
# one standings took when divisions came: competitions' migration 0027).
FIRST_KEY = "overall"
# Keys the console's addresses take (/console/<competition>/standings/add/).
RESERVED_KEYS = frozenset({"add"})
KEY_MAX_LENGTH = 50


@dataclass(frozen=True)
class EntryInput:
    """One round as an entry point hands it in (the console's form, a bundle's import)."""

    round: Round
    weight: Decimal
    rankings: tuple[str, ...]


@dataclass(frozen=True)
class DivisionInput:
    """A division's key (its address in the competition), its names (both empty: it reads
    "Standings") and its place among the divisions (lowest first; ``None``: a new division
    comes after the others, a saved one keeps its place)."""

    key: str
    name_en: str = ""
    name_ja: str = ""
    order: int | None = None


@dataclass(frozen=True)
class CountedInput:
    """Another division whose rank counts in this one, with its weight."""

    division: Standings
    weight: Decimal


def counted_message(name: str) -> str:
    """Why the division ``name`` cannot be counted: it counts divisions itself (one level).
    The service and a bundle's import say it the same way."""
    return _(
        "%(division)s counts other divisions: a division that counts divisions cannot be "
        "counted itself (one level)."
    ) % {"division": name}


def _check_counted(competition, rule: str, counted: list[CountedInput], current) -> list[str]:
    """The counted divisions' refusals (``current``: the division being saved, ``None``
    for a new one)."""
    errors, seen = [], set()
    if counted and rule == rules.WEIGHTED_SCORE:
        errors.append(
            _(
                "A weighted sum of scores cannot count divisions: divisions count by rank. "
                "Choose a sum of ranks or an inverse of the rank sums."
            )
        )
    if counted and current is not None:
        counting = divisions_counting(current)
        if counting:
            errors.append(
                _(
                    "%(division)s counts this division: a division that is counted cannot "
                    "count other divisions (one level)."
                )
                % {"division": ", ".join(division.name for division in counting)}
            )
    for item in counted:
        name = item.division.name
        if item.division.competition_id != competition.pk:
            errors.append(
                _("%(division)s is not a division of this competition.") % {"division": name}
            )
            continue
        if current is not None and item.division.pk == current.pk:
            errors.append(_("A division cannot count itself."))
            continue
        errors += _once_and_weighed(item.division.pk, item.weight, seen, DIVISION_REFUSALS, name)
        if item.division.counted_divisions.exists():
            errors.append(counted_message(name))
    return errors


# The refusals a counted round and a counted division share: counted twice, a weight not
# above 0 (``_once_and_weighed``), each message naming the round or the division.
ROUND_REFUSALS = (
    gettext_lazy("%(round)s is counted twice."),
    gettext_lazy("The weight of %(round)s must be above 0."),
)
DIVISION_REFUSALS = (
    gettext_lazy("%(division)s is counted twice."),
    gettext_lazy("The weight of %(division)s must be above 0."),
)


def _once_and_weighed(pk, weight, seen: set, refusals: tuple, name: str) -> list[str]:
    """``refusals`` (``ROUND_REFUSALS``, ``DIVISION_REFUSALS``) that apply to the item
    ``pk`` named ``name``: counted twice (``seen``: the keys counted so far, ``pk`` added),
    a weight not above 0."""
    twice, unweighed = refusals
    names = {"round": name, "division": name}
    errors = [str(twice) % names] if pk in seen else []
    seen.add(pk)
    if weight is None or weight <= 0:
        errors.append(str(unweighed) % names)
    return errors


def _check(
    competition: Competition,
    rule: str,
    entries: list[EntryInput],
    counted: list[CountedInput] = (),
    current=None,
) -> None:
    errors = []
    if rule not in rules.RULES:
        errors.append(_("Choose how the rankings combine."))
    seen, directions = set(), {True: [], False: []}
    for entry in entries:
        name = entry.round.name
        if entry.round.competition_id != competition.pk:
            errors.append(_("%(round)s is not a round of this competition.") % {"round": name})
            continue
        errors += _once_and_weighed(entry.round.pk, entry.weight, seen, ROUND_REFUSALS, name)
        declared = declared_rankings(entry.round)
        if not entry.rankings:
            errors.append(_("Tick at least one ranking of %(round)s.") % {"round": name})
        for key in entry.rankings:
            if key not in declared:
                errors.append(_("%(round)s has no ranking %(key)s.") % {"round": name, "key": key})
            else:
                ranking = _("%(ranking)s of %(round)s") % {
                    "ranking": declared[key].label,
                    "round": name,
                }
                directions[declared[key].higher_is_better].append(ranking)
    if rule == rules.WEIGHTED_SCORE and all(directions.values()):
        # Named, so that the organizer knows what to untick: the console's form ticks every
        # ranking of every round until the standings are saved.
        errors.append(
            _(
                "A weighted sum of scores needs rankings whose scores point the same way: "
                "higher is better in %(higher)s; lower is better in %(lower)s. Untick the "
                "rankings of one way, or combine them by rank."
            )
            % {
                "higher": separator().join(directions[True]),
                "lower": separator().join(directions[False]),
            }
        )
    errors += _check_counted(competition, rule, list(counted), current)
    if errors:
        raise ValidationError(errors)


def _check_division(competition: Competition, division: DivisionInput, *, current=None) -> None:
    """The key is a slug, not one the console's addresses take, and no other division of
    the competition has it; the names fit."""
    errors = []
    key = division.key
    if not key or slugify(key) != key or len(key) > KEY_MAX_LENGTH:
        errors.append(
            _(
                "The division's key must be lower-case letters, digits, hyphens and "
                "underscores (at most %(limit)s)."
            )
            % {"limit": KEY_MAX_LENGTH}
        )
    elif key in RESERVED_KEYS:
        errors.append(_("The key %(key)s is taken by the console; choose another.") % {"key": key})
    else:
        others = Standings.objects.filter(competition=competition, key=key)
        if current is not None:
            others = others.exclude(pk=current.pk)
        if others.exists():
            errors.append(_("Another division already has the key %(key)s.") % {"key": key})
    if max(len(division.name_en), len(division.name_ja)) > DIVISION_NAME_MAX_LENGTH:
        errors.append(
            _("A division's name has at most %(limit)s characters.")
            % {"limit": DIVISION_NAME_MAX_LENGTH}
        )
    if errors:
        raise ValidationError(errors)


def _write(
    standings: Standings, *, rule: str, entries: list[EntryInput], counted, division
) -> None:
    standings.rule = rule
    if division is not None:
        standings.key = division.key
        standings.name_en, standings.name_ja = division.name_en, division.name_ja
        if division.order is not None:
            standings.order = division.order
    standings.save()
    standings.entries.all().delete()
    StandingsRound.objects.bulk_create(
        StandingsRound(
            standings=standings,
            round=entry.round,
            weight=entry.weight,
            rankings=list(entry.rankings),
        )
        for entry in entries
    )
    standings.counted_divisions.all().delete()
    StandingsDivision.objects.bulk_create(
        StandingsDivision(standings=standings, counted=item.division, weight=item.weight)
        for item in counted
    )


def _record_settings(user, standings: Standings, entries: list[EntryInput], counted) -> None:
    """The audit line of a division's settings: its rule, its key, each round and division
    counted."""
    details = {}
    if counted:
        details["divisions"] = [f"{item.division.key} ×{item.weight}" for item in counted]
    audit_record(
        user=user,
        competition=standings.competition,
        action=AuditEntry.Action.COMPETITION_EDITED,
        standings=standings.rule,
        division=standings.key,
        rounds=[f"{e.round.slug} ×{e.weight} ({', '.join(e.rankings)})" for e in entries],
        **details,
    )


def _next_order(competition: Competition) -> int:
    highest = Standings.objects.filter(competition=competition).aggregate(Max("order"))
    top = highest["order__max"]
    return 0 if top is None else top + 1


@transaction.atomic
def standings_update(
    *,
    user,
    competition: Competition,
    rule: str,
    entries: list[EntryInput],
    key: str | None = None,
    division: DivisionInput | None = None,
    counted: list[CountedInput] = (),
) -> Standings | None:
    """Set the division ``key`` of the competition's standings (``None``: its first one,
    created with the key ``overall`` when it has none); ``division``: its new key and names
    (``None``: unchanged); ``counted``: the other divisions it counts. ``entries`` and
    ``counted`` empty: remove the division.

    Raises ``ValidationError`` (a list of messages naming the round or division) when there
    is no division ``key``, a round is not the competition's, a weight is not above 0, a
    ranking is not one its kind declares, a weighted sum of scores would add scores pointing
    opposite ways or count divisions, a counted division breaks a rule of the module's
    docstring, or the new key is not a free slug."""
    standings = standings_settings(competition=competition, key=key)
    if standings is None and key is not None:
        raise ValidationError(_("The competition has no division %(key)s.") % {"key": key})
    counted = list(counted)
    if not entries and not counted:
        if standings is not None:
            standings_division_remove(user=user, competition=competition, key=standings.key)
        return None
    _check(competition, rule, entries, counted, standings)
    if division is not None:
        _check_division(competition, division, current=standings)
    if standings is None:
        standings = Standings(
            competition=competition, key=FIRST_KEY, order=_next_order(competition)
        )
    _write(standings, rule=rule, entries=entries, counted=counted, division=division)
    _record_settings(user, standings, entries, counted)
    return standings


@transaction.atomic
def standings_division_add(
    *,
    user,
    competition: Competition,
    division: DivisionInput,
    rule: str,
    entries: list[EntryInput],
    counted: list[CountedInput] = (),
) -> Standings:
    """Add a division after the competition's others (``division.order``: at that place).
    Raises ``ValidationError`` as ``standings_update`` does, and when no round nor division
    counts."""
    counted = list(counted)
    if not entries and not counted:
        raise ValidationError(_("Tick at least one round or division that counts in the division."))
    _check(competition, rule, entries, counted)
    _check_division(competition, division)
    standings = Standings(competition=competition, order=_next_order(competition))
    _write(standings, rule=rule, entries=entries, counted=counted, division=division)
    _record_settings(user, standings, entries, counted)
    return standings


@transaction.atomic
def standings_division_remove(*, user, competition: Competition, key: str) -> None:
    """Remove the division ``key`` (nothing when the competition has none such). Raises
    ``ValidationError`` naming the division that counts it, if one does: removing it would
    change that division's ranking."""
    division = Standings.objects.filter(competition=competition, key=key).first()
    refusal = None if division is None else removal_refusal(division)
    if refusal is not None:
        raise ValidationError(refusal)
    deleted, _rows = Standings.objects.filter(competition=competition, key=key).delete()
    if deleted:
        audit_record(
            user=user,
            competition=competition,
            action=AuditEntry.Action.COMPETITION_EDITED,
            standings="removed",
            division=key,
        )
