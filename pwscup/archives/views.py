"""The archive's console page (publish a version) and its download (thin: selectors and
one service)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from pwscup.archives import selectors, services
from pwscup.archives.forms import ArchivePublishForm
from pwscup.competitions.selectors import console_competition
from pwscup.core.errors import Refused
from pwscup.core.files import private_file_response
from pwscup.core.form_fields import add_errors
from pwscup.kinds import kind_of

ZIP_CONTENT_TYPE = "application/zip"


@login_required
def archive_console(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    form = ArchivePublishForm(request.POST if request.method == "POST" else None)
    status, headers = 200, {}
    if request.method == "POST" and form.is_valid():
        try:
            archive = services.archive_publish(
                competition=competition, secrets=form.secrets(), user=request.user
            )
        except ValidationError as error:
            add_errors(form, error)
        except Refused as refusal:  # the storage cannot take the files now (503)
            form.add_error(None, refusal.message)
            status, headers = refusal.status, refusal.retry_details()[0]
        else:
            messages.success(
                request,
                _("Version %(version)s of the archive is published.")
                % {"version": archive.version},
            )
            return redirect("archives:console", competition_slug=competition.slug)
    rounds = selectors.archive_rounds(competition=competition)
    archives = selectors.competition_archives(competition=competition)
    response = render(
        request,
        "archives/console.html",
        {
            "competition": competition,
            "form": form,
            "included": [(round_, kind_of(round_)) for round_ in rounds.included],
            "left_out": [(round_, kind_of(round_), reason) for round_, reason in rounds.left_out],
            "archives": [(a, selectors.secret_labels(a.secrets)) for a in archives],
            "next_version": archives[0].version + 1 if archives else 1,
        },
        status=status,
    )
    for header, value in headers.items():
        response.headers[header] = value
    return response


def archive_download(request, competition_slug, version):
    """The variant the viewer may download (``archive_variant_for``), at one address."""
    offered = selectors.archive_for_download(
        user=request.user, competition_slug=competition_slug, version=version
    )
    archive = offered.archive
    if offered.with_slides:
        field, filename = archive.file, archive.filename
    else:
        field, filename = archive.public_file, archive.public_filename
    return private_file_response(field, filename, content_type=ZIP_CONTENT_TYPE)
