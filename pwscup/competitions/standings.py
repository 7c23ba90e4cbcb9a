"""Competition standings: the rankings of several rounds (a preliminary and a final)
combined into one table (docs/organizers.md, "Standings"), one per division of the
competition (an anonymization and an attack division); the first division is the one the
addresses without a key show. The writes are in ``standings_services``.

The settings (``Standings``, ``StandingsRound``) say which rounds count, with which weight,
which of each round's rankings (its kind's ``ranking_keys``) and the rule
(``scoring.standings``). Nothing computed is stored: ``standings_of`` asks each round's kind
for its published rankings (``RoundKind.published_rankings``: a disqualified team has no
row there, so it has none here) and combines them on every read.

*Pending*: while a counted round has not published its results, its columns say "pending"
and no combined value nor rank is given to anyone (a combination missing the final's 0.9
would only repeat the preliminary; a pending round never counts as zero). The published
rounds' ranks are shown meanwhile.

*Counted divisions* (``StandingsDivision``, PWSCup 2023's grand ranking): a division may
count other divisions' ranks, each with a weight, beside its rounds: each counted
division's rank is one more place of the rank rules (``weight × rank`` in a weighted sum of
ranks, ``weight ÷ rank`` in an inverse of the rank sums). A counted division that is
pending makes the counting one pending; a team without a rank there has no combined value.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from pwscup.competitions.models import Competition, Round
from pwscup.competitions.standings_models import Standings
from pwscup.competitions.totals import round_published_rankings, round_ranking_keys
from pwscup.core.exports import csv_bytes
from pwscup.kinds.rankings import RankingKey
from scoring import standings as rules

# The weights a new standings of two rounds starts from (preliminary 0.1, final 0.9: every
# PWSCup edition since 2019); with any other number of rounds, 1 each.
TWO_ROUND_WEIGHTS = (Decimal("0.1"), Decimal("0.9"))


# What a division's table reads of its settings (its rounds, the divisions it counts).
PREFETCHED = ("entries__round", "counted_divisions__counted__entries__round")


def default_weights(count: int) -> list[Decimal]:
    return list(TWO_ROUND_WEIGHTS) if count == 2 else [Decimal(1)] * count


@dataclass(frozen=True)
class Column:
    """One counted ranking of one round (``weight``: the round's)."""

    round: Round
    weight: Decimal
    declared: RankingKey
    pending: bool

    @property
    def key(self) -> str:
        return f"{self.round.slug}:{self.declared.key}"


@dataclass(frozen=True)
class DivisionColumn:
    """A counted division (``weight``: its weight here; ``pending``: its own table is)."""

    division: Standings
    weight: Decimal
    pending: bool

    @property
    def key(self) -> str:
        return self.division.key


@dataclass(frozen=True)
class Cell:
    rank: int | None
    score: float | None


@dataclass
class StandingsRow:
    team: object
    cells: list  # a ``Cell`` per column, ``None``: no row in it (or the column is pending)
    # A ``Cell`` per counted division (its rank there, its combined value as ``score``).
    division_cells: list = field(default_factory=list)
    value: float | None = None
    rank: int | None = None


@dataclass(frozen=True)
class StandingsTable:
    rule: str
    rule_label: str
    columns: list[Column]
    rows: list[StandingsRow]
    higher_is_better: bool
    divisions: list[DivisionColumn] = field(default_factory=list)

    @property
    def pending(self) -> bool:
        return any(column.pending for column in [*self.columns, *self.divisions])

    @property
    def width(self) -> int:
        """The table's number of columns (rank, team, combined, then the counted ones)."""
        return len(self.columns) + len(self.divisions) + 3

    @property
    def rounds(self) -> list[tuple[Round, Decimal]]:
        seen = {}
        for column in self.columns:
            seen.setdefault(column.round.pk, (column.round, column.weight))
        return list(seen.values())


def standings_divisions(*, competition: Competition) -> list[Standings]:
    """The competition's divisions in their order (empty: it shows no standings)."""
    return list(
        Standings.objects.filter(competition=competition)
        .order_by("order", "pk")
        .prefetch_related(*PREFETCHED)
    )


def standings_settings(*, competition: Competition, key: str | None = None) -> Standings | None:
    """The division ``key`` of the competition, or its first one when ``key`` is ``None``
    (``None``: no such division)."""
    divisions = Standings.objects.filter(competition=competition)
    if key is not None:
        divisions = divisions.filter(key=key)
    return divisions.order_by("order", "pk").prefetch_related(*PREFETCHED).first()


def divisions_counting(division: Standings) -> list[Standings]:
    """The divisions that count ``division``'s rank (empty: none does), in their order."""
    links = division.counted_by.select_related("standings")
    return [link.standings for link in links.order_by("standings__order", "standings__pk")]


def removal_refusal(division: Standings) -> str | None:
    """Why ``division`` cannot be removed now (``None``: it can): another division counts
    its rank. The removal page says it before offering the button; the removal refuses it."""
    names = [counting.name for counting in divisions_counting(division)]
    if not names:
        return None
    return _("%(divisions)s counts this division: untick it there before removing it.") % {
        "divisions": ", ".join(names)
    }


def declared_rankings(round_: Round) -> dict[str, RankingKey]:
    """The round's kind's rankings by key."""
    return {ranking.key: ranking for ranking in round_ranking_keys(round_)}


def _columns(entries) -> tuple[list[Column], dict]:
    columns, published = [], {}
    for entry in entries:
        declared = declared_rankings(entry.round)
        rankings = {r.key: r for r in round_published_rankings(entry.round)}
        for key in entry.rankings:
            if key not in declared:
                continue  # the kind no longer has it (the service refuses it on the next save)
            column = Column(entry.round, entry.weight, declared[key], key not in rankings)
            columns.append(column)
            if not column.pending:
                published[column.key] = {row.team_id: row for row in rankings[key].rows}
    return columns, published


def standings_of(*, competition: Competition, key: str | None = None) -> StandingsTable | None:
    """The table of the competition's division ``key`` (``None``: its first), or ``None``
    when the organizers set no such division."""
    settings = standings_settings(competition=competition, key=key)
    return None if settings is None else standings_table(settings)


def standings_tables(*, competition: Competition) -> list[tuple[Standings, StandingsTable]]:
    """Every division of the competition with its table, in their order. The divisions that
    count none come first, so that a grand ranking reads their tables rather than
    computing them again (one level: a counted division counts none)."""
    divisions = standings_divisions(competition=competition)
    tables: dict[int, StandingsTable] = {}
    for division in sorted(divisions, key=lambda d: bool(d.counted_divisions.all())):
        tables[division.pk] = standings_table(division, known=tables)
    return [(division, tables[division.pk]) for division in divisions]


def _counted(settings: Standings, known: dict) -> tuple[list[DivisionColumn], dict]:
    """The divisions ``settings`` counts, each with its table's cells by team (``known``:
    tables already computed, by division). One level (the services refuse counting a
    division that counts): a counted division's own counted divisions are not read."""
    columns, cells = [], {}
    for link in settings.counted_divisions.all():
        table = known.get(link.counted.pk) or standings_table(link.counted, counting=False)
        columns.append(DivisionColumn(link.counted, link.weight, table.pending))
        cells[link.counted.pk] = {
            row.team.pk: (row.team, Cell(row.rank, row.value)) for row in table.rows
        }
    return columns, cells


def standings_table(
    settings: Standings, *, counting: bool = True, known: dict | None = None
) -> StandingsTable:
    """One division's table (its entries prefetched with their rounds, as the selectors
    above give them); ``counting`` false: without the divisions it counts; ``known``: the
    tables of divisions already computed, by division."""
    columns, published = _columns(settings.entries.all())
    divisions, counted = _counted(settings, known or {}) if counting else ([], {})
    teams = {}
    for rows in published.values():
        for row in rows.values():
            teams.setdefault(row.team_id, row.team)
    for by_team in counted.values():
        for team_id, (team, _counted_cell) in by_team.items():
            teams.setdefault(team_id, team)
    table_rows = []
    for team_id, team in teams.items():
        cells = []
        for column in columns:
            row = published.get(column.key, {}).get(team_id)
            cells.append(None if row is None else Cell(row.rank, row.score))
        division_cells = [
            counted[column.division.pk].get(team_id, (None, None))[1] for column in divisions
        ]
        table_rows.append(StandingsRow(team=team, cells=cells, division_cells=division_cells))
    higher = rules.higher_is_better(
        settings.rule,
        scores_higher=all(column.declared.higher_is_better for column in columns),
    )
    table = StandingsTable(
        settings.rule, str(settings.get_rule_display()), columns, table_rows, higher, divisions
    )
    if not table.pending:
        _rank(table)
    else:
        table_rows.sort(key=lambda row: row.team.name)
    return table


def _rank(table: StandingsTable) -> None:
    by_round: dict[int, list[int]] = {}
    for index, column in enumerate(table.columns):
        by_round.setdefault(column.round.pk, []).append(index)
    weights = {column.round.pk: float(column.weight) for column in table.columns}
    for row in table.rows:
        parts = []
        for round_id, indexes in by_round.items():
            cells = [row.cells[i] for i in indexes]
            places = [
                rules.Place(None, None) if c is None else rules.Place(c.rank, c.score)
                for c in cells
            ]
            parts.append((weights[round_id], places))
        for column, cell in zip(table.divisions, row.division_cells, strict=True):
            # A counted division's rank is one more place (its combined value is no score).
            rank = None if cell is None else cell.rank
            parts.append((float(column.weight), [rules.Place(rank, None)]))
        row.value = rules.combined_value(table.rule, parts)
    by_name = {row.team.name + f"\x00{row.team.pk}": row for row in table.rows}
    ordered = rules.standings_ranks(
        ((name, row.value) for name, row in by_name.items()), higher=table.higher_is_better
    )
    table.rows[:] = []
    for rank, name, _value in ordered:
        by_name[name].rank = rank
        table.rows.append(by_name[name])


def standings_csv(table: StandingsTable) -> tuple[list[str], list[list]]:
    """The table as CSV (header, rows): the page's download, the archive's
    ``standings.csv``. A pending column's cells say ``pending``, never 0; an empty cell: no
    rank (or no row) in that ranking; ``rank`` and ``combined`` are empty while pending. A
    counted division's columns are ``<key>:rank`` and ``<key>:combined`` (its combined
    value), after the rounds' ``<round>:<ranking>:rank`` and ``:score``."""
    header = ["rank", "team", "combined"]
    for column in table.columns:
        header += [f"{column.key}:rank", f"{column.key}:score"]
    for column in table.divisions:
        header += [f"{column.key}:rank", f"{column.key}:combined"]
    rows = []
    for row in table.rows:
        line = [_cell(row.rank), row.team.name, _cell(row.value)]
        for column, cell in zip(table.columns, row.cells, strict=True):
            if column.pending:
                line += ["pending", "pending"]
            else:
                line += [_cell(cell and cell.rank), _cell(cell and cell.score)]
        for column, cell in zip(table.divisions, row.division_cells, strict=True):
            if column.pending:
                line += ["pending", "pending"]
            else:
                line += [_cell(cell and cell.rank), _cell(cell and cell.score)]
        rows.append(line)
    return header, rows


def standings_csv_files(*, competition: Competition) -> list[tuple[str, bytes]]:
    """The results archive's standings files, one per division: the first is
    ``standings.csv``, the others ``standings-<key>.csv`` (empty: the competition has none)."""
    files = []
    for index, (division, table) in enumerate(standings_tables(competition=competition)):
        name = "standings.csv" if index == 0 else f"standings-{division.key}.csv"
        files.append((name, csv_bytes(*standings_csv(table))))
    return files


def _cell(value):
    return "" if value is None else value
