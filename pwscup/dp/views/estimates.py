"""The DP round's estimate forms: an ``estimate.csv`` uploaded, an estimate built from one of
the team's releases (BT/BR/BI) or histogram answers (free post-processing), and a declared
upload. Each calls one service and goes back to the level's estimates with its verdict (or
the news that a worker checks it)."""

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.access import kind_view
from pwscup.dp import services
from pwscup.dp.forms import DeclaredUploadForm, EstimateFromForm, EstimateUploadForm
from pwscup.dp.views.common import level_url, refused, team_level_run
from pwscup.submissions.round_pages import no_file_chosen


def _estimate(request, access, level, make):
    """Run one estimate service (``make(dp_round=…, team=…, user=…, level=…)``) and go back
    to the level's estimates with its verdict."""
    return team_level_run(
        request, access, level, make, functools.partial(_verdict, request, access, level)
    )


def _verdict(request, access, level, estimate):
    """Back to the level's estimates with what became of ``estimate``."""
    if estimate.is_pending:
        messages.info(
            request,
            _("Estimate #%(n)s received: a worker checks it; this page shows the verdict.")
            % {"n": estimate.number},
        )
    elif estimate.status == estimate.Status.FINISHED:
        messages.success(
            request,
            _("Estimate accepted (format checked). It is scored when the level closes."),
        )
    else:
        messages.error(
            request,
            _("Estimate rejected: %(reason)s") % {"reason": estimate.message_in(get_language())},
        )
    return redirect(f"{level_url(access, level)}#estimates")


def _file_estimate_view(form_class, unclear, service, **fields):
    """The view of an estimate from an uploaded file: the ``form_class`` form's file goes to
    ``service`` as ``uploaded_file`` with its other ``fields`` (the service's keyword → the
    form's field); when the form is not valid, the file's own error if a file came and was
    refused (an empty file), else ``unclear``."""

    @kind_view("dp")
    @login_required
    @require_POST
    def view(request, access, level):
        form = form_class(request.POST, request.FILES)
        if not form.is_valid():
            if "file" in form.errors and not no_file_chosen(form):
                return refused(request, access, level, form.errors["file"][0], 400)
            return refused(request, access, level, str(unclear), 400)
        cleaned = form.cleaned_data
        make = functools.partial(
            service,
            uploaded_file=cleaned["file"],
            **{keyword: cleaned[field] for keyword, field in fields.items()},
        )
        return _estimate(request, access, level, make)

    return view


estimate_upload = _file_estimate_view(
    EstimateUploadForm, gettext_lazy("Choose an estimate.csv file."), services.dp_estimate_upload
)


@kind_view("dp")
@login_required
@require_POST
def estimate_from(request, access, level):
    """Build the estimate from a release (BT/BR/BI) or from a histogram answer (free)."""
    form = EstimateFromForm(request.POST)
    unclear = _("Choose a release or an answer.")
    if not form.is_valid():
        return refused(request, access, level, unclear, 400)
    kind, _sep, number = form.cleaned_data["source"].partition("-")
    try:
        charge_no = int(number)
    except ValueError:
        return refused(request, access, level, unclear, 400)
    if kind == "release":
        make = functools.partial(
            services.dp_estimate_from_release,
            charge_no=charge_no,
            estimator=form.cleaned_data.get("estimator") or "BT",
        )
    elif kind == "answer":
        make = functools.partial(services.dp_estimate_from_answer, charge_no=charge_no)
    else:
        return refused(request, access, level, unclear, 400)
    return _estimate(request, access, level, make)


declared_upload = _file_estimate_view(
    DeclaredUploadForm,
    gettext_lazy("Choose a file and write its declaration."),
    services.dp_declared_upload,
    declaration_raw="declaration",
)
