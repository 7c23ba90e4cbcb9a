"""Accepting an upload: window, size and quota are checked here, on the server."""

import datetime as dt
import zoneinfo

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.competitions.models import Phase, Round
from pwscup.core.errors import Refused
from pwscup.core.files import sha256_of
from pwscup.submissions.models import Status


def local_day_start(*, phase: Phase, now: dt.datetime) -> dt.datetime:
    """Midnight of ``now``'s day in the round's time zone: when the daily quota resets."""
    tz = zoneinfo.ZoneInfo(phase.round.timezone)
    local = now.astimezone(tz)
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def quota_usage(*, model, phase: Phase, team: Team, now: dt.datetime) -> tuple[int, int]:
    """(used today, used in total); FAILED uploads do not count."""
    counted = model.objects.filter(phase=phase, team=team).exclude(status=Status.FAILED)
    today = counted.filter(created_at__gte=local_day_start(phase=phase, now=now)).count()
    return today, counted.count()


def check_window(*, phase: Phase, expected_kind: str, now: dt.datetime) -> None:
    if phase.kind != expected_kind:
        raise Refused(
            _("This upload does not belong to the %(phase)s.") % {"phase": phase.get_kind_display()}
        )
    if now < phase.opens_at:
        raise Refused(
            _("The %(phase)s opens at %(at)s; uploads are not accepted yet.")
            % {"phase": phase.get_kind_display(), "at": _format_at(phase, phase.opens_at)},
            status=403,
        )
    closes_at = phase.closes_at
    if phase.kind == Phase.Kind.ANONYMIZATION:
        # Freezing fixes the final anonymizations: it ends the phase, even an early freeze.
        frozen_at = Round.objects.values_list("frozen_at", flat=True).get(pk=phase.round_id)
        if frozen_at is not None:
            closes_at = min(closes_at, frozen_at)
    if now >= closes_at:
        raise Refused(
            _("The %(phase)s closed at %(at)s; uploads are no longer accepted.")
            % {"phase": phase.get_kind_display(), "at": _format_at(phase, closes_at)},
            status=403,
        )


def check_size(uploaded_file) -> None:
    limit = settings.PWSCUP_MAX_UPLOAD_BYTES
    if uploaded_file.size > limit:
        raise Refused(
            _("The file is %(size)s bytes; the limit is %(limit)s bytes.")
            % {"size": uploaded_file.size, "limit": limit},
            status=413,
        )
    if uploaded_file.size == 0:
        raise Refused(_("The file is empty."))


def check_quota(*, model, phase: Phase, team: Team, now: dt.datetime) -> None:
    """Must run inside a transaction holding the team's row lock (no race past the limit)."""
    today, total = quota_usage(model=model, phase=phase, team=team, now=now)
    if phase.total_limit is not None and total >= phase.total_limit:
        raise Refused(
            _("Your team has used all %(limit)s submissions of this phase.")
            % {"limit": phase.total_limit},
            status=429,
        )
    if phase.daily_limit is not None and today >= phase.daily_limit:
        reset = local_day_start(phase=phase, now=now) + dt.timedelta(days=1)
        raise Refused(
            _(
                "Your team has used its %(limit)s submissions for today; the limit resets at "
                "%(reset)s."
            )
            % {"limit": phase.daily_limit, "reset": _format_at(phase, reset)},
            status=429,
        )


def store_upload(
    *, model, phase: Phase, team: Team, user, uploaded_file, stored_name: str, now=None, **fields
):
    """Check window, size and quota, then keep the file exactly as uploaded (QUEUED)."""
    now = now or timezone.now()
    check_window(phase=phase, expected_kind=_expected_kind(model), now=now)
    check_size(uploaded_file)
    with transaction.atomic():
        Team.objects.select_for_update().get(pk=team.pk)
        check_quota(model=model, phase=phase, team=team, now=now)
        upload = model(
            phase=phase,
            team=team,
            submitted_by=user if user is not None and user.is_authenticated else None,
            original_filename=(getattr(uploaded_file, "name", "") or stored_name)[:255],
            sha256=sha256_of(uploaded_file),
            size=uploaded_file.size,
            status=Status.QUEUED,
            created_at=now,
            **fields,
        )
        upload.file.save(stored_name, uploaded_file, save=False)
        upload.save()
    return upload


def _expected_kind(model) -> str:
    return model.PHASE_KIND


def _format_at(phase: Phase, at: dt.datetime) -> str:
    tz = zoneinfo.ZoneInfo(phase.round.timezone)
    return f"{at.astimezone(tz):%Y-%m-%d %H:%M} ({phase.round.timezone})"
