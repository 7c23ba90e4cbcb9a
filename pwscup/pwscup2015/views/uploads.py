"""A team's uploads and what it does with them: anonymizations and attacks, the final choice,
notes, the files back and ``status.json`` (thin adapters over services). Every page a form
posts from goes back to the round's *Submit* tab."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.access import round_access
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of
from pwscup.core.errors import Refused
from pwscup.core.files import private_file_response
from pwscup.core.form_fields import form_refusal
from pwscup.core.time_zones import answer_moment
from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.access import check_uploader, upload_for
from pwscup.pwscup2015.forms import AnonymizationUploadForm, AttackUploadForm, UploadNoteForm
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission
from pwscup.pwscup2015.selectors import round_targets, team_submissions
from pwscup.submissions.messages import job_message_text, upload_received_message
from pwscup.submissions.models import Status
from pwscup.submissions.round_pages import refused_answer, upload_received_json, wants_json
from pwscup.submissions.voids import void_json


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
    back = redirect(tab_url(access.round, SUBMIT))
    try:
        check_uploader(access, phase)
        if not form.is_valid():
            raise form_refusal(form)
        upload = create(form)
    except Refused as refusal:
        return refused_answer(request, refusal, back)
    notice = upload_received_message(upload)
    if wants_json(request):
        return upload_received_json(upload, notice)
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
                    "created_at": answer_moment(s.created_at),
                    "voided": void_json(s),
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
    return redirect(tab_url(round_, SUBMIT))


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
            return redirect(tab_url(round_, SUBMIT))
    return render(
        request,
        "pwscup2015/note.html",
        {"upload": upload, "round": round_, "form": form, "back_url": tab_url(round_, SUBMIT)},
    )
