"""The console's lifecycle actions of a two-sided round, for every kind whose game is a release
phase and then an attack phase on the frozen releases (synthetic data, the organizer's own
scoring program): close the open phases, freeze the releases, open the attack phase now,
publish or hide the results.

The kind declares what each step calls (``TwoSidedLifecycle``: its own services on its own
row of the round) and the words that explain its freeze and its publication; the core makes
the actions (``RoundAction``) and decides which the console offers now (``offered``). A kind
with a step of its own (the scorer's ranking program) adds it beside them.

``TwoSidedKind`` answers the ``RoundKind`` hooks every such kind answers alike from the same
declared lifecycle: the console's actions, the freeze ends the release phase, the
publication, the round's note and its results' link; and the windows of its bundle.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from pwscup.core.time_zones import in_zone_text
from pwscup.kinds.actions import (
    CLOSE_DONE,
    RoundAction,
    hide_results_action,
    offered_actions,
    open_phases_close_action,
    publish_results_action,
)
from pwscup.kinds.base import RoundKind
from pwscup.kinds.bundle_anchor import phases_offsets

#: What the console says to *publish* asked before the freeze (a page opened earlier): the
#: service refuses it in the same words (``two_sided_results_publish``).
NOTHING_TO_PUBLISH = gettext_lazy("Freeze the releases first: there is nothing to publish yet.")


@dataclass(frozen=True)
class TwoSidedLifecycle:
    """A two-sided kind's steps, each called with the kind's row of the round (``state``),
    but *close*: ``close(user=, round=)`` closes the phase open now and says so,
    ``close_details(round=)`` and ``close_refusal(round=)`` are its confirmation page's lines
    and why it would change nothing (``open_phases_close_action``); ``freeze(state, user,
    early)`` -> the targets; ``attack_now(state, user, early)`` -> ``(targets, the attack
    phase)``; ``publish(state, user)``; ``hide(state, user)``. ``release_end(state)``: the
    window both of these end (``WindowEnd``: the release phase until the first freeze),
    which before it opens they end only ``early`` (the confirmation's box).
    ``freeze_text``, ``attack_now_text``, ``publish_text`` and ``hide_text`` explain the
    kind's own freeze and publication on the confirmation page. ``release_kind`` and ``attack_kind``: the two phases' ``Phase.kind``.
    ``phases_edit``: what the console's page *Dates and limits* refuses of the kind's phases
    (``RoundKind.phases_edit``, the kind's through ``TwoSidedKind``)."""

    state: Callable  # (round) -> the kind's row (``frozen_at``, ``results_published``) or None
    close: Callable
    close_details: Callable
    close_refusal: Callable
    freeze: Callable
    attack_now: Callable
    publish: Callable
    hide: Callable
    freeze_text: object
    attack_now_text: object
    publish_text: object
    hide_text: object
    release_kind: str
    attack_kind: str
    release_end: Callable
    phases_edit: object = None


def actions(life: TwoSidedLifecycle) -> dict[str, RoundAction]:
    """The five actions of a two-sided round, in the console's order."""

    def freeze(*, user, round, early=False) -> str:
        state = life.state(round)
        changed = len(life.freeze(state, user, early))
        total = state.targets.count()
        if changed == total:
            return ngettext(
                "Froze the round: %(n)d target published.",
                "Froze the round: %(n)d targets published.",
                total,
            ) % {"n": total}
        return ngettext(
            "Froze the round again: %(n)d target published, %(changed)d of them republished "
            "now (its final release changed).",
            "Froze the round again: %(n)d targets published, %(changed)d of them republished "
            "now (their final release changed).",
            total,
        ) % {"n": total, "changed": changed}

    def attack_now(*, user, round, early=False) -> str:
        state = life.state(round)
        targets, attack = life.attack_now(state, user, early)
        changed, total = len(targets), state.targets.count()
        closes = in_zone_text(attack.closes_at, round.timezone)
        if changed == total:
            return ngettext(
                "The attack phase is open until %(closes)s: %(n)d target published.",
                "The attack phase is open until %(closes)s: %(n)d targets published.",
                total,
            ) % {"n": total, "closes": closes}
        return ngettext(
            "The attack phase is open until %(closes)s. The round was already frozen: "
            "%(n)d target published, %(changed)d of them republished now.",
            "The attack phase is open until %(closes)s. The round was already frozen: "
            "%(n)d targets published, %(changed)d of them republished now.",
            total,
        ) % {"n": total, "changed": changed, "closes": closes}

    def publish(*, user, round) -> str:
        life.publish(life.state(round), user)
        return _("Results published.")

    def ends(*, round):
        return life.release_end(life.state(round))

    return {
        "close": open_phases_close_action(
            life.close, details=life.close_details, refusal=life.close_refusal
        ),
        "freeze": RoundAction(
            gettext_lazy("Freeze the releases"),
            life.freeze_text,
            gettext_lazy("Freeze the releases"),
            freeze,
            # Offered until the publication, in place of *publish* before the freeze (and of
            # *close* once done, as *publish* is not offered yet).
            replaces={"publish": NOTHING_TO_PUBLISH, **CLOSE_DONE},
            ends=ends,
        ),
        "attack_now": RoundAction(
            gettext_lazy("Open the attack phase now"),
            life.attack_now_text,
            gettext_lazy("Freeze and open the attack phase"),
            attack_now,
            ends=ends,
        ),
        "publish": publish_results_action(
            publish, life.publish_text, gettext_lazy("Close the phases and publish"), CLOSE_DONE
        ),
        "hide": hide_results_action(
            lambda *, user, round: life.hide(life.state(round), user), life.hide_text, CLOSE_DONE
        ),
    }


def attack_phase_of(life: TwoSidedLifecycle, round_):
    """The round's attack phase (``None``: it has none), read among ``round_.phases.all()``
    (a list of rounds loaded with their phases reads nothing more)."""
    return next((p for p in round_.phases.all() if p.kind == life.attack_kind), None)


def results_wait(row, *, attack_closed: bool) -> bool:
    """Whether the round's results wait for the organizers: its releases frozen, its attack
    phase closed (``attack_closed``) and the results not published yet. The one rule the
    round page's overview (``TwoSidedPhases.attack_over``) and the round's note follow;
    ``row`` is the kind's row of the round (``frozen_at``, ``results_published``)."""
    return attack_closed and row.frozen_at is not None and not row.results_published


def offered(life: TwoSidedLifecycle, round_) -> set[str]:
    """The actions the console offers now: close while a phase is not closed; freeze, and
    open the attack phase now while it is not open, until the results are published;
    publish once frozen (there is nothing to publish before), or hide. None for a round
    without the kind's row."""
    state = life.state(round_)
    if state is None:
        return set()
    now = timezone.now()
    shown = set()
    if state.results_published:
        shown.add("hide")
    else:
        shown.add("freeze")
        if state.frozen_at is not None:
            shown.add("publish")
        attack = attack_phase_of(life, round_)
        if attack is not None and not attack.is_open(now):
            shown.add("attack_now")
    if any(not phase.has_closed(now) for phase in round_.phases.all()):
        shown.add("close")
    return shown


def lifecycle_actions(life: TwoSidedLifecycle, round_) -> dict[str, RoundAction]:
    """The actions of ``actions(life)`` the console offers now (``offered``)."""
    return offered_actions(actions(life), offered(life, round_))


class TwoSidedKind(RoundKind):
    """A ``RoundKind`` whose game is a release phase, then an attack phase on the frozen
    releases. The kind declares ``lifecycle`` (its ``TwoSidedLifecycle``: ``state`` reads its
    row of the round, which has ``frozen_at`` and ``results_published``) and a
    ``views_module`` with ``results_url(round)`` (its Results tab); a kind whose release
    phase waits for something more says so in ``release_phase_note``."""

    lifecycle: TwoSidedLifecycle

    @property
    def phases_edit(self):
        """The lifecycle's (``TwoSidedLifecycle.phases_edit``)."""
        return self.lifecycle.phases_edit

    def phase_ended_at(self, phase):
        """The freeze ends the release phase (its uploads are refused from then)."""
        if phase.kind != self.lifecycle.release_kind:
            return None
        state = self.lifecycle.state(phase.round)
        return state.frozen_at if state is not None else None

    def console_actions(self, round):
        """The lifecycle's actions offered now (``lifecycle_actions``); a kind with a step of
        its own adds it."""
        return lifecycle_actions(self.lifecycle, round)

    def results_published(self, round) -> bool:
        state = self.lifecycle.state(round)
        return bool(state and state.results_published)

    def round_note(self, round) -> str:
        state = self.lifecycle.state(round)
        if state is None:
            return ""
        if state.results_published:
            return pgettext("round state", "Results published")
        attack = attack_phase_of(self.lifecycle, round)
        if results_wait(state, attack_closed=attack is not None and attack.has_closed()):
            return _("Attack phase over · results wait for the organizers")
        if state.frozen_at is not None and attack is not None and timezone.now() < attack.opens_at:
            return _("Releases frozen · attack phase not open yet")
        if state.frozen_at is not None:
            return _("Releases frozen · attack phase")
        return self.release_phase_note(state) or _("Release phase")

    def release_phase_note(self, state) -> str:
        """What the release phase still waits for (``""``: nothing; the note then says
        "Release phase")."""
        return ""

    def bundle_schedule(self, settings) -> list[tuple]:
        """The windows of the ``phases`` setting every two-sided kind's bundle holds
        (``pwscup.submissions.two_sided_bundle``), where an import of some rounds puts its
        start."""
        return phases_offsets(settings) if isinstance(settings, dict) else []

    def leaderboard_url(self, round) -> str | None:
        return self.views_module.results_url(round)

    def results_summary(self, round) -> list[dict]:
        if not self.results_published(round):
            return []
        return [{"label": gettext_lazy("Results"), "url": self.leaderboard_url(round)}]
