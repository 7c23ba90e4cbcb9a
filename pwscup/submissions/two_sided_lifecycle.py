"""A two-sided kind's console lifecycle (``pwscup.kinds.two_sided.TwoSidedLifecycle``) with the
steps every such kind takes alike filled in by the core's services: *Close now* closes the
phase open now and leaves one not open yet as planned (``pwscup.competitions.phase_close``),
the results are published and hidden by ``two_sided_results_publish`` /
``two_sided_results_hide``, the phases are the core's release and attack phases, edited
under ``two_sided_phases_edit``'s rules. The kind gives its row of the round, its freeze, its
early attack phase (each ends the release phase: before it opens, only when the organizer
ticks the box, ``two_sided_release_end``) and the words of each step."""

from collections.abc import Callable

from pwscup.competitions.phase_close import close_details, close_open_phases, close_refusal
from pwscup.kinds.auto_freeze import AutoFreeze
from pwscup.kinds.two_sided import TwoSidedLifecycle
from pwscup.submissions.services.two_sided import (
    ATTACK,
    RELEASE,
    two_sided_phases_edit,
    two_sided_results_hide,
    two_sided_results_publish,
)
from pwscup.submissions.services.two_sided_freeze import two_sided_release_end


def two_sided_lifecycle(
    *, state: Callable, row: str, freeze: Callable, attack_now: Callable, **texts
) -> TwoSidedLifecycle:
    """The lifecycle of a kind whose row of the round is read by ``state(round)``, frozen by
    its service ``freeze(<row>=, user=, early=)`` and moved to its attack phase by
    ``attack_now(<row>=, user=, early=)``, each naming the row by the keyword ``row``
    (``early``: the release phase ends before it opens, ``two_sided_release_end``);
    ``texts``: ``freeze_text``, ``attack_now_text``, ``publish_text`` and ``hide_text``."""
    return TwoSidedLifecycle(
        state=state,
        close=close_open_phases,
        close_details=close_details,
        close_refusal=close_refusal,
        freeze=lambda state, user, early: freeze(**{row: state}, user=user, early=early),
        attack_now=lambda state, user, early: attack_now(**{row: state}, user=user, early=early),
        publish=lambda row, user: two_sided_results_publish(state=row, user=user),
        hide=lambda row, user: two_sided_results_hide(state=row, user=user),
        release_kind=RELEASE,
        attack_kind=ATTACK,
        release_end=two_sided_release_end,
        phases_edit=two_sided_phases_edit(state),
        **texts,
    )


def two_sided_auto_freeze(model) -> AutoFreeze:
    """What a two-sided kind whose row of the round is ``model`` (an ``AutoFreezeRow`` with
    its releases as ``row.releases``) declares as ``RoundKind.auto_freeze``: its release
    phase frozen at its close by its console's *Freeze the releases*."""
    return AutoFreeze(model=model, release_kind=RELEASE, releases=lambda row: row.releases.all())
