"""Voiding, restoring and withdrawing uploads: the one writer of ``VoidableUpload``'s fields,
for every kind whose submission types declare them voidable (``pwscup.submissions.voids``).

An upload voided stays as uploaded (file, scores, status); it is marked (when, by whom, why,
withdrawn by its team or voided by the organizers) and counts nowhere until restored. Each
change is one conditional UPDATE (a second void of the same upload changes nothing), bumps
the round's ranking version and live versions, is kept in the audit log and, for a void or
a restore by the organizers, told to the team.
"""

import datetime as dt

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import ranking_version_bump, round_audit_record
from pwscup.core.errors import Refused
from pwscup.notifications.models import Notification
from pwscup.notifications.services import notify
from pwscup.submissions.models import NOTE_MAX_LENGTH
from pwscup.submissions.services.live import live_scope_changed
from pwscup.submissions.voids import counted


def organizer_check(access) -> None:
    """Only an organizer of the round's competition voids or restores (403 otherwise)."""
    if not access.is_organizer:
        raise Refused(_("Only the organizers of this competition may void uploads."), status=403)


def reason_clean(reason: str, *, required: bool) -> str:
    reason = " ".join((reason or "").split())
    if required and not reason:
        raise Refused(_("Say why the uploads are voided: the teams are told."), status=400)
    if len(reason) > NOTE_MAX_LENGTH:
        raise Refused(
            _("The reason is %(length)d characters long; at most %(limit)d are kept.")
            % {"length": len(reason), "limit": NOTE_MAX_LENGTH},
            status=400,
        )
    return reason


def _changed(*, round, uploads: list, user, now=None, **notice) -> None:
    """What follows every void or restore: the rankings and pages read again, the teams
    told (``notice``: the notification's ``kind`` and ``reason``; none: no one told)."""
    for team_id in {upload.team_id for upload in uploads}:
        live_scope_changed(round_id=round.pk, team_id=team_id)
    if not notice:
        return
    url = reverse("round_tab", args=[round.competition.slug, round.slug, "submit"])
    stamp = (now or timezone.now()).isoformat()
    for upload in uploads:
        notify(
            users=get_user_model().objects.filter(memberships__team_id=upload.team_id),
            kind=notice["kind"],
            event=f"{notice['kind']}:{upload._meta.label_lower}:{upload.pk}:{stamp}",
            params={
                "file": f"{upload.label} {upload.original_filename}".strip(),
                "round": round.name,
                "reason": notice.get("reason", ""),
            },
            url=url,
        )


def uploads_void(
    *,
    declared,
    part,
    round,
    user,
    reason: str,
    upload_pk: int | None = None,
    before: dt.datetime | None = None,
    team=None,
    now: dt.datetime | None = None,
) -> int:
    """The organizers void one upload of the type ``declared`` (``upload_pk``), or every one
    of the round sent before ``before`` (of ``team`` only, if given), with ``reason``
    (required: the teams are told). Returns how many were voided now (an upload voided
    already is left as it was)."""
    reason = reason_clean(reason, required=True)
    if (upload_pk is None) == (before is None):
        raise Refused(_("Name one upload, or a time before which every upload is voided."))
    uploads = counted(declared.round_uploads(part))
    if upload_pk is not None:
        uploads = uploads.filter(pk=upload_pk)
        if not uploads.exists():
            raise Refused(_("No upload %(id)s counts in this round.") % {"id": upload_pk}, 404)
    else:
        uploads = uploads.filter(created_at__lt=before)
    if team is not None:
        uploads = uploads.filter(team=team)
    now = now or timezone.now()
    with transaction.atomic():
        ranking_version_bump(round_ids=[round.pk])
        chosen = list(uploads.select_related("team"))
        for upload in chosen:
            refusal = declared.void_refusal(upload)
            if refusal:
                raise Refused(f"{upload.team} {upload.label}: {refusal}", status=409)
        voided = _mark(declared, chosen, now=now, user=user, reason=reason, withdrawn=False)
        round_audit_record(
            user=user,
            round=round,
            action=AuditEntry.Action.UPLOADS_VOIDED,
            type=declared.key,
            uploads=len(voided),
            ids=", ".join(str(upload.pk) for upload in voided),
            reason=reason,
        )
        _changed(
            round=round,
            uploads=voided,
            user=user,
            now=now,
            kind=Notification.Kind.UPLOAD_VOIDED,
            reason=reason,
        )
    return len(voided)


def _mark(declared, uploads: list, *, now, user, reason: str, withdrawn: bool) -> list:
    """Mark each of ``uploads`` voided that still counts (one conditional UPDATE each);
    the ones marked now."""
    marked = []
    for upload in uploads:
        changed = (
            type(upload)
            .objects.filter(pk=upload.pk, voided_at__isnull=True)
            .update(voided_at=now, voided_by=user, void_reason=reason, withdrawn=withdrawn)
        )
        if changed:
            marked.append(upload)
    return marked


def upload_restore(*, declared, part, round, upload_pk: int, user) -> None:
    """The organizers restore a voided upload (voided by them or withdrawn by its team): it
    counts again, as before; its team is told."""
    upload = declared.round_uploads(part).filter(pk=upload_pk, voided_at__isnull=False).first()
    if upload is None:
        raise Refused(_("No upload %(id)s is voided in this round.") % {"id": upload_pk}, 404)
    with transaction.atomic():
        ranking_version_bump(round_ids=[round.pk])
        type(upload).objects.filter(pk=upload.pk).update(
            voided_at=None, voided_by=None, void_reason="", withdrawn=False
        )
        round_audit_record(
            user=user,
            round=round,
            action=AuditEntry.Action.UPLOAD_RESTORED,
            type=declared.key,
            id=upload.pk,
            team=str(upload.team),
        )
        _changed(round=round, uploads=[upload], user=user, kind=Notification.Kind.UPLOAD_RESTORED)


def upload_withdraw(*, declared, part, access, upload_pk: int, user, reason: str = "") -> None:
    """The team withdraws one of its own uploads of ``declared``, where the round lets it
    (``withdrawal_open``: the round's setting and deadline), with an optional reason."""
    if not declared.withdrawable or not declared.withdrawal_open(part):
        raise Refused(_("This round does not let teams withdraw uploads now."), status=403)
    reason = reason_clean(reason, required=False)
    upload = declared.uploads(part, access).filter(pk=upload_pk).first()
    if upload is None:
        raise Refused(_("Your team has no upload %(id)s here.") % {"id": upload_pk}, status=404)
    if upload.voided_at is not None:
        raise Refused(_("This upload no longer counts already."), status=409)
    with transaction.atomic():
        ranking_version_bump(round_ids=[access.round.pk])
        _mark(declared, [upload], now=timezone.now(), user=user, reason=reason, withdrawn=True)
        round_audit_record(
            user=user,
            round=access.round,
            action=AuditEntry.Action.UPLOAD_WITHDRAWN,
            type=declared.key,
            id=upload.pk,
            team=str(upload.team),
            reason=reason,
        )
        _changed(round=access.round, uploads=[upload], user=user)
