"""The scorer round's public board while its phases run: its declaration to the core's
``pwscup.submissions.public_board`` (the one owner of what the board shows): the round's
public release columns (the setting ``public_columns``) and each team's counted release, the
one the freeze publishes (``selectors.final_release_among``: the chosen one, else the newest
scored)."""

from pwscup.accounts.selectors import disqualification_rule
from pwscup.core.languages import in_reader_language
from pwscup.scorer import score_text, selectors
from pwscup.scorer.models import Release, ScorerRound
from pwscup.submissions.models import Status
from pwscup.submissions.public_board import (
    BoardColumn,
    BoardEntry,
    PublicBoard,
    public_board,
    public_board_shown,
)


def counted_releases(*, scorer: ScorerRound) -> list[Release]:
    """Each team's counted release (one query: the round's scored releases)."""
    by_team: dict[int, list[Release]] = {}
    scored = (
        Release.objects.filter(scorer=scorer, status=Status.FINISHED)
        .select_related("team")
        .only("team", "scores", "selected", "number", "status", "created_at", "scorer_id")
    )
    for release in scored:
        by_team.setdefault(release.team_id, []).append(release)
    return [selectors.final_release_among(releases) for releases in by_team.values()]


def round_public_board(*, scorer: ScorerRound, is_organizer: bool) -> PublicBoard | None:
    """The board the reader sees now, ``None``: none (published, or no public column)."""
    config = selectors.round_config(scorer.round)
    columns = tuple(
        BoardColumn(
            key=column.key,
            label=in_reader_language(column.label, column.label_ja),
            higher_is_better=column.higher_is_better,
        )
        for column in config.public_release_columns
    )
    if not public_board_shown(published=scorer.results_published, columns=columns):
        return None  # before reading the releases
    entries = [
        BoardEntry(team=release.team, scores=release.scores or {}, uploaded_at=release.created_at)
        for release in counted_releases(scorer=scorer)
    ]
    return public_board(
        columns=columns,
        entries=entries,
        published=scorer.results_published,
        rule=disqualification_rule(competition_id=scorer.round.competition_id),
        is_organizer=is_organizer,
    )


def public_board_page(*, scorer: ScorerRound, is_organizer: bool, team) -> dict | None:
    """The board as the Results tab shows it: each score as the tables write it, the
    reader's own team's row marked."""
    board = round_public_board(scorer=scorer, is_organizer=is_organizer)
    if board is None:
        return None
    own_id = team.pk if team is not None else None
    rows = [
        {
            "rank": row.rank,
            "team": row.team,
            "own": row.team.pk == own_id,
            "disqualified": row.disqualified,
            "texts": ["—" if v is None else score_text.format_score(v) for v in row.values],
            "uploaded_at": row.uploaded_at,
        }
        for row in board.rows
    ]
    return {"columns": board.columns, "rows": rows}
