"""The sequential round's answers to the API's round status and standings, the same shape
for every kind (``RoundKind.api_round_status``, ``api_leaderboard``): what the team may
download now (never a release after the visible one, never another team's master; the
targets' files in the attack phase), the metrics, and the leaderboard page's table. Its
uploads are the declared types' (``submissions.py``), its endpoints (``ROUND_ENDPOINTS``)
``views.py``'s: this module is the kind's ``api_module``."""

from django.http import Http404
from django.utils.translation import gettext as _

from pwscup.sequential import selectors
from pwscup.sequential.api.submissions import SUBMISSION_TYPES, other_targets
from pwscup.sequential.api.views import ROUND_ENDPOINTS
from pwscup.submissions.round_api import (
    RoundStatus,
    api_download,
    metric,
    ranking_table,
    target_downloads,
)

__all__ = ["ROUND_ENDPOINTS", "SUBMISSION_TYPES", "round_leaderboard", "round_status"]

# A release's one-line summary (``pwscup status``): the invariance, the risks, the loss.
HEADLINE = ("MINV", "RN_max", "RA_max", "IL")


def _metrics(sequential) -> list[dict]:
    """The release columns of the leaderboard and, in a round with an attack phase, the
    guesses' accuracy (an attack's one score)."""
    found = [metric(m, m, headline=m in HEADLINE) for m in selectors.BOARD_METRICS]
    if sequential.config.get("attack_phase"):
        found.append(metric("accuracy", _("accuracy"), headline=True))
    return found


def _downloads(access, sequential) -> list[dict]:
    """The team's data as its Data tab offers it now (the targets' files in the attack
    phase)."""
    found = [api_download(access, "seq-config", "config.json", _("Configuration"))]
    if access.team is None:
        return found
    if selectors.team_master(sequential=sequential, team=access.team) is not None:
        found.append(api_download(access, "seq-master", "master.csv", _("Your master table")))
        for step in range(1, selectors.visible_steps(sequential=sequential) + 1):
            label = _("The table at release %(j)s") % {"j": step}
            found.append(api_download(access, "seq-step", f"T{step}.csv", label, step))
    if sequential.attack_phase_begun:
        # The attack phase: the other teams' targets, their files to download.
        found += target_downloads(
            access,
            other_targets(sequential, access.team),
            lambda target: [
                ("seq-target-file", name, _("Published by %(team)s"), name)
                for name in sorted(target.files)
            ],
        )
    return found


def _sequential(round_):
    return selectors.sequential_of(round=round_)


# ``SequentialKind.api_round_status``: the metrics, and the team's data.
round_status = RoundStatus(part=_sequential, metrics=_metrics, downloads=_downloads)


def round_leaderboard(request, access) -> dict:
    """``SequentialKind.api_leaderboard``: the leaderboard page's table, to the same callers
    (organizers, the round's teams, everyone once the results are published)."""
    sequential = selectors.sequential_of(round=access.round)
    if not selectors.leaderboard_shown(sequential=sequential, access=access):
        raise Http404(_("No leaderboard."))
    metrics = list(selectors.BOARD_METRICS)
    # The attack phase ranks by safety: the page shows it beside the validity, so does this.
    safety = bool(sequential.config.get("attack_phase"))
    rows = []
    for row in selectors.leaderboard_rows(sequential=sequential):
        if not row.complete:
            validity = _("incomplete")
        elif row.gate_failures:
            validity = _("fails %(gates)s") % {"gates": ", ".join(row.gate_failure_labels)}
        else:
            validity = _("valid")
        # The exact values: ``rows_text`` writes them as the pages do (``score_text``'s rule).
        ranking = [row.safety] if safety else []
        scores = [row.results.get(m) for m in metrics]
        rows.append([row.rank, row.team.name, validity, *ranking, *scores])
    frozen = {"j": sequential.frozen_steps, "n": sequential.n_releases}
    if frozen["j"]:
        note = _("Over the frozen releases 1 … %(j)s (of %(n)s).") % frozen
    else:
        note = _("No release is frozen yet (of %(n)s).") % frozen
    return {
        "note": note,
        "tables": [
            ranking_table(
                _("Leaderboard"),
                [_("Validity"), *([_("Safety")] if safety else []), *metrics],
                rows,
            )
        ],
    }
