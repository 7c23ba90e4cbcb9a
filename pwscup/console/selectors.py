"""What the organizer console reads: one competition's rounds, teams, counts and audit log.

Who may see a console page is ``organized_competitions`` (pwscup.accounts.selectors), the
one rule every organizer screen applies; a competition the user does not organize is a 404
here, exactly like one that does not exist.
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404

from pwscup.accounts.models import Membership, Team
from pwscup.accounts.selectors import organized_competitions
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.competitions.selectors import phase_closes_at, phase_of, phase_state
from pwscup.console.models import AuditEntry, TeamDisqualification
from pwscup.submissions.models import (
    AnonymizationSubmission,
    AttackSubmission,
    RoundOperation,
    Status,
    Target,
)
from pwscup.submissions.selectors import representative_submission


def console_competition(*, user, slug: str) -> Competition:
    return get_object_or_404(organized_competitions(user=user), slug=slug)


def console_round(
    *, user, competition_slug: str, round_slug: str, kind: str | None = None
) -> Round:
    """A round the user organizes (404 otherwise); with ``kind``, only a round of that kind
    (a kind's console pages are confined to its rounds)."""
    competition = console_competition(user=user, slug=competition_slug)
    rounds = Round.objects.select_related("competition").prefetch_related("phases")
    if kind is not None:
        rounds = rounds.filter(kind=kind)
    return get_object_or_404(rounds, competition=competition, slug=round_slug)


def console_team(*, competition: Competition, pk: int) -> Team:
    return get_object_or_404(Team, competition=competition, pk=pk)


def may_create_competitions(*, user) -> bool:
    """Creating a competition is granted by the ``competitions.add_competition`` permission."""
    return (
        user.is_authenticated and user.is_active and user.has_perm("competitions.add_competition")
    )


def may_use_console(*, user) -> bool:
    """An account that organizes a competition, or may create one."""
    if not user.is_authenticated:
        return False
    return may_create_competitions(user=user) or organized_competitions(user=user).exists()


def may_manage_creators(*, user) -> bool:
    """Who decides which accounts may create competitions: a superuser, or a staff account
    that uses the console (a staff organizer)."""
    if not (user.is_authenticated and user.is_active):
        return False
    return user.is_superuser or (user.is_staff and may_use_console(user=user))


def competition_creators():
    """The active accounts allowed to create competitions by their own permission, or as
    superusers (a permission given through a group is the admin's business)."""
    return (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(
            Q(is_superuser=True)
            | Q(
                user_permissions__content_type__app_label="competitions",
                user_permissions__codename="add_competition",
            )
        )
        .distinct()
        .order_by("username")
    )


def user_by_name_or_email(*, identifier: str):
    """The one active account with this username or e-mail (case-insensitive), else ``None``."""
    identifier = identifier.strip()
    if not identifier:
        return None
    found = list(
        get_user_model()
        .objects.filter(is_active=True)
        .filter(Q(username__iexact=identifier) | Q(email__iexact=identifier))[:2]
    )
    return found[0] if len(found) == 1 else None


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
    builtin = Target.objects.filter(round=round).aggregate(
        queued=Count("pk", filter=Q(builtin_status=Status.QUEUED)),
        running=Count("pk", filter=Q(builtin_status=Status.RUNNING)),
        failed=Count("pk", filter=Q(builtin_status=Status.FAILED)),
    )
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
    active = (Status.QUEUED, Status.RUNNING)
    return (
        RoundOperation.objects.filter(round=round, status__in=active).exists()
        or Target.objects.filter(round=round, builtin_status__in=active).exists()
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
    scores, and how many attacks it made."""
    anonymization = phase_of(round=round, kind=Phase.Kind.ANONYMIZATION)
    targets = {
        t.team_id: t for t in Target.objects.filter(round=round).select_related("submission")
    }
    attacks = dict(
        AttackSubmission.objects.filter(phase__round=round)
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


def competition_teams(*, competition: Competition) -> QuerySet[Team]:
    return (
        competition.teams.select_related("disqualification")
        .prefetch_related("memberships__user")
        .order_by("name")
    )


def competition_participants(*, competition: Competition) -> QuerySet[Membership]:
    """Every member of every team, with the account's e-mail: for the organizers only."""
    return (
        Membership.objects.filter(competition=competition)
        .select_related("user", "team")
        .order_by("team__name", "user__username")
    )


def audit_entries(*, competition: Competition, round: Round | None = None, limit: int = 100):
    entries = AuditEntry.objects.filter(competition=competition).select_related("user", "round")
    if round is not None:
        entries = entries.filter(round=round)
    return entries[:limit]


def disqualified_team_ids(*, competition_id: int) -> set[int]:
    return set(
        TeamDisqualification.objects.filter(team__competition_id=competition_id).values_list(
            "team_id", flat=True
        )
    )


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
