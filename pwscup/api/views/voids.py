"""The endpoints of a voidable submission type (``pwscup.submissions.voids.VoidableUploads``),
served by the core beside its uploads' (``submissions.py``):

* ``POST <path>/<pk>/withdraw/`` (``reason`` optional): the team withdraws one of its
  uploads, where the round lets it (a type declaring ``withdrawable``);
* ``POST <path>/void/`` (organizers; ``reason`` required, and ``upload``: one upload's id, or
  ``before``: every upload sent before that time, of ``team`` only if given);
* ``POST <path>/<pk>/restore/`` (organizers): a voided upload counts again.

Refusals (not an organizer, the round does not allow it, after its deadline, another team's
upload) are the services' ``Refused``, answered by the API's error handler."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers
from rest_framework.response import Response

from pwscup.core.rest import errors
from pwscup.core.rest_schemas import JSON_OBJECT
from pwscup.submissions.models import NOTE_MAX_LENGTH
from pwscup.submissions.services.voids import (
    VoidScope,
    organizer_check,
    upload_restore,
    upload_withdraw,
    uploads_void,
    void_team,
)


# The reason's limit is the one the service keeps (``NOTE_MAX_LENGTH``), so that the schema
# says it.
class WithdrawForm(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=NOTE_MAX_LENGTH)


class VoidForm(serializers.Serializer):
    reason = serializers.CharField(max_length=NOTE_MAX_LENGTH)
    upload = serializers.IntegerField(required=False, min_value=1)
    before = serializers.DateTimeField(required=False)
    team = serializers.CharField(required=False, allow_blank=True, max_length=100)


def withdraw_post(view, request, competition_slug, round_slug, pk):
    declared = view.submission_type
    access, part = view.where(request, competition_slug, round_slug)
    declared.team(access)
    form = WithdrawForm(data=request.data)
    form.is_valid(raise_exception=True)
    reason = form.validated_data.get("reason", "")
    upload_withdraw(VoidScope(declared, access), upload_pk=pk, user=request.user, reason=reason)
    body = view.answer(declared.own(part, access, pk), part, access)
    body["message"] = _("Withdrawn: this upload no longer counts.")
    return Response(body)


def void_post(view, request, competition_slug, round_slug):
    declared = view.submission_type
    access, _part = view.where(request, competition_slug, round_slug)
    organizer_check(access)
    form = VoidForm(data=request.data)
    form.is_valid(raise_exception=True)
    data = form.validated_data
    team = void_team(access, data.get("team", ""))
    count = uploads_void(
        VoidScope(declared, access),
        user=request.user,
        reason=data["reason"],
        upload_pk=data.get("upload"),
        before=data.get("before"),
        team=team,
    )
    return Response({"voided": count})


def restore_post(view, request, competition_slug, round_slug, pk):
    declared = view.submission_type
    access, _part = view.where(request, competition_slug, round_slug)
    organizer_check(access)
    upload_restore(VoidScope(declared, access), upload_pk=pk, user=request.user)
    return Response({"restored": pk})


def void_schemas(declared) -> dict:
    """The three endpoints' schemas (``extend_schema``'s keywords), by action."""
    name = declared.operation
    return {
        "withdraw": dict(
            request=WithdrawForm,
            responses={200: JSON_OBJECT, **errors(400, 401, 403, 404, 409)},
            summary=gettext_lazy("Withdraw one of my team's uploads (it no longer counts)"),
            operation_id=f"{name}_withdraw",
        ),
        "void": dict(
            request=VoidForm,
            responses={200: JSON_OBJECT, **errors(400, 401, 403, 404, 409)},
            summary=gettext_lazy("Organizers: void one upload, or every one sent before a time"),
            operation_id=f"{name}s_void",
        ),
        "restore": dict(
            request=None,
            responses={200: JSON_OBJECT, **errors(401, 403, 404)},
            summary=gettext_lazy("Organizers: restore a voided upload"),
            operation_id=f"{name}_restore",
        ),
    }
