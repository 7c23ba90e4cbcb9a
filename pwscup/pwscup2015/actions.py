"""The 2015 round's lifecycle actions in the organizer console
(``Pwscup2015Kind.console_actions``): close the phase open now, freeze, rescore, publish or hide the
results, draw the per-team samples; and those of the admin's list of rounds
(``Pwscup2015Kind.admin_actions``). Each calls one console service."""

from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from pwscup.competitions.phase_close import close_details, close_refusal
from pwscup.kinds.actions import (
    CLOSE_DONE,
    AdminAction,
    RoundAction,
    hide_results_action,
    offered_actions,
    open_phases_close_action,
    publish_results_action,
)
from pwscup.pwscup2015.console import services
from pwscup.pwscup2015.selectors.operations import operation_request_text


def _freeze(*, user, round, early=False) -> str:
    operation = services.console_round_freeze(user=user, round=round, early=early)
    return operation_request_text(operation=operation)


def _rescore(*, user, round) -> str:
    return operation_request_text(operation=services.console_round_rescore(user=user, round=round))


def _publish(*, user, round) -> str:
    return operation_request_text(operation=services.console_round_publish(user=user, round=round))


def _samples(*, user, round) -> str:
    count = services.console_round_draw_samples(user=user, round=round)
    return ngettext("Drew %(n)d sample.", "Drew %(n)d samples.", count) % {"n": count}


HIDE = hide_results_action(
    services.console_round_hide_results,
    gettext_lazy("The attack matrix and the final ranking become organizer-only again."),
    CLOSE_DONE,
)
ACTIONS = {
    # The phase open now closes, one not open yet keeps its dates (the two-sided kinds' too).
    "close": open_phases_close_action(
        services.console_round_phases_close, details=close_details, refusal=close_refusal
    ),
    "freeze": RoundAction(
        gettext_lazy("Freeze now"),
        gettext_lazy(
            "Each team's final anonymization is published as an attack target. Freezing "
            "again republishes only the targets whose final submission changed."
        ),
        gettext_lazy("Freeze the round"),
        _freeze,
        ends=services.freeze_window_end,
    ),
    "rescore": RoundAction(
        gettext_lazy("Rescore everything"),
        gettext_lazy(
            "Every submission, target and attack of the round is scored again with the current "
            "scorer and configuration. Scores are replaced as the jobs finish."
        ),
        gettext_lazy("Rescore everything"),
        _rescore,
    ),
    "publish": publish_results_action(
        _publish,
        gettext_lazy(
            "Every phase still open closes now (uploads are refused from this moment), and "
            "everyone will see the attack matrix and the final ranking. A published ranking "
            "never changes afterwards."
        ),
        gettext_lazy("Close the phases and publish"),
        CLOSE_DONE,
    ),
    "hide": HIDE,
    "samples": RoundAction(
        gettext_lazy("Draw the per-team samples"),
        gettext_lazy("Teams without a sample of the master table get one now."),
        gettext_lazy("Draw the samples"),
        _samples,
        secondary=True,
    ),
}


def pwscup2015_actions(round_) -> dict[str, RoundAction]:
    """The first kind's actions offered now (``Pwscup2015Kind.console_actions``)."""
    now = timezone.now()
    shown = {"freeze", "rescore", "hide" if round_.pwscup2015.results_published else "publish"}
    if any(not phase.has_closed(now) for phase in round_.phases.all()):
        shown.add("close")
    if round_.pwscup2015.is_per_team:
        shown.add("samples")
    return offered_actions(ACTIONS, shown)


def _with_progress_link(request_operation):
    """An admin action asking for a background operation: its message links to the progress
    shown on the round's admin page."""

    def perform(*, user, round) -> str:
        operation = request_operation(user=user, round=round)
        return format_html(
            '{} <a href="{}#operations">{}</a>',
            operation_request_text(operation=operation),
            reverse("admin:competitions_round_change", args=[round.pk]),
            _("Follow its progress"),
        )

    return perform


def _admin_samples(*, user, round) -> str:
    count = services.console_round_draw_samples(user=user, round=round)
    return _("Drew %(n)d samples.") % {"n": count}


#: The admin's actions on the game's rounds (names kept from before kinds existed).
ADMIN_ACTIONS = {
    "draw_samples": AdminAction(
        gettext_lazy("Draw the per-team samples (teams without one)"), _admin_samples
    ),
    "freeze": AdminAction(
        gettext_lazy("Freeze now: publish each team's final anonymization as a target"),
        _with_progress_link(services.console_round_freeze),
    ),
    "rescore_all": AdminAction(
        gettext_lazy("Rescore everything with the current scorer"),
        _with_progress_link(services.console_round_rescore),
    ),
    "publish_results": AdminAction(
        gettext_lazy("Publish the results (matrix and final ranking)"),
        _with_progress_link(services.console_round_publish),
    ),
    "unpublish_results": AdminAction(gettext_lazy("Hide the results again"), HIDE.perform),
}
