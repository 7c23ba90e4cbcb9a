"""Writing presentation windows and slides.

* ``presentation_window_create`` / ``presentation_window_update``: an organizer schedules a
  window (dates by ``phase_window_check``, the cap within ``PWSCUP_SLIDES_MAX_BYTES``).
* ``slides_upload``: a team's PDF enters through the core's upload pipeline (``upload_keep``:
  the window's limits, the team-wide bounds, kept as uploaded and numbered), QUEUED; a worker
  checks its bytes and renders the preview (``slides_render``) with the core's job states.
* ``presentations_publish`` / ``presentations_hide``: after the window closed and the results
  (``publication_missing``), every participant sees every team's slides.
Each organizer action is kept in the audit log.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.competitions.models import AuditEntry, Competition, Round
from pwscup.competitions.services import phase_window_check, scoped_audit_record
from pwscup.competitions.windows import window_dates_edit
from pwscup.core.errors import Refused
from pwscup.core.files import opened
from pwscup.core.time_zones import time_zone_check
from pwscup.presentations.messages import SlidesRejected
from pwscup.presentations.models import POLICY_MAX_LENGTH, PresentationWindow, Slides
from pwscup.presentations.preview import (
    HEADER_WINDOW,
    PreviewError,
    first_page_png,
    looks_like_pdf,
)
from pwscup.presentations.selectors import publication_missing
from pwscup.submissions import broker
from pwscup.submissions.services.jobs import job_claim, job_complete, job_run
from pwscup.submissions.services.uploads import UploadWindow, upload_keep
from pwscup.submissions.services.windows import window_check

RENDER_PREVIEW_TASK = "pwscup.presentations.render_preview"
WINDOW_FIELDS = (
    "title",
    "opens_at",
    "closes_at",
    "time_zone",
    "max_bytes",
    "daily_limit",
    "total_limit",
)


# --- windows -------------------------------------------------------------------------------


def _window_check(*, window: PresentationWindow, new: bool = False) -> None:
    """Every rule of a window, each checked whatever the others found, with messages keyed
    by field: its round, its time zone, its PDF cap, its dates and, for a ``new`` window,
    that its round (or the competition) has none yet."""
    errors: dict[str, list[str]] = {}
    if window.round_id and window.round.competition_id != window.competition_id:
        errors["round"] = [_("This round belongs to another competition.")]
    ceiling = settings.PWSCUP_SLIDES_MAX_BYTES
    if window.max_bytes is None or not 1 <= window.max_bytes <= ceiling:
        errors["max_bytes"] = [
            _(
                "The largest PDF must be between 1 byte and %(human)s, the platform's limit; "
                "%(value)s is not."
            )
            % {
                "human": filesizeformat(ceiling),
                "value": "—" if window.max_bytes is None else filesizeformat(window.max_bytes),
            }
        ]
    checks = [
        lambda: time_zone_check(window.time_zone, field="time_zone"),
        lambda: phase_window_check(
            opens_at=window.opens_at,
            closes_at=window.closes_at,
            time_zone=window.zone,
            labels={
                "opens_at": PresentationWindow._meta.get_field("opens_at").verbose_name,
                "closes_at": PresentationWindow._meta.get_field("closes_at").verbose_name,
            },
            order_message=_(
                "A presentation window must close after it opens (it opens at %(opens)s)."
            ),
        ),
    ]
    if new:
        checks.append(lambda: _window_free(window))
    for check in checks:
        try:
            check()
        except ValidationError as error:
            error.update_error_dict(errors)
    if errors:
        raise ValidationError(errors)


def _taken_message(window: PresentationWindow) -> str:
    if window.round_id:
        return _(
            "The round %(round)s has a presentation window already: edit it on the "
            "Presentations page, or choose another round."
        ) % {"round": window.round.name}
    return _(
        "The competition has a competition-wide presentation window already: edit it on the "
        "Presentations page, or choose a round."
    )


def _window_free(window: PresentationWindow) -> None:
    """Refuse a new window for a round (or the competition) that has one already."""
    taken = PresentationWindow.objects.filter(competition=window.competition, round=window.round)
    if taken.exclude(pk=window.pk).exists():
        raise ValidationError({"round": _taken_message(window)})


def _save_new(window: PresentationWindow) -> None:
    try:
        with transaction.atomic():
            window.save()
    except IntegrityError:  # created at the same moment by another organizer
        raise ValidationError({"round": _taken_message(window)}) from None


def _window_audit(*, user, window: PresentationWindow, action, **detail) -> None:
    """The audit log's entry of an action on ``window`` (its round's, or the competition's)."""
    scoped_audit_record(window, user=user, action=action, window=window.name, **detail)


@transaction.atomic
def presentation_window_create(
    *, competition: Competition, user, round: Round | None = None, **fields
) -> PresentationWindow:
    """Schedule a window for ``round`` (``None``: the whole competition); ``fields`` among
    ``WINDOW_FIELDS``. Raises ``ValidationError`` keyed by field."""
    window = PresentationWindow(competition=competition, round=round)
    for name, value in fields.items():
        if name not in WINDOW_FIELDS:
            raise TypeError(name)
        setattr(window, name, value)
    if window.title is None:
        window.title = ""
    _window_check(window=window, new=True)
    _save_new(window)
    _window_audit(
        user=user,
        window=window,
        action=AuditEntry.Action.PRESENTATIONS_SCHEDULED,
        opens=window.opens_at.isoformat(timespec="minutes"),
        closes=window.closes_at.isoformat(timespec="minutes"),
    )
    return window


@transaction.atomic
def presentation_window_update(*, window: PresentationWindow, user, **fields) -> list[str]:
    """Change a window's settings (``WINDOW_FIELDS``); refused while its slides are published
    (hide them first). Returns the names of the fields that changed."""
    window = PresentationWindow.objects.select_for_update().get(pk=window.pk)
    if window.is_published:
        raise Refused(_("The slides of this window are published: hide them before changing it."))
    changed = []
    for name, value in fields.items():
        if name not in WINDOW_FIELDS:
            raise TypeError(name)
        if name == "title" and value is None:
            value = ""
        if getattr(window, name) != value:
            setattr(window, name, value)
            changed.append(name)
    if not changed:
        return []
    _window_check(window=window)
    if {"opens_at", "closes_at"} & set(changed):  # the organizer's dates: the new plan
        window_dates_edit(window=window, opens_at=window.opens_at, closes_at=window.closes_at)
    window.save(update_fields=changed)
    _window_audit(
        user=user, window=window, action=AuditEntry.Action.PRESENTATIONS_SCHEDULED, changed=changed
    )
    return changed


# --- publication ---------------------------------------------------------------------------


@transaction.atomic
def presentations_publish(*, window: PresentationWindow, user, now=None) -> PresentationWindow:
    """Show every team's latest ready slides of ``window`` to every participant. Refused
    (with what is missing) before the window closed or before the results are published."""
    now = now or timezone.now()
    window = (
        PresentationWindow.objects.select_for_update(of=("self",))
        .select_related("round", "competition")
        .get(pk=window.pk)
    )
    if window.is_published:
        return window
    missing = publication_missing(window=window, now=now)
    if missing:
        raise Refused(
            _("The slides cannot be published yet: %(missing)s") % {"missing": " ".join(missing)},
            status=409,
        )
    window.published_at, window.published_by = now, user
    window.save(update_fields=["published_at", "published_by"])
    _window_audit(user=user, window=window, action=AuditEntry.Action.PRESENTATIONS_PUBLISHED)
    return window


@transaction.atomic
def presentations_hide(*, window: PresentationWindow, user) -> PresentationWindow:
    """Hide the window's slides again from everyone but their teams and the organizers."""
    window = PresentationWindow.objects.select_for_update().get(pk=window.pk)
    if not window.is_published:
        return window
    window.published_at, window.published_by = None, None
    window.save(update_fields=["published_at", "published_by"])
    _window_audit(user=user, window=window, action=AuditEntry.Action.PRESENTATIONS_HIDDEN)
    return window


# --- uploads -------------------------------------------------------------------------------


def policy_clean(text: str | None, *, label: str) -> str:
    text = (text or "").replace("\r\n", "\n").strip()
    if len(text) > POLICY_MAX_LENGTH:
        raise Refused(
            _("%(field)s has at most %(limit)s characters; this one has %(length)s.")
            % {"field": label, "limit": POLICY_MAX_LENGTH, "length": len(text)}
        )
    return text


def slides_window(*, window: PresentationWindow, team: Team) -> UploadWindow:
    """What an upload of slides counts against: the team's uploads of the window, its limits,
    the local day of its time zone."""
    return UploadWindow.limited_by(
        window,
        uploads=Slides.objects.filter(window=window, team=team),
        total_message=_("Your team has used all %(limit)s uploads of slides of this window."),
        time_zone=window.zone,
    )


def _refuse_closed(*, window: PresentationWindow, now) -> None:
    """The core's window check, under the window's name; publishing the slides ends it."""
    window.refresh_from_db(fields=["opens_at", "closes_at", "published_at"])
    closes_at = window.closes_at
    if window.is_published:
        closes_at = min(closes_at, window.published_at)
    window_check(
        label=window.name,
        opens_at=window.opens_at,
        closes_at=closes_at,
        time_zone=window.zone,
        now=now,
    )


def slides_upload(
    *,
    window: PresentationWindow,
    team: Team,
    user,
    uploaded_file,
    anonymization_policy: str = "",
    attack_policy: str = "",
    now=None,
) -> Slides:
    """Keep a team's slides as uploaded (QUEUED, through the core's upload pipeline) and send
    the check and preview to a worker. Refused over the window's size cap (413), outside
    the window (403), past its limits (429). The type is checked by the worker from the
    bytes (a file that is no PDF ends FAILED with a message, like every kind's rejected
    upload)."""
    now = now or timezone.now()
    if team.competition_id != window.competition_id:
        raise Refused(_("Only the competition's teams can upload slides."), status=403)
    if uploaded_file.size > window.max_bytes:
        raise Refused(
            _(
                "The file is %(size)s bytes (%(size_human)s); slides of this window may be at "
                "most %(limit)s bytes (%(limit_human)s)."
            )
            % {
                "size": uploaded_file.size,
                "size_human": filesizeformat(uploaded_file.size),
                "limit": window.max_bytes,
                "limit_human": filesizeformat(window.max_bytes),
            },
            status=413,
        )
    anonymization_policy = policy_clean(anonymization_policy, label=_("The anonymization policy"))
    attack_policy = policy_clean(attack_policy, label=_("The attack policy"))
    slides = upload_keep(
        model=Slides,
        window=slides_window(window=window, team=team),
        team=team,
        uploaded_file=uploaded_file,
        stored_name="slides.pdf",
        now=now,
        check=lambda: _refuse_closed(window=window, now=now),
        user=user,
        window_id=window.pk,  # (``window`` is upload_keep's own argument)
        anonymization_policy=anonymization_policy,
        attack_policy=attack_policy,
    )
    slides.dispatch = broker.job_send(RENDER_PREVIEW_TASK, slides.pk)
    return slides


def _checked_preview(slides: Slides) -> bytes:
    """The first page as a PNG, after the header check; ``SlidesRejected`` otherwise."""
    with opened(slides.file) as handle:
        head = handle.read(HEADER_WINDOW)
        if not looks_like_pdf(head):
            raise SlidesRejected(
                "slides.not_pdf", file=slides.original_filename, bytes=HEADER_WINDOW
            )
        data = head + handle.read()
    try:
        return first_page_png(
            data,
            work_dir=settings.PWSCUP_SLIDES_WORK_DIR,
            memory_bytes=settings.PWSCUP_SLIDES_RENDER_MEMORY_BYTES,
        )
    except PreviewError as error:
        raise SlidesRejected(error.code, file=slides.original_filename, **error.params) from None


def slides_render(*, slides_id: int, task_id: str = "", worker: str = "") -> None:
    """The worker's job (QUEUED → RUNNING → FINISHED/FAILED, the core's conditional states: a
    task delivered twice does no harm, a run taken over writes nothing): check that the file
    is a PDF from its bytes and render its first page as the preview."""
    token = job_claim(model=Slides, pk=slides_id, task_id=task_id, worker=worker)
    if token is None:
        return
    slides = Slides.objects.get(pk=slides_id)
    status, message, values = job_run(
        lambda: {"png": _checked_preview(slides)}, what=f"slides {slides_id}"
    )
    png = values.pop("png", None)
    if png is not None:
        slides.preview.save("preview.png", ContentFile(png), save=False)
        values["preview"] = slides.preview.name
    if (
        not job_complete(
            model=Slides, pk=slides_id, token=token, status=status, message=message, **values
        )
        and png is not None
    ):
        slides.preview.storage.delete(values["preview"])  # a newer run writes its own
