"""Voiding, restoring and withdrawing uploads: the one writer of ``VoidableUpload``'s fields,
for every kind whose submission types declare them voidable (``pwscup.submissions.voids``).

An upload voided stays as uploaded (file, scores, status); it is marked (when, by whom, why,
withdrawn by its team or voided by the organizers) and counts nowhere until restored. Each
change is one conditional UPDATE (a second void of the same upload changes nothing), bumps
the round's ranking version and live versions, is kept in the audit log and, for a void or
a restore by the organizers, told to the team.

Every entry point (API, console, Submit tab, client) names the uploads by a ``VoidScope``:
the declared type and the caller's access to the round.
"""

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import ranking_version_bump, round_audit_record
from pwscup.core.errors import Refused
from pwscup.notifications.models import Notification
from pwscup.notifications.services import notify
from pwscup.submissions.models import NOTE_MAX_LENGTH
from pwscup.submissions.services.live import live_scope_changed
from pwscup.submissions.voids import counted

Told = Notification.Kind


@dataclass(frozen=True)
class VoidScope:
    """The uploads of one voidable type (``declared``) in the round the caller reaches
    (``access``, a ``RoundAccess``)."""

    declared: object
    access: object

    @property
    def round(self):
        return self.access.round

    def uploads(self):
        """Every team's uploads of the type in the round."""
        return self.declared.round_uploads(self.declared.part(self.access))


def organizer_check(access) -> None:
    """Only an organizer of the round's competition voids or restores (403 otherwise)."""
    if not access.is_organizer:
        raise Refused(_("Only the organizers of this competition may void uploads."), status=403)


def void_team(access, slug: str):
    """The team a void is limited to (``None``: every team, for an empty ``slug``); a slug
    naming no team of the competition is refused, never read as "every team"."""
    if not slug:
        return None
    team = Team.objects.filter(competition=access.competition, slug=slug).first()
    if team is None:
        raise Refused(_("No team %(team)s in this competition.") % {"team": slug})
    return team


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


def _recorded(scope: VoidScope, uploads: list, *, user, action: str, reason: str = "") -> None:
    """The audit entry of a change of ``uploads`` (their ids and teams), and the live
    versions of their teams and of the round (their pages read them again)."""
    round_audit_record(
        user=user,
        round=scope.round,
        action=action,
        type=scope.declared.key,
        ids=", ".join(str(upload.pk) for upload in uploads),
        teams=", ".join(sorted({str(upload.team) for upload in uploads})),
        reason=reason,
    )
    for team_id in {upload.team_id for upload in uploads}:
        live_scope_changed(round_id=scope.round.pk, team_id=team_id)


def _told(scope: VoidScope, uploads: list, *, kind: str, reason: str = "") -> None:
    """Each upload's team is told (one notification per upload and change)."""
    round_ = scope.round
    url = reverse("round_tab", args=[round_.competition.slug, round_.slug, "submit"])
    stamp = timezone.now().isoformat()
    for upload in uploads:
        label = f"{upload.label} {upload.original_filename}".strip()
        notify(
            users=get_user_model().objects.filter(memberships__team_id=upload.team_id),
            kind=kind,
            event=f"{kind}:{upload._meta.label_lower}:{upload.pk}:{stamp}",
            params={"file": label, "round": round_.name, "reason": reason},
            url=url,
        )


def _chosen(scope: VoidScope, *, upload_pk, before, team):
    uploads = counted(scope.uploads())
    if upload_pk is not None:
        uploads = uploads.filter(pk=upload_pk)
        if not uploads.exists():
            raise Refused(
                _("No upload %(id)s counts in this round.") % {"id": upload_pk}, status=404
            )
    else:
        uploads = uploads.filter(created_at__lt=before)
    if team is not None:
        uploads = uploads.filter(team=team)
    chosen = list(uploads.select_related("team"))
    for upload in chosen:
        _refusal_check(scope, upload)
    return chosen


def _refusal_check(scope: VoidScope, upload) -> None:
    """Refuse (409) a void or a restore of ``upload`` the kind refuses now
    (``void_refusal``), read under the kind's lock (``void_lock``)."""
    refusal = scope.declared.void_refusal(upload)
    if refusal:
        raise Refused(f"{upload.team} {upload.label}: {refusal}", status=409)


def uploads_void(
    scope: VoidScope,
    *,
    user,
    reason: str,
    upload_pk: int | None = None,
    before: dt.datetime | None = None,
    team=None,
) -> int:
    """The organizers void one upload of the scope (``upload_pk``), or every one sent before
    ``before`` (of ``team`` only, if given), with ``reason`` (required: the teams are told).
    Returns how many were voided now (an upload voided already is left as it was)."""
    reason = reason_clean(reason, required=True)
    if (upload_pk is None) == (before is None):
        raise Refused(_("Name one upload, or a time before which every upload is voided."))
    with transaction.atomic():
        ranking_version_bump(round_ids=[scope.round.pk])  # before the kind's lock (its order)
        scope.declared.void_lock(scope.declared.part(scope.access))
        chosen = _chosen(scope, upload_pk=upload_pk, before=before, team=team)
        voided = _mark(chosen, user=user, reason=reason, withdrawn=False)
        _recorded(scope, voided, user=user, action=AuditEntry.Action.UPLOADS_VOIDED, reason=reason)
        _told(scope, voided, kind=Told.UPLOAD_VOIDED, reason=reason)
    return len(voided)


def _mark(uploads: list, *, user, reason: str, withdrawn: bool) -> list:
    """Mark each of ``uploads`` voided that still counts (one conditional UPDATE each);
    the ones marked now."""
    now = timezone.now()
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


def upload_restore(scope: VoidScope, *, upload_pk: int, user) -> None:
    """The organizers restore a voided upload (voided by them or withdrawn by its team): it
    counts again, as before; its team is told. The kind's ``void_refusal`` refuses it as it
    refuses a void (a change of what counts it does not take now)."""
    upload = scope.uploads().filter(pk=upload_pk, voided_at__isnull=False).first()
    if upload is None:
        raise Refused(
            _("No upload %(id)s is voided in this round.") % {"id": upload_pk}, status=404
        )
    with transaction.atomic():
        ranking_version_bump(round_ids=[scope.round.pk])
        scope.declared.void_lock(scope.declared.part(scope.access))
        _refusal_check(scope, upload)
        type(upload).objects.filter(pk=upload.pk).update(
            voided_at=None, voided_by=None, void_reason="", withdrawn=False
        )
        _recorded(scope, [upload], user=user, action=AuditEntry.Action.UPLOAD_RESTORED)
        _told(scope, [upload], kind=Told.UPLOAD_RESTORED)


def upload_withdraw(scope: VoidScope, *, upload_pk: int, user, reason: str = "") -> None:
    """The caller's team withdraws one of its own uploads of the scope, where the round lets
    it (``withdrawal_open``: the round's setting and deadline), with an optional reason."""
    declared, access = scope.declared, scope.access
    if not declared.withdrawable or not declared.withdrawal_open(declared.part(access)):
        raise Refused(_("This round does not let teams withdraw uploads now."), status=403)
    reason = reason_clean(reason, required=False)
    upload = declared.uploads(declared.part(access), access).filter(pk=upload_pk).first()
    if upload is None:
        raise Refused(_("Your team has no upload %(id)s here.") % {"id": upload_pk}, status=404)
    if upload.voided_at is not None:
        raise Refused(_("This upload no longer counts already."), status=409)
    with transaction.atomic():
        ranking_version_bump(round_ids=[scope.round.pk])
        _mark([upload], user=user, reason=reason, withdrawn=True)
        action = AuditEntry.Action.UPLOAD_WITHDRAWN
        _recorded(scope, [upload], user=user, action=action, reason=reason)
