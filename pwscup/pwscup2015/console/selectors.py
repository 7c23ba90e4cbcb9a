"""What the 2015 game's console reads: a round's phases, counts, team overview and archive."""

from dataclasses import dataclass

from django.db.models import Count, Q

from pwscup.accounts.models import Team, TeamDisqualification
from pwscup.competitions.models import Phase, Round
from pwscup.competitions.selectors import (
    phase_closes_at,
    phase_of,
    phase_state,
)
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    BuiltinAttack,
    RoundOperation,
    Target,
)
from pwscup.pwscup2015.selectors import representative_submission
from pwscup.submissions.models import PENDING, Status
from pwscup.submissions.voids import counted


@dataclass(frozen=True)
class PhaseView:
    kind: str
    label: str
    phase: Phase | None
    state: str
    closes_at: object


def round_phases(*, round: Round) -> list[PhaseView]:
    views = []
    for kind, label in Phase.Kind.choices:
        phase = phase_of(round=round, kind=kind)
        views.append(
            PhaseView(
                kind=kind,
                label=str(label),
                phase=phase,
                state=phase_state(phase=phase),
                closes_at=phase_closes_at(phase=phase) if phase else None,
            )
        )
    return views


@dataclass(frozen=True)
class RoundCounts:
    teams: int
    submissions: int
    attacks: int
    queued: int
    running: int
    failed: int


def round_counts(*, round: Round) -> RoundCounts:
    def by_status(queryset) -> dict:
        return queryset.aggregate(
            total=Count("pk"),
            queued=Count("pk", filter=Q(status=Status.QUEUED)),
            running=Count("pk", filter=Q(status=Status.RUNNING)),
            failed=Count("pk", filter=Q(status=Status.FAILED)),
        )

    uploads = by_status(AnonymizationSubmission.objects.filter(phase__round=round))
    attacks = by_status(AttackSubmission.objects.filter(phase__round=round))
    builtin = by_status(BuiltinAttack.objects.filter(target__round=round))
    return RoundCounts(
        teams=round.competition.teams.count(),
        submissions=uploads["total"],
        attacks=attacks["total"],
        queued=uploads["queued"] + attacks["queued"] + builtin["queued"],
        running=uploads["running"] + attacks["running"] + builtin["running"],
        failed=uploads["failed"] + attacks["failed"] + builtin["failed"],
    )


def round_busy(*, round: Round) -> bool:
    """A background operation or a built-in attack job of the round is still under way."""
    return (
        RoundOperation.objects.filter(round=round, status__in=PENDING).exists()
        or BuiltinAttack.objects.filter(target__round=round, status__in=PENDING).exists()
    )


def round_has_submissions(*, round: Round) -> bool:
    return AnonymizationSubmission.objects.filter(phase__round=round).exists()


@dataclass(frozen=True)
class TeamOverview:
    team: Team
    final: AnonymizationSubmission | None
    target: Target | None
    attacks_made: int
    disqualification: TeamDisqualification | None


def round_team_overview(*, round: Round) -> list[TeamOverview]:
    """Per team: the submission that stands for it (the published one once frozen), its
    scores, and how many attacks it made (a voided one not counted)."""
    anonymization = phase_of(round=round, kind=Phase.Kind.ANONYMIZATION)
    targets = {
        t.team_id: t for t in Target.objects.filter(round=round).select_related("submission")
    }
    attacks = dict(
        counted(AttackSubmission.objects.filter(phase__round=round))
        .values_list("team_id")
        .annotate(n=Count("pk"))
        .values_list("team_id", "n")
    )
    rows = []
    for team in round.competition.teams.select_related("disqualification"):
        target = targets.get(team.pk)
        if target is not None:
            final = target.submission
        elif anonymization is not None:
            final = representative_submission(phase=anonymization, team=team)
        else:
            final = None
        rows.append(
            TeamOverview(
                team=team,
                final=final,
                target=target,
                attacks_made=attacks.get(team.pk, 0),
                disqualification=getattr(team, "disqualification", None),
            )
        )
    return rows


def round_archive_members(*, round: Round):
    """``(name in the ZIP, file field)`` of every upload and target of the round."""
    for submission in AnonymizationSubmission.objects.filter(phase__round=round).select_related(
        "team"
    ):
        yield (
            f"anonymizations/{submission.team.slug}/{submission.pk}-{submission.original_filename}",
            submission.file,
        )
    for attack in AttackSubmission.objects.filter(phase__round=round).select_related(
        "team", "target__team"
    ):
        yield (
            f"attacks/{attack.team.slug}/{attack.pk}-on-{attack.target.team.slug}-"
            f"{attack.original_filename}",
            attack.file,
        )
    for target in Target.objects.filter(round=round).select_related("team"):
        prefix = f"targets/{target.team.slug}-v{target.version}"
        yield f"{prefix}/anonymized.csv", target.published_file
        yield f"{prefix}/truth.csv", target.truth_file
        if target.candidate_file:
            yield f"{prefix}/candidate.csv", target.candidate_file
