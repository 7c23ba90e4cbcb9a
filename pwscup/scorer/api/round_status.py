"""The scorer round's answers to the API's round status and standings, the same shape for every
kind (``RoundKind.api_round_status``, ``api_leaderboard``), pointing at the endpoints of
``views.py`` and ``files.py``: what the team may upload (a release in the release phase; after
the freeze an attack, on one target chosen by its team's slug or on every target at once, as
the round's settings say), what it may download now, its uploads with the scores it may see,
and the round's declared score columns in the reader's language.

The standings are the release ranking and the attack ranking (``selectors.standings``): to
the organizers always, to everyone else who sees the round once the results are published
(404 before, as the round's results page); disqualified teams are left out except for the
organizers."""

from django.urls import reverse
from django.utils.translation import gettext as _

from pwscup.competitions.selectors import phase_state
from pwscup.core.errors import Refused
from pwscup.scorer import selectors
from pwscup.scorer.api import files
from pwscup.scorer.api.common import (
    ATTACK,
    RELEASE,
    attacks_json,
    column_label,
    releases_json,
)


def _metrics(config) -> list[dict]:
    """The release columns, then the attack columns (a key declared on both sides once)."""
    primaries = {config.release_primary, config.attack_primary}
    metrics, seen = [], set()
    for column in (*config.release_columns, *config.attack_columns):
        if column.key in seen:
            continue
        seen.add(column.key)
        metrics.append(
            {
                "key": column.key,
                "name": column_label(column),
                "note": "",
                "headline": column.key in primaries,
                "higher_is_better": column.higher_is_better,
            }
        )
    return metrics


def _is_open(phase) -> bool:
    return phase is not None and phase_state(phase=phase) == "open"


def round_status(request, access) -> dict:
    """``ScorerKind.api_round_status``: the release upload; after the freeze the attack
    upload (with its ``target`` field in a round of one upload per target); the downloads;
    the team's releases and attacks, newest first; the declared score columns."""
    scorer = selectors.scorer_of(access.round)
    answer = {"submission_types": [], "downloads": [], "uploads": [], "metrics": []}
    if scorer is None:
        return answer
    config = selectors.round_config(scorer.round)
    answer["metrics"] = _metrics(config)
    if access.team is None and not access.is_organizer:
        return answer
    answer["downloads"] = files.downloads(access, scorer)
    team = access.team
    if team is None:
        return answer
    args = [access.competition.slug, access.round.slug]
    answer["submission_types"].append(
        {
            "key": RELEASE,
            "label": _("A release (scored by the organizer's program)"),
            "url": reverse("api:scorer-releases", args=args),
            "open": scorer.frozen_at is None and _is_open(selectors.release_phase(access.round)),
            "fields": [],
        }
    )
    uploads = releases_json(scorer, team)
    if scorer.frozen_at is not None:
        answer["submission_types"].append(_attack_type(scorer, team=team, config=config))
        uploads += attacks_json(scorer, access)
    answer["uploads"] = sorted(uploads, key=lambda u: (u["created_at"], u["id"]), reverse=True)
    return answer


def _attack_type(scorer, *, team, config) -> dict:
    """The attack upload: open while the attack phase is and the results are not published;
    in a round of one upload per target its ``target`` field lists the other teams' targets."""
    choices = [t.team.slug for t in selectors.attack_target_choices(scorer=scorer, team=team)]
    per_target = config.attack_mode == "per_target"
    fields = []
    if per_target:
        fields.append(
            {"name": "target", "label": _("Target"), "required": True, "choices": choices}
        )
    label = (
        _("An attack on one target (scored by the organizer's program)")
        if per_target
        else _("An attack on every target at once (scored by the organizer's program)")
    )
    is_open = _is_open(selectors.attack_phase(scorer.round)) and not scorer.results_published
    return {
        "key": ATTACK,
        "label": label,
        "url": reverse(
            "api:scorer-attacks", args=[scorer.round.competition.slug, scorer.round.slug]
        ),
        "open": bool(choices) and is_open,
        "fields": fields,
    }


def round_leaderboard(request, access) -> dict:
    """``ScorerKind.api_leaderboard``: the release ranking and the attack ranking, to the
    organizers always, to the others once the results are published (404 before)."""
    scorer = selectors.scorer_of(access.round)
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
    note = "" if scorer.results_published else _("Not published yet: shown to the organizers.")
    return {
        "note": note,
        "tables": [
            {
                "title": _("Release ranking"),
                "columns": [
                    _("Rank"),
                    _("Team"),
                    *(column_label(column) for column in config.release_columns),
                    _("Protection (%(score)s)") % {"score": attack_name},
                    *([_("Gates")] if gates else []),
                ],
                "rows": releases,
            },
            {
                "title": _("Attack ranking"),
                "columns": [
                    _("Rank"),
                    _("Team"),
                    _("Attack power (%(score)s)") % {"score": attack_name},
                    _("Targets attacked"),
                ],
                "rows": [[row.rank, row.team.name, row.power, row.attacked] for row in attackers],
            },
        ],
    }
