"""The 2015 game's answers to the API's round status and standings, the same shape for every
kind (``RoundKind.api_round_status``, ``api_leaderboard``): what the team downloads (its
table to anonymize, the scoring configuration and in the attack phase the published
targets' files), the metrics, and the leaderboard page's
table (its two uploads and the team's uploads of them are declared: ``submissions.py``,
listed by the core). Every answer
comes from the endpoints' own access rules and selectors (``access.py``,
``leaderboards/access.py``)."""

from django.http import Http404
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

import scoring
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of, round_metrics
from pwscup.pwscup2015.access import original_file_for, targets_for_attacker
from pwscup.pwscup2015.leaderboards import selectors as boards
from pwscup.pwscup2015.leaderboards.access import leaderboard_access
from pwscup.submissions import round_api
from scoring.display import UNDEFINED, undefined_note, undefined_symbol
from scoring.metrics_info import METRIC_KINDS

# An upload's one-line summary (``pwscup status``): utility, then safety.
HEADLINE = ("U1", "U4", "E3", "S1")


def _downloads(access, args) -> list[dict]:
    out = []
    try:
        _field, name = original_file_for(access)
    except Http404:
        pass  # not open yet, or no team: nothing to download (as on the Data tab)
    else:
        out.append(
            round_api.download(name, _("Table to anonymize"), reverse("api:original", args=args))
        )
    if round_api.is_participant(access):
        out.append(
            round_api.download(
                f"{access.round.slug}_config.json",
                _("Scoring configuration"),
                reverse("api:round-config", args=args),
            )
        )
    return out + _target_downloads(access)


def _target_downloads(access) -> list[dict]:
    """The published targets the caller may attack now (as the Data tab lists them): each
    one's table and, in the per-team mode, its candidate table, marked as the target's."""
    out = []
    for target in targets_for_attacker(access):
        team = target.team
        out.append(
            round_api.target_download(
                access,
                "target-anonymized",
                f"{team.slug}_anonymized.csv",
                _("Published by %(team)s") % {"team": team.name},
                team,
            )
        )
        if target.candidate_file:
            label = _("Candidate table of %(team)s") % {"team": team.name}
            name = f"{team.slug}_candidate.csv"
            out.append(round_api.target_download(access, "target-candidate", name, label, team))
    return out


def round_status(request, access) -> dict:
    """``Pwscup2015Kind.api_round_status``."""
    round_ = access.round
    args = round_api.round_args(round_)
    metrics = list(round_metrics(round=round_))
    return {
        "downloads": _downloads(access, args),
        "metrics": [
            round_api.metric(
                m,
                scoring.METRIC_NAMES[m],
                note=undefined_note(m, get_language()),
                headline=m in HEADLINE,
            )
            for m in metrics
        ],
    }


def round_leaderboard(request, access) -> dict:
    """``Pwscup2015Kind.api_leaderboard``: the leaderboard page's table, to whom its page shows
    it (``leaderboard_access``: public once the organizer says so), with its ranking number
    (``leaderboard_standings``: over every attack once the viewer may see the final
    ranking); once the results are published (or to the organizers), the attack ranking
    too. Published results are shown even where the leaderboard itself is not public."""
    round_ = access.round
    results = boards.can_view_results(
        user=request.user, round=round_, is_organizer=access.is_organizer
    )
    if results:
        phase = phase_of(round=round_, kind=Phase.Kind.ANONYMIZATION)
        if phase is None:
            raise Http404
    else:
        access, phase = leaderboard_access(request, access.competition.slug, round_.slug)
    standings = boards.leaderboard_standings(
        phase=phase, user=request.user, is_organizer=access.is_organizer
    )
    title = _("Anonymization ranking") if standings.every_attack else _("Leaderboard")
    tables = [_anonymization_table(round_, title, standings)]
    if results:
        tables.append(_attack_table(round_))
    return {"note": boards.ranking_rule_text(round_), "tables": tables}


def _anonymization_table(round, title, standings) -> dict:
    metrics = list(round_metrics(round=round))
    rows = [
        [
            row.rank,
            row.team.name,
            round_api.score_cell(row.safety),
            *[_metric_cell(m, row.scores.get(m)) for m in metrics],
        ]
        for row in standings.rows()
    ]
    return round_api.ranking_table(title, [standings.label, *metrics], rows)


def _metric_cell(metric: str, value):
    """A metric's exact value in a standings row, typed so that ``rows_text`` writes it as
    the pages do (``format_metric``): a whole count as an integer, another number as a
    score; a no-value sign other than "–" (L3's ∞) as its text."""
    if value is None:
        sign = undefined_symbol(metric)
        return None if sign == UNDEFINED else sign
    if METRIC_KINDS[metric] == "count" and float(value).is_integer():
        return int(value)
    return float(value)


def _attack_table(round) -> dict:
    _anonymization, attack = boards.final_ranking_cached(round=round)
    return round_api.ranking_table(
        _("Attack ranking"),
        [_("Mean rate"), _("Targets attacked")],
        (
            [
                row.rank,
                row.team.name,
                round_api.score_cell(row.mean_rate),
                row.targets_attacked,
            ]
            for row in attack
        ),
    )
