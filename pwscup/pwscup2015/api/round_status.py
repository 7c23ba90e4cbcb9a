"""The 2015 game's answers to the API's round status and standings, the same shape for every
kind (``RoundKind.api_round_status``, ``api_leaderboard``): its two uploads (anonymized
tables, attacks on the published targets), what the team downloads (its table to anonymize
and the scoring configuration), its uploads, and the leaderboard page's table. Every answer
comes from the endpoints' own access rules and selectors (``access.py``,
``leaderboards/access.py``)."""

from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

import scoring
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of, phase_state, round_metrics
from pwscup.pwscup2015.access import original_file_for, targets_for_attacker
from pwscup.pwscup2015.api import serializers as s
from pwscup.pwscup2015.leaderboards import selectors as boards
from pwscup.pwscup2015.leaderboards.access import leaderboard_access
from pwscup.pwscup2015.leaderboards.selectors import attack_rates_visible_to_team
from pwscup.pwscup2015.selectors import team_attacks, team_submissions
from pwscup.submissions import round_api
from scoring.display import format_metric, undefined_note

ANONYMIZED, ATTACK = "anonymized", "attack"
# An upload's one-line summary (``pwscup status``): utility, then safety.
HEADLINE = ("U1", "U4", "E3", "S1")
# What an upload's answer reads beside its row (its team, its round's slugs): one query for
# the team's uploads, however many.
UPLOAD_ROWS = ("team", "phase__round__competition")


def _note_field() -> dict:
    return {"name": "note", "label": _("Note"), "required": False, "choices": None}


def _submission_json(submission) -> dict:
    data = s.SubmissionSerializer(submission).data
    return {
        "type": ANONYMIZED,
        "id": submission.pk,
        "number": submission.number,
        "status": submission.status,
        "created_at": submission.created_at,
        "about": "",
        "message": data["message"],
        "note": submission.note,
        "scores": data["scores"] or {},
        "scores_text": data["scores_text"] or {},
        "final": submission.is_selected,
        "url": reverse("api:submission-detail", args=[submission.pk]),
    }


def _attack_json(attack, *, show_rates: bool) -> dict:
    data = s.AttackSerializer(attack, context={"show_rates": show_rates}).data
    return {
        "type": ATTACK,
        "id": attack.pk,
        "number": attack.number,
        "status": attack.status,
        "created_at": attack.created_at,
        "about": attack.target.team.name,
        "message": data["message"],
        "note": attack.note,
        "scores": {} if data["rate"] is None else {"rate": data["rate"]},
        "scores_text": {} if data["rate_text"] is None else {"rate": data["rate_text"]},
        "final": False,
        "url": reverse("api:attack-detail", args=[attack.pk]),
    }


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
    return out


def round_status(request, access) -> dict:
    """``Pwscup2015Kind.api_round_status``."""
    round_, team, now = access.round, access.team, timezone.now()
    args = round_api.round_args(round_)
    metrics = list(round_metrics(round=round_))
    answer = {
        "submission_types": [],
        "downloads": _downloads(access, args),
        "uploads": [],
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
    if team is None:
        return answer
    anonymization = phase_of(round=round_, kind=Phase.Kind.ANONYMIZATION)
    attack = phase_of(round=round_, kind=Phase.Kind.ATTACK)
    if anonymization is not None:
        answer["submission_types"].append(
            {
                "key": ANONYMIZED,
                "label": _("An anonymized table"),
                "url": reverse("api:submissions", args=args),
                "open": phase_state(phase=anonymization, now=now) == "open",
                "fields": [_note_field()],
            }
        )
        answer["uploads"] += [
            _submission_json(u)
            for u in team_submissions(phase=anonymization, team=team).select_related(*UPLOAD_ROWS)
        ]
    if attack is not None:
        targets = [t.team.slug for t in targets_for_attacker(access)]
        answer["submission_types"].append(
            {
                "key": ATTACK,
                "label": _("An attack on a published target"),
                "url": reverse("api:attacks", args=args),
                "open": phase_state(phase=attack, now=now) == "open" and bool(targets),
                "fields": [
                    {"name": "target", "label": _("Target"), "required": True, "choices": targets},
                    _note_field(),
                ],
            }
        )
        show = attack_rates_visible_to_team(round=round_)
        answer["uploads"] += [
            _attack_json(u, show_rates=show)
            for u in team_attacks(phase=attack, team=team).select_related(*UPLOAD_ROWS)
        ]
    answer["uploads"].sort(key=lambda u: (u["created_at"], u["id"]), reverse=True)
    return answer


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
            round_api.score_text(row.safety),
            *[format_metric(m, row.scores.get(m)) for m in metrics],
        ]
        for row in standings.rows()
    ]
    return round_api.ranking_table(title, [standings.label, *metrics], rows)


def _attack_table(round) -> dict:
    _anonymization, attack = boards.final_ranking_cached(round=round)
    return round_api.ranking_table(
        _("Attack ranking"),
        [_("Mean rate"), _("Targets attacked")],
        (
            [
                row.rank,
                row.team.name,
                round_api.score_text(row.mean_rate),
                row.targets_attacked,
            ]
            for row in attack
        ),
    )
