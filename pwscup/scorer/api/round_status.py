"""The scorer round's answers to the API's round status and standings, the same shape for every
kind (``RoundKind.api_round_status``, ``api_leaderboard``): what the team may download now
(``files.py``), the round's declared score columns in the reader's language and the
team's uploads still scored by an older version of the program (``older_scores.py``). What it may
upload and its uploads (a release in the release phase; after the freeze an attack, on one
target chosen by its team's slug or on every target at once, as the round's settings say)
are the core's, from the declared submission types (``submissions.py``).

The standings are the release ranking and the attack ranking (``selectors.standings``): to
the organizers always, to everyone else who sees the round once the results are published
(404 before, as the round's results page); disqualified teams are left out except for the
organizers. Until then a round with public release scores answers everyone its public
leaderboard (``pwscup.scorer.public_board``), after the organizers' two rankings."""

from django.utils.translation import gettext as _

from pwscup.core.errors import Refused
from pwscup.core.languages import sentences
from pwscup.scorer import selectors
from pwscup.scorer.api import files
from pwscup.scorer.api.common import column_label
from pwscup.scorer.older_scores import team_older_scores
from pwscup.scorer.public_board import round_public_board
from pwscup.scorer.ranking_text import ranked_by_text
from pwscup.scorer.salt import published_salt
from pwscup.submissions.public_board import public_board_note, public_board_table
from pwscup.submissions.round_api import RoundStatus, metric, two_sided_tables


def _metrics(scorer) -> list[dict]:
    """The release columns, then the attack columns (a key declared on both sides once)."""
    config = selectors.round_config(scorer.round)
    primaries = {config.release_primary, config.attack_primary}
    metrics, seen = [], set()
    for column in (*config.release_columns, *config.attack_columns):
        if column.key in seen:
            continue
        seen.add(column.key)
        entry = metric(column.key, column_label(column), headline=column.key in primaries)
        metrics.append({**entry, "higher_is_better": column.higher_is_better})
    return metrics


def _notes(access, scorer) -> list[dict]:
    """The team's uploads an older version of the program scored, as its tabs say it
    (``older_scores``); none while every scored upload is on the current version. Then the
    committed salt of the slots (``slot_salt``): its SHA-256, and the salt once revealed."""
    older = team_older_scores(
        scorer=scorer, team=access.team, program=selectors.current_program(scorer=scorer)
    )
    notes = [{"key": "older_scores", "text": older.text()}] if older else []
    salt = published_salt(scorer)
    if salt is not None:
        notes.append({"key": "slot_salt", "text": salt.note()})
    return notes


# ``ScorerKind.api_round_status``: the declared score columns, the downloads and the notes
# (the uploads are the declared types').
round_status = RoundStatus(
    part=selectors.scorer_of, metrics=_metrics, downloads=files.downloads, notes=_notes
)


def round_leaderboard(request, access) -> dict:
    """``ScorerKind.api_leaderboard``: the release ranking and the attack ranking, to the
    organizers always, to the others once the results are published; before that, the
    public board (``public_board``) to everyone when the round has one, else 404."""
    scorer = selectors.scorer_of(access.round)
    public = scorer and round_public_board(scorer=scorer, is_organizer=access.is_organizer)
    if public is not None and not access.is_organizer:
        return {"note": public_board_note(), "tables": [public_board_table(public)]}
    if scorer is None or not (scorer.results_published or access.is_organizer):
        raise Refused(
            _("The rankings are shown once the organizers publish the results."), status=404
        )
    config = selectors.round_config(scorer.round)
    board = selectors.standings(scorer=scorer)
    shown = [row for row in board.releases if access.is_organizer or not row.disqualified]
    attackers = [row for row in board.attackers if access.is_organizer or not row.disqualified]
    attack_name = column_label(config.attack_primary_column)
    gates = bool(config.gates)
    releases = [
        [
            row.rank,
            row.team.name,
            *(row.release.scores.get(column.key) for column in config.release_columns),
            row.protection,
            *([_("fails") if row.failed_gates else _("passes")] if gates else []),
        ]
        for row in shown
    ]
    notes = [ranked_by_text(board, config)]
    if not scorer.results_published:
        notes.append(_("Not published yet: shown to the organizers."))
    if public is not None:  # the organizers' own view of what every team sees
        notes.append(public_board_note())
    note = sentences(notes)
    return {
        "note": note,
        "tables": [
            *two_sided_tables(
                [
                    *(column_label(column) for column in config.release_columns),
                    _("Protection (%(score)s)") % {"score": attack_name},
                    *([_("Gates")] if gates else []),
                ],
                releases,
                _("Attack power (%(score)s)") % {"score": attack_name},
                ([row.rank, row.team.name, row.power, row.attacked] for row in attackers),
            ),
            *([public_board_table(public)] if public is not None else []),
        ],
    }
