"""The Submit tab's *Withdraw* button of a withdrawable submission type
(``pwscup.submissions.voids``), served for every kind that declares one beside its
``<path>/send/``, at ``<path>/<pk>/withdraw/``: a member of the upload's team, where and
while the round allows it (``upload_withdraw``'s refusals, shown on the tab)."""

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import path
from django.utils.translation import gettext as _

from pwscup.core.errors import Refused
from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.submissions.round_pages import refused_answer, team_form_view
from pwscup.submissions.services.voids import VoidScope, upload_withdraw


def _withdraw_view(kind, declared):
    @team_form_view(kind.key)
    def withdraw(request, access, team, pk):
        back = redirect(tab_url(access.round, SUBMIT) + declared.page_anchor({}, refused=True))
        try:
            reason = request.POST.get("reason", "")
            upload_withdraw(
                VoidScope(declared, access), upload_pk=pk, user=request.user, reason=reason
            )
        except Refused as refusal:
            return refused_answer(request, refusal, back)
        messages.info(request, _("Withdrawn: this upload no longer counts."))
        return back

    return withdraw


def void_pages(kind) -> list:
    """The withdrawal targets of the kind's withdrawable types (none for a kind that declares
    none)."""
    return [
        path(
            f"{declared.path}/<int:pk>/withdraw/",
            _withdraw_view(kind, declared),
            name=f"{declared.url_name}-withdraw",
        )
        for declared in kind.submission_types()
        if declared.voidable and declared.withdrawable
    ]
