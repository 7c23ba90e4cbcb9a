"""The public board of a round while its phases run (PWSCup 2024's sample anonymity, 2025's
Codabench leaderboard): every team's counted upload with the scores the organizers made
public, seen by every team before the results are published. A kind declares the board
(its public columns, each team's counted upload); ``public_board`` is the one owner of the
rule of what it shows.

* **When**: until the results are published (then the round's results take over), and only
  with at least one public column: by default a team's scores are its own until then.
* **What**: of each team's counted upload, its public columns only, and when it was
  uploaded; never another score, never the file.
* **Order**: ranked by the first public column in its direction (competition ranks, an
  upload without that score unranked, last).
* **A disqualified team** (the core's ``DisqualificationRule``): in no ranking, so not on
  the board; the organizers see its row marked, unranked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.accounts.selectors import DisqualificationRule
from pwscup.submissions.round_api import ranking_table


@dataclass(frozen=True)
class BoardColumn:
    """One public score: its key in the upload's scores, its label in the reader's language
    and its direction."""

    key: str
    label: str
    higher_is_better: bool


@dataclass(frozen=True)
class BoardEntry:
    """A team's counted upload as its kind declares it: all its scores (the rule keeps the
    public ones) and when it was uploaded."""

    team: Team
    scores: Mapping
    uploaded_at: datetime


@dataclass(frozen=True)
class BoardRow:
    rank: int | None
    team: Team
    values: tuple  # the public columns' scores, in their order (``None``: none)
    uploaded_at: datetime
    disqualified: bool = False


@dataclass(frozen=True)
class PublicBoard:
    columns: tuple[BoardColumn, ...]
    rows: tuple[BoardRow, ...]


def _number(value):
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _competition_ranks(values: dict, *, higher_is_better: bool) -> dict:
    """1 + how many values are strictly better ("1224"); ``None``: no value, unranked."""
    known = [value for value in values.values() if value is not None]
    better = (lambda a, b: a > b) if higher_is_better else (lambda a, b: a < b)
    return {
        key: None if value is None else 1 + sum(1 for other in known if better(other, value))
        for key, value in values.items()
    }


def public_board_shown(*, published: bool, columns: tuple[BoardColumn, ...]) -> bool:
    """Whether a board is shown now: not once the results are published, nor without a
    public column (a kind asks before it reads the uploads)."""
    return not published and bool(columns)


def public_board(
    *,
    columns: tuple[BoardColumn, ...],
    entries: list[BoardEntry],
    published: bool,
    rule: DisqualificationRule,
    is_organizer: bool,
) -> PublicBoard | None:
    """The board the reader sees now (see the module), ``None`` when none is shown: the
    results are published or no column is public."""
    if not public_board_shown(published=published, columns=columns):
        return None
    shown = entries if is_organizer else rule.ranked(entries)
    values = {
        entry.team.pk: tuple(_number(entry.scores.get(column.key)) for column in columns)
        for entry in shown
    }
    ranks = _competition_ranks(
        {entry.team.pk: values[entry.team.pk][0] for entry in rule.ranked(shown)},
        higher_is_better=columns[0].higher_is_better,
    )
    rows = [
        BoardRow(
            rank=ranks.get(entry.team.pk),
            team=entry.team,
            values=values[entry.team.pk],
            uploaded_at=entry.uploaded_at,
            disqualified=rule.marked(entry.team.pk),
        )
        for entry in shown
    ]
    rows.sort(key=lambda row: (row.rank is None, row.rank or 0, row.team.name))
    return PublicBoard(columns=columns, rows=tuple(rows))


def public_board_table(board: PublicBoard) -> dict:
    """The board as a table of the API's round standings (``ranking_table``): the public
    scores, then when the counted upload was uploaded: the moment, to the second, in the
    current time zone (the round's, as every time of the API), which ``rows_text`` writes as
    the pages do."""
    return ranking_table(
        _("Public leaderboard"),
        [*(column.label for column in board.columns), _("Uploaded")],
        (
            [
                row.rank,
                row.team.name,
                *row.values,
                timezone.localtime(row.uploaded_at).replace(microsecond=0),
            ]
            for row in board.rows
        ),
    )


def public_board_note() -> str:
    """What the API's standings say of the board."""
    return _(
        "Public leaderboard: every team's counted release with the scores the organizers made "
        "public. The results take its place once published."
    )
