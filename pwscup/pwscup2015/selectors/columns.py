"""What each column of a 2015 round's table is (the Data tab): its role in the round, its
type and its domain, read from the configuration and the round's original table."""

import hashlib
import json
from dataclasses import dataclass

import pandas as pd
from django.core.cache import cache
from django.utils.translation import gettext as _

from pwscup.competitions.models import Round
from pwscup.competitions.selectors import round_config, round_original_table
from scoring.schema import NUMBER

CACHE_SECONDS = 24 * 3600
LISTED_VALUES = 8  # a category's values listed in full up to this many, else the first ones


@dataclass(frozen=True)
class ColumnFacts:
    """One column's facts, language-free (the words are ``ColumnDescription``'s)."""

    name: str
    qi: bool
    sa: bool
    any_number: bool  # its domain is "number": any number is accepted
    integer: bool
    numeric: bool  # every value of the original is a number
    distinct: int
    low: str
    high: str
    values: tuple[str, ...]  # a category's values, most frequent first (``LISTED_VALUES``)


@dataclass(frozen=True)
class ColumnDescription:
    name: str
    role: str
    type: str
    size: int
    domain: str


def _facts(round: Round) -> list[ColumnFacts]:
    config = round_config(round=round)
    table = round_original_table(round=round)
    facts = []
    for name in config.columns:
        cells = table[name]
        numbers = pd.to_numeric(cells, errors="coerce")
        numeric = bool(numbers.notna().all())
        counts = cells.value_counts()
        facts.append(
            ColumnFacts(
                name=name,
                qi=name in config.qi,
                sa=name in config.sa,
                any_number=config.domains.get(name) == NUMBER,
                integer=name in config.integer_columns,
                numeric=numeric,
                distinct=len(counts),
                low=f"{numbers.min():g}" if numeric and len(cells) else "",
                high=f"{numbers.max():g}" if numeric and len(cells) else "",
                values=tuple(str(v) for v in counts.index[: LISTED_VALUES + 1]),
            )
        )
    return facts


def _cached_facts(round: Round) -> list[ColumnFacts]:
    """The facts, kept under the original's hash and the configuration (read once)."""
    config = json.dumps(round.config, sort_keys=True, default=str).encode()
    key = f"pwscup2015:columns:{round.original_sha256}:{hashlib.sha256(config).hexdigest()[:16]}"
    found = cache.get(key)
    if found is None:
        found = _facts(round)
        cache.set(key, found, CACHE_SECONDS)
    return found


def column_descriptions(*, round: Round) -> list[ColumnDescription]:
    """Each column of the round's table in the reader's language: its role
    (quasi-identifier, sensitive, other), its type and its domain (the range of a column of
    numbers, the values of a category)."""
    out = []
    for fact in _cached_facts(round):
        roles = [_("quasi-identifier")] * fact.qi + [_("sensitive")] * fact.sa
        if fact.any_number:
            kind = _("number, any value")
        elif fact.integer:
            kind = _("whole number")
        elif fact.numeric:
            kind = _("number")
        else:
            kind = _("category")
        if fact.numeric and fact.low:
            domain = _("%(low)s to %(high)s") % {"low": fact.low, "high": fact.high}
        else:
            shown = ", ".join(fact.values[:LISTED_VALUES])
            domain = shown + (", …" if fact.distinct > LISTED_VALUES else "")
        out.append(
            ColumnDescription(
                name=fact.name,
                role=", ".join(roles) or _("other"),
                type=kind,
                size=fact.distinct,
                domain=domain,
            )
        )
    return out
