"""Team pages of a round: data, uploads, submissions (thin adapters over services)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import quote_etag
from django.utils.http import parse_etags
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import scoring
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of, phase_state, round_missing_phases
from pwscup.core.access import private_file_response, round_access
from pwscup.core.errors import Refused
from pwscup.leaderboards.selectors import attack_rates_visible_to_team, can_view_leaderboard
from pwscup.submissions import services
from pwscup.submissions.forms import AnonymizationUploadForm, AttackUploadForm
from pwscup.submissions.messages import job_message_text
from pwscup.submissions.models import AnonymizationSubmission, AttackSubmission, Status
from pwscup.submissions.selectors import (
    quota_usage,
    round_stale_scores,
    round_targets,
    team_attacks,
    team_dataset,
    team_jobs,
    team_submissions,
    upload_visible_to,
)
    local_day_start,


def _phase_info(phase, team, model, now):
    if phase is None:
        return None
    info = {"phase": phase, "state": phase_state(phase=phase, now=now)}
    if team is not None:
    team_jobs_fingerprint,
        quota = quota_usage(model=model, phase=phase, team=team, now=now)
        info.update(
            used_today=quota.used_today, used_total=quota.used_total, resets_at=quota.resets_at
        )
    return info


def round_detail(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug)
    round_, team, now = access.round, access.team, timezone.now()
    anonymization = phase_of(round=round_, kind=Phase.Kind.ANONYMIZATION)
    attack = phase_of(round=round_, kind=Phase.Kind.ATTACK)
    missing_phases = round_missing_phases(round=round_)
    if missing_phases and not access.is_organizer:
        # An incomplete round is not open yet for everyone but its organizers.
        anonymization = attack = None
    context = {
        "missing_phases": missing_phases,
        "access": access,
        "round": round_,
        "team": team,
        "metrics": scoring.METRICS,
        "metric_names": scoring.METRIC_NAMES,
        "anonymization": _phase_info(anonymization, team, AnonymizationSubmission, now),
        "attack": _phase_info(attack, team, AttackSubmission, now),
        "upload_form": AnonymizationUploadForm(),
    fragment_etag = None
    if request.GET.get("fragment") and team is not None:
        # Polled while a job runs: an unchanged fragment is answered 304, without rendering.
        fragment_etag = _jobs_fragment_etag(request, access, anonymization, attack, now)
        if fragment_etag in parse_etags(request.headers.get("If-None-Match", "")):
            return HttpResponseNotModified(headers={"ETag": fragment_etag})
        "round_tz": round_.timezone,
        "leaderboard_visible": anonymization is not None
        and can_view_leaderboard(user=request.user, phase=anonymization),
        "stale": round_stale_scores(round=round_) if access.is_organizer else None,
    }
    if team is not None and anonymization is not None:
        context["submissions"] = list(team_submissions(phase=anonymization, team=team))
        context["pending"] = any(
            s.status in (Status.QUEUED, Status.RUNNING) for s in context["submissions"]
        )
    if round_.frozen_at and team is not None and attack is not None:
        targets = [t for t in round_targets(round=round_) if t.team_id != team.pk]
        context["targets"] = targets
        context["attack_form"] = AttackUploadForm(targets=targets)
        context["attacks"] = list(team_attacks(phase=attack, team=team))
        context["show_rates"] = attack_rates_visible_to_team(round=round_, now=now)
        context["pending"] = context.get("pending") or any(
            a.status in (Status.QUEUED, Status.RUNNING) for a in context["attacks"]
        )
    if request.GET.get("fragment") and team is not None:
        # The polling fragment also carries the quota lines and the watched uploads' notices.
        context["fragment"] = True
        context["watched_jobs"] = team_jobs(team=team, keys=request.GET.get("watch", "").split(","))
    template = "submissions/_jobs.html" if request.GET.get("fragment") else "submissions/round.html"
    response = render(request, template, context)
    if fragment_etag:
        response["ETag"] = fragment_etag
    return response


def _jobs_fragment_etag(request, access, anonymization, attack, now) -> str:
    """What the jobs fragment depends on besides the stored rows: reader, language, clock."""
    phases = [p for p in (anonymization, attack) if p is not None]
    extra = [
        get_language(),
        access.is_organizer,
        request.GET.get("watch", ""),
        [phase_state(phase=p, now=now) for p in phases],
        [local_day_start(phase=p, now=now).isoformat() for p in phases],
        attack_rates_visible_to_team(round=access.round, now=now),
    ]
    return quote_etag(team_jobs_fingerprint(round=access.round, team=access.team, extra=extra))


@login_required
def original_download(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug)
    round_, team = access.round, access.team
    if access.is_organizer and team is None:
        return private_file_response(round_.original_file, f"{round_.slug}_original.csv")
    if team is None:
        raise Http404
    phase = phase_of(round=round_, kind=Phase.Kind.ANONYMIZATION)
    if phase is None or phase_state(phase=phase) == "upcoming":
        raise Http404
    if round_.is_per_team:
        dataset = team_dataset(round=round_, team=team)
        if dataset is None:
            raise Http404
        return private_file_response(dataset.file, f"{team.slug}_original.csv")
    return private_file_response(round_.original_file, f"{round_.slug}_original.csv")


@login_required
@require_POST
def anonymization_upload(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug)
    phase = phase_of(round=access.round, kind=Phase.Kind.ANONYMIZATION)
    return _upload(
        request,
        access,
        phase,
        AnonymizationUploadForm(request.POST, request.FILES),
        lambda form: services.anonymization_submission_create(
            phase=phase,
            team=access.team,
            user=request.user,
            uploaded_file=form.cleaned_data["file"],
        ),
    )


@login_required
@require_POST
def attack_upload(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug)
    phase = phase_of(round=access.round, kind=Phase.Kind.ATTACK)
    targets = list(round_targets(round=access.round))
    form = AttackUploadForm(request.POST, request.FILES, targets=targets)

    def create(form):
        target = next(t for t in targets if str(t.pk) == form.cleaned_data["target"])
        return services.attack_submission_create(
            phase=phase,
            team=access.team,
            target=target,
            user=request.user,
            uploaded_file=form.cleaned_data["file"],
        )

    return _upload(request, access, phase, form, create)


def _upload(request, access, phase, form, create):
    wants_json = "application/json" in request.headers.get("Accept", "")
    back = redirect("round_detail", access.competition.slug, access.round.slug)
    try:
        if access.team is None:
            raise Refused(_("Only members of a team can upload."), status=403)
        if phase is None:
            raise Refused(_("This phase has not been set up."), status=404)
        if not form.is_valid():
            raise Refused(
                " ".join(
                    f"{form.fields[name].label}: {error}"
                    for name, errors in form.errors.items()
                    for error in errors
                )
            )
        upload = create(form)
    except Refused as refusal:
        if wants_json:
            return JsonResponse({"error": refusal.message}, status=refusal.status)
        messages.error(request, refusal.message)
        return back
    if upload.dispatch.sent is False:
        # Stored as QUEUED; the reaper sends the job once the broker is back.
        notice = _("Upload received (#%(id)s) and queued; scoring starts when the scorer is back.")
    else:
        notice = _("Upload received (#%(id)s); it is being scored.")
    notice %= {"id": upload.pk}
    if wants_json:
        return JsonResponse(
            {"id": upload.pk, "status": upload.status, "message": notice}, status=202
        )
    # The page's script turns this notice into the job's outcome once it is scored.
    messages.success(request, notice, extra_tags=f"job job-{upload.PHASE_KIND}-{upload.pk}")
    return back


@login_required
def status_json(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug)
    if access.team is None:
        raise Http404
    phase = phase_of(round=access.round, kind=Phase.Kind.ANONYMIZATION)
    submissions = team_submissions(phase=phase, team=access.team) if phase else []
    return JsonResponse(
        {
            "submissions": [
                {
                    "id": s.pk,
                    "status": s.status,
                    "message": job_message_text(s),
                    "scores": s.scores if s.status == Status.FINISHED else None,
                    "is_selected": s.is_selected,
                    "sha256": s.sha256,
                    "created_at": s.created_at.isoformat(),
                }
                for s in submissions
            ]
        }
    )


@login_required
def submission_file(request, pk):
    submission = get_object_or_404(AnonymizationSubmission.objects.select_related("team"), pk=pk)
    _require_owner_or_organizer(request, submission)
    return private_file_response(submission.file, submission.original_filename)


@login_required
def attack_file(request, pk):
    submission = get_object_or_404(AttackSubmission.objects.select_related("team"), pk=pk)
    _require_owner_or_organizer(request, submission)
    return private_file_response(submission.file, submission.original_filename)


@login_required
@require_POST
def submission_select(request, pk):
    submission = get_object_or_404(
        AnonymizationSubmission.objects.select_related("team__competition", "phase__round"), pk=pk
    )
    _require_owner_or_organizer(request, submission, owner_only=True)
    try:
        services.anonymization_submission_select(submission=submission, team=submission.team)
        messages.success(request, _("Submission #%(id)s is now your final one.") % {"id": pk})
    except Refused as refusal:
        messages.error(request, refusal.message)
    round_ = submission.phase.round
    return redirect("round_detail", round_.competition.slug, round_.slug)


def _require_owner_or_organizer(request, upload, *, owner_only=False):
    if not upload_visible_to(user=request.user, upload=upload, owner_only=owner_only):
        raise Http404
