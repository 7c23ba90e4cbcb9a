"""Accepting an upload, for every round kind: size, limits and the team's bounds are checked
here, on the server (``upload_keep``)."""

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Max, QuerySet
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.competitions.choice_services import choice_lock
from pwscup.competitions.models import Phase, Round, UploadLimits
from pwscup.core.errors import Refused
from pwscup.core.files import sha256_of
from pwscup.core.row_locks import team_row_lock
from pwscup.core.storage import kept_file_save, storage_write_slot
from pwscup.kinds.registry import kind_of
from pwscup.submissions import broker
from pwscup.submissions.models import NOTE_MAX_LENGTH, Status
from pwscup.submissions.selectors import (
    Quota,
    QuotaDay,
    quota_day_of,
    team_uploads_held,
    upload_visible_to,
    uploads_quota_usage,
)
from pwscup.submissions.services.live import live_scope_changed
from pwscup.submissions.services.windows import format_at, phase_window_check


def check_window(*, phase: Phase, expected_kind: str, now: dt.datetime) -> None:
    if phase.kind != expected_kind:
        raise Refused(_("This upload does not belong to the %(phase)s.") % {"phase": phase.label})
    # The kind may have just ended the phase (a freeze): re-read the round, which also drops
    # the relations cached on it, where a kind keeps its state.
    phase.round.refresh_from_db()
    phase_window_check(phase=phase, now=now)


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


def check_limits(
    *,
    quota: Quota,
    total_limit: int | None,
    daily_limit: int | None,
    time_zone: str,
    total_message: str | None = None,
    target_used: int = 0,
    target_limit: int | None = None,
) -> None:
    """Refuse (429) an upload past a total or a daily limit of ``quota``'s window, or past
    ``target_limit`` (``target_used``: the team's counted uploads on the upload's target).
    ``total_message`` (with ``%(limit)s``) names the window when it is not a phase."""
    if target_limit is not None and target_used >= target_limit:
        raise Refused(
            _(
                "Your team has used all %(limit)s uploads allowed on this target in this "
                "phase (the limit per target); you may still upload on other targets."
            )
            % {"limit": target_limit},
            status=429,
            code="target_quota_exhausted",
        )
    if total_limit is not None and quota.used_total >= total_limit:
        raise Refused(
            (total_message or _("Your team has used all %(limit)s submissions of this phase."))
            % {"limit": total_limit},
            status=429,
            code="quota_exhausted",
        )
    if daily_limit is not None and quota.used_today >= daily_limit:
        raise Refused(
            _(
                "Your team has used its %(limit)s submissions for today; the limit resets at "
                "%(reset)s."
            )
            % {"limit": daily_limit, "reset": format_at(time_zone, quota.resets_at)},
            status=429,
            code="quota_exceeded",
            resets_at=quota.resets_at,
        )


def _failed_cap_message(round: Round | None, limit: int, reset: str) -> str:
    """The failed-upload cap's refusal, naming the round's kind's own local check (the 2015
    game's ``python -m scoring check`` reads no sequential release nor DP estimate)."""
    command = kind_of(round).local_check if round is not None else ""
    values = {"limit": limit, "reset": reset, "command": command}
    if not command:
        return (
            _(
                "Your team has had %(limit)s failed uploads today, the most allowed; uploads "
                "are accepted again at %(reset)s."
            )
            % values
        )
    return (
        _(
            "Your team has had %(limit)s failed uploads today, the most allowed; uploads "
            "are accepted again at %(reset)s. Check your file with the scoring command-line "
            "tool first (%(command)s)."
        )
        % values
    )


def check_upload_bounds(
    *,
    round: Round | None = None,
    team: Team,
    size: int,
    now: dt.datetime,
    time_zone: str | None = None,
) -> None:
    """Failed uploads cost no quota, but they are stored: at most so many a day (the quota
    day of the round, ``quota_day_of``: its reset hour, in ``time_zone`` if given, else in
    its own), so many bytes per team, counted over every kind's uploads.

    Must run inside a transaction holding the team's row lock (``upload_keep`` does).
    """
    day = quota_day_of(round, time_zone=time_zone)
    zone = day.time_zone
    failed_limit = settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY
    resets_at = day.resets_at(now)
    held = team_uploads_held(team=team, since=day.start(now))
    if held.failed_since >= failed_limit:
        raise Refused(
            _failed_cap_message(round, failed_limit, format_at(zone, resets_at)),
            status=429,
            resets_at=resets_at,
        )
    bytes_limit = settings.PWSCUP_MAX_STORED_BYTES_PER_TEAM
    stored = held.stored_bytes
    if stored + size > bytes_limit:
        raise Refused(
            _(
                "Your team's uploads already take %(stored)s of the %(limit)s the platform keeps "
                "per team; this file (%(size)s) does not fit. Ask the organizers for room."
            )
            % {
                "stored": filesizeformat(stored),
                "limit": filesizeformat(bytes_limit),
                "size": filesizeformat(size),
            },
            status=413,
        )


@dataclass(frozen=True)
class UploadWindow:
    """What one upload counts against: a phase, a release step, a DP level...

    ``uploads`` are the team's uploads of the window, any status (FAILED ones count for
    nothing but the numbering); ``round`` gives the quota day of the daily limits and of
    the failed-upload cap (its time zone and reset hour, ``day``), the time zone being
    ``time_zone`` if given (a window of no round, a competition's presentations, whose day
    starts at midnight; ``round`` is then ``None``). ``total_message`` (with
    ``%(limit)s``) names the window when it is not a phase. ``target_uploads``: the team's
    uploads on the upload's target, under ``target_limit`` (an upload covering every
    target has none: ``total_limit`` limits it per upload)."""

    round: Round | None
    uploads: QuerySet
    daily_limit: int | None = None
    total_limit: int | None = None
    target_uploads: QuerySet | None = None
    target_limit: int | None = None
    total_message: str | None = None
    time_zone: str | None = None

    @property
    def zone(self) -> str:
        """The time zone of the window's local day: ``time_zone``, else the round's."""
        return self.time_zone or self.round.timezone

    @property
    def day(self) -> QuotaDay:
        """The window's quota day: its round's reset hour (midnight without a round), in
        ``zone``."""
        return quota_day_of(self.round, time_zone=self.zone)

    @classmethod
    def limited_by(
        cls, limits: UploadLimits, *, uploads, round=None, target_uploads=None, **options
    ):
        """The window of ``uploads`` under the daily and total limits of ``limits`` (the
        core's ``UploadLimits``: a phase, a presentation window, a sequential round), the one
        place a window's limits are read; its round is ``limits.round`` unless ``round`` is
        given. ``target_uploads`` (the team's uploads on the upload's target) puts the upload
        under ``limits.target_limit`` too (a ``Phase``)."""
        return cls(
            round=limits.round if round is None else round,
            uploads=uploads,
            daily_limit=limits.daily_limit,
            total_limit=limits.total_limit,
            target_uploads=target_uploads,
            target_limit=None if target_uploads is None else limits.target_limit,
            **options,
        )

    def target_used(self, *, now: dt.datetime) -> int:
        """The team's uploads on the upload's target that count (failed ones do not)."""
        if self.target_uploads is None:
            return 0
        return uploads_quota_usage(self.target_uploads, day=self.day, now=now).used_total


def upload_keep(
    *,
    model,
    window: UploadWindow,
    team: Team,
    uploaded_file,
    stored_name: str,
    now: dt.datetime,
    check: Callable[[], None] | None = None,
    user=None,
    locks_choice: bool = True,
    **fields,
):
    """The one way a team's file enters the platform, for every round kind.

    Refuse an empty file or one over ``PWSCUP_MAX_UPLOAD_BYTES`` (413); then, under the
    team's row lock (two uploads at once cannot both pass a limit), run the kind's
    ``check`` (its window: open, frozen...), the window's total and daily limits (429), and
    the team-wide bounds (failed uploads per round-local day, bytes kept per team). The file
    is kept exactly as uploaded with its SHA-256 and size, its name as the team's computer
    gave it (``stored_name`` without one) and who uploaded it (``user``; none for a command
    or the demo), numbered after the team's earlier uploads of the window, QUEUED: the kind
    sends its job (``broker.job_send``), and a
    worker checks and scores it, never the request.

    The file's write takes one of the process's storage write slots; with none free, or when
    the storage fails (full, refusing, not answering in time), the upload is refused (503,
    ``Retry-After``) with nothing kept: no row, no file (``pwscup.core.storage``; a write the
    bucket answered too late, which it may still store, is deleted by a worker). So is an
    upload whose team's row lock is not free within ``PWSCUP_STORAGE_SLOT_WAIT`` seconds
    (``team_row_lock``: another upload of the team is still being written).

    The upload locks the team's data choice in the round (``choice_lock``), unless the kind
    refuses it as it is kept (``locks_choice=False``: stored FAILED at once, it used none of
    the pack's data).
    """
    check_size(uploaded_file)
    digest = sha256_of(uploaded_file)  # read once, before the team's row is locked
    # The storage slot covers the file's write alone (not the wait for the database's lock,
    # SQLite's one lock for every writer); a request refused for want of one rolls back. The
    # team's row is waited for as long as a slot is: a team's upload whose write a stalled
    # storage holds must not hold the team's next uploads' web threads as well.
    with transaction.atomic():
        team_row_lock(Team.objects.filter(pk=team.pk), upload=True)
        if check is not None:
            check()
        check_limits(
            quota=uploads_quota_usage(window.uploads, day=window.day, now=now),
            total_limit=window.total_limit,
            daily_limit=window.daily_limit,
            time_zone=window.zone,
            total_message=window.total_message,
            target_used=window.target_used(now=now),
            target_limit=window.target_limit,
        )
        check_upload_bounds(
            round=window.round, team=team, size=uploaded_file.size, now=now, time_zone=window.zone
        )
        upload = model(
            team=team,
            number=next_upload_number(window.uploads),
            sha256=digest,
            size=uploaded_file.size,
            status=Status.QUEUED,
            created_at=now,
            queued_at=now,
            original_filename=original_name(uploaded_file, default=stored_name),
            uploaded_by=uploader(user),
            **fields,
        )
        with storage_write_slot():
            kept_file_save(upload.file, stored_name, uploaded_file)
        upload.save()
        # The team's data choice is locked from its first accepted upload in the round on.
        if locks_choice:
            choice_lock(round=window.round, team=team)
        live_scope_changed(round_id=getattr(window.round, "pk", None), team_id=team.pk)
    return upload


def store_upload(
    *,
    model,
    task: str,
    phase: Phase,
    team: Team,
    user,
    uploaded_file,
    stored_name: str,
    note: str = "",
    now=None,
    target_filter: dict | None = None,
    **fields,
):
    """An upload into a phase (``competitions.Phase``), of any kind whose ``model`` keeps
    its uploads per phase (a ``phase`` foreign key, and ``PHASE_KIND``: the kind of phase it
    is uploaded in): checked against the phase's window and its daily and total limits,
    then kept by ``upload_keep``, and its job ``task`` sent (``dispatch``: whether the job
    reached the broker; the upload is kept and scored either way). ``target_filter``
    (``{"target": target}``) selects the team's uploads on the upload's target, put under
    the phase's ``target_limit``. ``fields``: the model's own fields."""
    now = now or timezone.now()
    check_window(phase=phase, expected_kind=_expected_kind(model), now=now)
    uploads = model.objects.filter(phase=phase, team=team)
    upload = upload_keep(
        model=model,
        window=UploadWindow.limited_by(
            phase,
            uploads=uploads,
            target_uploads=None if target_filter is None else uploads.filter(**target_filter),
        ),
        team=team,
        uploaded_file=uploaded_file,
        stored_name=stored_name,
        now=now,
        user=user,
        phase=phase,
        note=note_clean(note),
        **fields,
    )
    upload.dispatch = broker.job_send(task, upload.pk)
    return upload


def uploader(user):
    """Who uploaded: the account, or None for an anonymous caller (a command, the demo)."""
    return user if user is not None and user.is_authenticated else None


def original_name(uploaded_file, *, default: str) -> str:
    """The file's name as the team's computer gave it (``default`` without one), as stored."""
    return (getattr(uploaded_file, "name", "") or default)[:255]


def next_upload_number(uploads: QuerySet) -> int:
    """The team's next upload number in a window, after ``uploads`` (the team's uploads of
    it): the one counter every page, message, API answer and the CLI show as "#n". Call it
    holding the team's row lock."""
    last = uploads.aggregate(last=Max("number"))["last"]
    return (last or 0) + 1


def note_clean(note: str) -> str:
    """A note is one line of at most ``NOTE_MAX_LENGTH`` characters."""
    note = " ".join((note or "").split())
    if len(note) > NOTE_MAX_LENGTH:
        raise Refused(
            _("A note has at most %(limit)s characters; this one has %(length)s.")
            % {"limit": NOTE_MAX_LENGTH, "length": len(note)}
        )
    return note


def upload_note_set(*, upload, user, note: str):
    """A member of the uploading team rewrites the upload's note (at any time)."""
    if not upload_visible_to(user=user, upload=upload, owner_only=True):
        raise Refused(_("Only the uploading team can change this note."), status=404)
    upload.note = note_clean(note)
    type(upload).objects.filter(pk=upload.pk).update(note=upload.note)
    return upload


def _expected_kind(model) -> str:
    return model.PHASE_KIND
