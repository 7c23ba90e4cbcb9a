"""Voided and withdrawn uploads, read: the one rule of which uploads count, and what a
kind declares to let its uploads be voided.

An upload of a model inheriting ``VoidableUpload`` may be voided by the organizers (PWSCup
2016 "logically deleted" every upload sent before its rules changed) or withdrawn by its
team where the round allows it (PWSCup 2017's re-identification files, after the attack
phase). It stays as uploaded, and counts nowhere: every counting query of a kind (targets,
final releases, the attack matrix, rankings, exports' ranked rows) and the core's quota
read their uploads through ``counted``. The writes are ``services/voids.py``'s.
"""

from functools import reduce
from typing import NamedTuple

from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.submissions.models import VoidableUpload


def counted(uploads):
    """``uploads`` (a query set of one upload model) without the voided ones: the filter
    every query that counts uploads applies. A model that cannot be voided is returned as
    it is."""
    if issubclass(uploads.model, VoidableUpload):
        return uploads.filter(voided_at__isnull=True)
    return uploads


def counts(upload) -> bool:
    """Whether one upload, read already, counts (``counted``'s rule for a row in hand: not
    voided; an upload of a model that cannot be voided always counts)."""
    return getattr(upload, "voided_at", None) is None


def counted_among(uploads) -> list:
    """``uploads`` read already (a list, in its order) without the voided ones."""
    return [upload for upload in uploads if counts(upload)]


def voided(uploads):
    """The voided ones of ``uploads``, the newest void first."""
    return uploads.filter(voided_at__isnull=False).order_by("-voided_at", "-pk")


def newest_counted(typed_uploads, *, team=None, limit: int) -> tuple[list, bool]:
    """The ``limit`` newest uploads that count among several types' (``typed_uploads``:
    ``(declared, query set)`` pairs), of ``team`` only if given, as ``(declared, upload)``
    pairs, newest first; and whether older ones are left out. Each type's query reads at
    most ``limit + 1`` rows, however many the round holds."""
    rows = []
    for declared, uploads in typed_uploads:
        uploads = counted(uploads)
        if team is not None:
            uploads = uploads.filter(team=team)
        newest = uploads.select_related(*listed_with(declared)).order_by("-created_at", "-pk")
        newest = newest[: limit + 1]
        rows.extend((declared, upload) for upload in newest)
    rows.sort(key=lambda pair: (pair[1].created_at, pair[1].pk), reverse=True)
    return rows[:limit], len(rows) > limit


def listed_with(declared) -> list[str]:
    """What a page listing uploads of the type ``declared`` reads with them
    (``select_related``): their team and, for an attack type, its target's team."""
    return ["team", *filter(None, [declared.target_team_path])]


class ListedUpload(NamedTuple):
    """One row of the console's tables of uploads: its type, the upload, what the row calls
    it ("Release #2 (teamA_release.csv)": the type's noun, the team's number, the file's name
    as uploaded) and the team whose target it attacks (``None``: no target)."""

    declared: object
    upload: object
    title: str
    target_team: object

    @classmethod
    def of(cls, declared, upload) -> "ListedUpload":
        title = f"{declared.page_noun()} {upload.label}"
        if filename := getattr(upload, "original_filename", ""):
            title = f"{title} ({filename})"
        target_team = None
        if path := declared.target_team_path:
            # An attack of every target at once (the scorer's) has no target.
            target_team = reduce(
                lambda row, name: row and getattr(row, name), path.split("__"), upload
            )
        return cls(declared, upload, title, target_team)


def void_json(upload) -> dict | None:
    """The API's ``voided`` of an upload: ``None`` while it counts, else when, whether the
    organizers voided it (else its team withdrew it) and why."""
    if counts(upload):
        return None
    return {
        "at": timezone.localtime(upload.voided_at),
        "by_organizers": not upload.withdrawn,
        "reason": upload.void_reason,
    }


def void_answer(declared, upload, access) -> dict:
    """What an upload's API answer adds for a voidable type: ``voided`` and, for a type
    its team may withdraw while the round allows it, ``withdraw_url``."""
    body = {"voided": void_json(upload)}
    if declared.withdrawable and upload.voided_at is None and access.team is not None:
        body["withdraw_url"] = declared.address(upload, access, "withdraw")
    return body


def void_text(upload) -> str:
    """What a page says of a voided upload (``""``: it counts), in the reader's language."""
    if counts(upload):
        return ""
    if upload.withdrawn:
        return _("Withdrawn by your team")
    return _("Voided by the organizers: %(reason)s") % {"reason": upload.void_reason}


class VoidableUploads:
    """What a ``SubmissionType`` declares (as a base beside its own) for its uploads to be
    voidable; its model inherits ``VoidableUpload``. The core then serves the organizers'
    void and restore (console, API), and, with ``withdrawable``, the team's withdrawal.

    * ``round_uploads(part)``: every team's uploads of the type in the round;
    * ``withdrawal_open(part)``: whether the round lets teams withdraw them now (its
      setting and its deadline, as the kind reads them);
    * ``published_as``: for a release type, where a freeze publishes its uploads as
      targets, ``(target model, its field naming the upload)``: such an upload is never
      voided, since the attacks on it were made on its files (``void_refusal``, the one
      rule every kind's release type follows);
    * ``void_refusal(upload)``: why this upload cannot be voided, nor restored (``""``: it
      can; e.g. once the round is scored, where that would change its results);
    * ``void_lock(part)``: lock what the kind's freeze locks (by default the part's row,
      as ``two_sided_freeze`` does), taken by a void before its refusals are read: a void
      sent during a freeze waits for it and finds its release published, never voids a
      release the freeze is publishing.
    """

    voidable = True
    withdrawable = False
    published_as: tuple | None = None

    def round_uploads(self, part):
        raise NotImplementedError

    def withdrawal_open(self, part) -> bool:
        return False

    def void_lock(self, part) -> None:
        type(part).objects.select_for_update().only("pk").get(pk=part.pk)

    def void_refusal(self, upload) -> str:
        if self.published_as is not None:
            model, field = self.published_as
            if model.objects.filter(**{field: upload}).exists():
                return _("it is published as its team's target; it cannot be voided.")
        return ""


def voidable_types(kind) -> list:
    """The submission types of ``kind`` whose uploads may be voided."""
    return [declared for declared in kind.submission_types() if declared.voidable]
