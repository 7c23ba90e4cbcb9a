"""Team pages of a round: data, uploads, submissions (thin adapters over services)."""

import zoneinfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

import scoring
from pwscup.accounts.access import round_access
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import (
    phase_of,
    phase_state,
    round_metrics,
    round_missing_phases,
)
from pwscup.core.errors import Refused
from pwscup.core.files import private_file_response
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.access import check_uploader, original_file_for, upload_for
from pwscup.pwscup2015.forms import AnonymizationUploadForm, AttackUploadForm, UploadNoteForm
from pwscup.pwscup2015.leaderboards import charts
from pwscup.pwscup2015.leaderboards.selectors import (
    attack_rates_visible_to_team,
    can_view_leaderboard,
)
from pwscup.pwscup2015.metric_headers import metric_headers
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission
from pwscup.pwscup2015.ranking import rule_text
from pwscup.pwscup2015.scoring_guide import (
    config_download_name,
    round_scoring_config,
    round_scoring_guide,
)
from pwscup.pwscup2015.selectors import (
    representative_submission,
    round_stale_scores,
    round_targets,
    team_attacks,
    team_jobs,
    team_submissions,
)
from pwscup.submissions.history import upload_history
from pwscup.submissions.messages import job_message_text, upload_received_message
from pwscup.submissions.models import Status
from pwscup.submissions.selectors import quota_usage


def _phase_info(phase, team, model, now):
    if phase is None:
        return None
    info = {"phase": phase, "state": phase_state(phase=phase, now=now)}
    if team is not None:
        quota = quota_usage(model=model, phase=phase, team=team, now=now)
        info.update(
            used_today=quota.used_today, used_total=quota.used_total, resets_at=quota.resets_at
        )
    return info


def round_detail(request, access):
    """The PWSCup 2015 round page (the core's round page calls it through the kind)."""
    round_, team, now = access.round, access.team, timezone.now()
    anonymization = phase_of(round=round_, kind=Phase.Kind.ANONYMIZATION)
    attack = phase_of(round=round_, kind=Phase.Kind.ATTACK)
    missing_phases = round_missing_phases(round=round_)
    if missing_phases and not access.is_organizer:
        # An incomplete round is not open yet for everyone but its organizers.
        anonymization = attack = None
    fragment = bool(request.GET.get("fragment"))
    context = {
        "missing_phases": missing_phases,
        "access": access,
        "round": round_,
        "team": team,
        "metrics": round_metrics(round=round_),
        "metric_names": scoring.METRIC_NAMES,
        "metric_headers": metric_headers(round_metrics(round=round_)),
        "upload_form": AnonymizationUploadForm(),
        "round_tz": round_.timezone,
        "leaderboard_visible": anonymization is not None
        and can_view_leaderboard(
            user=request.user, phase=anonymization, is_organizer=access.is_organizer
        ),
        "stale": round_stale_scores(round=round_) if access.is_organizer else None,
    }
    if team is not None and anonymization is not None:
        context["submissions"] = list(team_submissions(phase=anonymization, team=team))
        context["history"] = upload_history(
            context["submissions"],
            final=representative_submission(phase=anonymization, team=team),
        )
        context["pending"] = any(
            s.status in (Status.QUEUED, Status.RUNNING) for s in context["submissions"]
        )
        # the same submissions as the history table, drawn over time
        context["history_metrics"] = charts.chosen_history_metrics(request.GET, context["metrics"])
        context["history_charts"] = charts.history(
            submissions=context["submissions"],
            metrics=context["history_metrics"],
            tz=zoneinfo.ZoneInfo(round_.timezone),
        )
    if round_.pwscup2015.frozen_at and team is not None and attack is not None:
        targets = [t for t in round_targets(round=round_) if t.team_id != team.pk]
        context["targets"] = targets
        context["attack_form"] = AttackUploadForm(targets=targets)
        context["attacks"] = list(team_attacks(phase=attack, team=team))
        context["show_rates"] = attack_rates_visible_to_team(round=round_, now=now)
        context["pending"] = context.get("pending") or any(
            a.status in (Status.QUEUED, Status.RUNNING) for a in context["attacks"]
        )
    if (team is not None or access.is_organizer) and not fragment:
        # What the team is scored against, and how to reproduce its scores locally.
        context["guide"] = round_scoring_guide(round=round_, team=team)
        context["rule_text"] = rule_text(round_)
    if fragment and team is not None:
        # The polling fragment also carries the quota lines and the watched uploads' notices.
        context["fragment"] = True
        # Its forms carry no CSRF token (Django masks it anew on every request; see
        # _submission_row.html): the page's script gives them the page's own, so an unchanged
        # fragment is the same bytes and the poll is answered 304 (``conditional_page``).
        context["watched_jobs"] = team_jobs(team=team, keys=request.GET.get("watch", "").split(","))
    # The quota lines are read after the jobs: a fragment that shows a job done (and so
    # stops the page's polling) counts it as done too. Read before, a job that failed in
    # between left "Used today: 1" on the page for good.
    context["anonymization"] = _phase_info(anonymization, team, AnonymizationSubmission, now)
    context["attack"] = _phase_info(attack, team, AttackSubmission, now)
    return render(
        request, "pwscup2015/_jobs.html" if fragment else "pwscup2015/round.html", context
    )


@login_required
def original_download(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug)
    field, name = original_file_for(access)
    return private_file_response(field, name)


@login_required
def config_download(request, competition_slug, round_slug):
    """The configuration the server scores with (no data), for teams and organizers."""
    access = round_access(request, competition_slug, round_slug)
    if access.team is None and not access.is_organizer:
        raise Http404
    response = JsonResponse(
        round_scoring_config(round=access.round), json_dumps_params={"indent": 2}
    )
    name = config_download_name(round=access.round)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


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
            note=form.cleaned_data["note"],
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
            note=form.cleaned_data["note"],
        )

    return _upload(request, access, phase, form, create)


def _upload(request, access, phase, form, create):
    wants_json = "application/json" in request.headers.get("Accept", "")
    back = redirect("round_detail", access.competition.slug, access.round.slug)
    try:
        check_uploader(access, phase)
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
            headers, retry = refusal.retry_details()
            return JsonResponse(
                {"error": refusal.message, **retry}, status=refusal.status, headers=headers
            )
        messages.error(request, refusal.message)
        return back
    notice = upload_received_message(upload)
    if wants_json:
        return JsonResponse(
            {"id": upload.pk, "number": upload.number, "status": upload.status, "message": notice},
            status=202,
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
                    "number": s.number,
                    "note": s.note,
                    "created_at": s.created_at.isoformat(),
                }
                for s in submissions
            ]
        }
    )


@login_required
def submission_file(request, pk):
    submission = upload_for(user=request.user, model=AnonymizationSubmission, pk=pk)
    return private_file_response(submission.file, submission.original_filename)


@login_required
def attack_file(request, pk):
    submission = upload_for(user=request.user, model=AttackSubmission, pk=pk)
    return private_file_response(submission.file, submission.original_filename)


@login_required
@require_POST
def submission_select(request, pk):
    submission = upload_for(
        user=request.user, model=AnonymizationSubmission, pk=pk, owner_only=True
    )
    try:
        services.anonymization_submission_select(submission=submission, team=submission.team)
        messages.success(
            request,
            _("Submission %(upload)s is now your final one.") % {"upload": submission.label},
        )
    except Refused as refusal:
        messages.error(request, refusal.message)
    round_ = submission.phase.round
    return redirect("round_detail", round_.competition.slug, round_.slug)


@login_required
def submission_note(request, pk):
    return _note_edit(request, AnonymizationSubmission, pk)


@login_required
def attack_note(request, pk):
    return _note_edit(request, AttackSubmission, pk)


def _note_edit(request, model, pk):
    """The team's note on one of its uploads: a small form, back to the round page."""
    upload = upload_for(user=request.user, model=model, pk=pk, owner_only=True)
    round_ = upload.phase.round
    form = UploadNoteForm(
        request.POST or None, initial={"note": upload.note}, attack=model is AttackSubmission
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.upload_note_set(
                upload=upload, user=request.user, note=form.cleaned_data["note"]
            )
        except Refused as refusal:
            messages.error(request, refusal.message)
        else:
            messages.success(request, _("Note of %(upload)s saved.") % {"upload": upload.label})
            return redirect("round_detail", round_.competition.slug, round_.slug)
    return render(
        request, "pwscup2015/note.html", {"upload": upload, "round": round_, "form": form}
    )
