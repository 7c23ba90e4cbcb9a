"""Who ranked a scorer round, in words, for the Results tab and the API's standings: nothing
for a round its rules rank (the Rules tab says how), else the ranking program's run that
ranks it (``selectors.Standings.ranking``: the newest finished one), or that none has run."""

from django.utils.translation import gettext as _


def ranked_by_text(board, config) -> str:
    """``board``: the round's ``selectors.standings``; ``config``: its settings."""
    if config.ranking != "program":
        return ""
    run = board.ranking
    if run is None:
        return _("Not ranked yet: the organizers' ranking program has not run.")
    return _("Ranked by the organizers' ranking program: run #%(number)s, program %(version)s.") % {
        "number": run.pk,
        "version": run.program.label if run.program_id else "—",
    }
