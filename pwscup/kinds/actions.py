"""A round's lifecycle action as the console offers it, for every round kind.

A kind lists its actions (``RoundKind.console_actions``); the core shows each behind the
same confirmation page (``console:round_action``: its title, what it does, one button) and
runs ``perform`` only on POST, for an organizer of the round. ``perform`` calls the kind's
lifecycle services and returns the message shown afterwards (or raises
``pwscup.core.errors.Refused``, shown as an error). ``details``, when given, returns the
lines the confirmation page adds for this round (e.g. which teams the action touches).

``AdminAction`` is the same for the admin's list of rounds (``RoundKind.admin_actions``).

``open_phases_close_action`` and ``hide_results_action`` are the steps several kinds share, in
the same words: the kind gives the service that does it. Once the phases are closed *close* is no
longer offered; the actions offered then answer it (``CLOSE_DONE``): the publication and
its undoing, or what comes before the publication. ``offered_actions`` picks those a kind
offers now, in its order.

An action that ends an upload window (a freeze, a close) says which (``ends``): before that
window opens, the confirmation page says so and offers a box, *end it before it opens*, and
``perform`` is called with ``early`` (the box ticked); the kind's service refuses the action
without it (the core's ``window_freeze_check``).

An action done is often replaced by its undoing (*publish* by *hide*): the replacing action
says so (``replaces``), and a reload or a second click of the confirmation done lands on the
round's page with that message (``replaced_answer``) instead of a 404.
"""

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


@dataclass(frozen=True)
class WindowEnd:
    """The upload window a lifecycle action ends (``RoundAction.ends``): its name as the kind
    shows it (its schedule line) and its opening (``None``: no opening bound)."""

    label: str
    opens_at: dt.datetime | None


@dataclass(frozen=True)
class RoundAction:
    title: object
    explanation: object
    button: object
    perform: Callable[..., str]  # (user=, round=) -> the message shown afterwards
    secondary: bool = False  # drawn as a secondary button (undo-like actions)
    details: Callable[..., list] | None = None  # (round=) -> lines shown before confirming
    # The actions this one is offered in place of once they are done, each with what the
    # console says when it is asked again (a reload, a second click): {"publish": "..."}.
    replaces: Mapping[str, object] = field(default_factory=dict)
    # (round=) -> why the action would change nothing now ("": it would not): the
    # confirmation page says it in place of the button, and a POST is answered with it.
    refusal: Callable[..., str] | None = None
    # (round=) -> the upload window the action ends now (``WindowEnd``; None: none, e.g. ended
    # already). Declared, ``perform`` takes ``early=`` too: the box *end it before it opens*.
    ends: Callable[..., WindowEnd | None] | None = None


@dataclass(frozen=True)
class AdminAction:
    """An action of the admin's list of rounds, run on the ticked rounds of the kind that
    declares it (the rounds of another kind are skipped, with a message)."""

    description: object
    perform: Callable[..., str]  # (user=, round=) -> the message shown (a SafeString may link)


CLOSE_TITLE = gettext_lazy("Close the open phases now")
CLOSE_BUTTON = gettext_lazy("Close now")


def open_phases_close_action(
    close: Callable[..., str], *, details: Callable[..., list], refusal: Callable[..., str]
) -> RoundAction:
    """*Close the open phases now*: only the phase open now closes, a phase not open yet stays
    as planned (a two-sided round's hand-over between its phases, a 2015 round's attack phase):
    ``close(user=, round=)`` closes it and says which, when and what stays planned;
    ``details(round=)``, the confirmation page's lines; ``refusal(round=)``, why it would
    change nothing (no phase open)."""
    return RoundAction(
        CLOSE_TITLE,
        gettext_lazy(
            "Each phase open now closes now: its uploads are refused from this moment. A "
            "phase not open yet keeps its dates. Uploads already received are still scored."
        ),
        CLOSE_BUTTON,
        close,
        details=details,
        refusal=refusal,
    )


#: What the console says to *close the open phases now* asked again once done: the kinds that
#: offer it put this in the ``replaces`` of their publication and of its undoing (and of what a
#: kind offers before its publication can be), so that one of them always answers it.
CLOSE_DONE = {"close": gettext_lazy("The phases of the round are already closed.")}
#: What the console says to a publication asked again once done (``RoundAction.replaces``).
ALREADY_PUBLISHED = gettext_lazy("The results are already published.")
#: The same for hiding them.
ALREADY_HIDDEN = gettext_lazy("The results are already hidden.")


def publish_results_action(
    publish: Callable[..., str], explanation, button=None, replaces: Mapping | None = None
) -> RoundAction:
    """*Publish the results*: ``publish(user=, round=)`` publishes them and says so;
    ``explanation`` says what everyone sees from then on, ``button`` the confirming button
    (by default the title). Offered in place of *hide* (``replaces``), and of the other
    actions in ``replaces`` (e.g. ``CLOSE_DONE``)."""
    title = gettext_lazy("Publish the results")
    replaces = {"hide": ALREADY_HIDDEN, **(replaces or {})}
    return RoundAction(title, explanation, button or title, publish, replaces=replaces)


def hide_results_action(
    hide: Callable[..., object], explanation, replaces: Mapping[str, object] | None = None
) -> RoundAction:
    """*Hide the results* (undoing their publication): ``hide(user=, round=)`` hides them;
    ``explanation`` says what becomes organizer-only again. Offered in place of *publish*
    (``replaces``), and of the other actions in ``replaces`` (e.g. ``CLOSE_DONE``)."""

    def perform(*, user, round) -> str:
        hide(user=user, round=round)
        return _("Results hidden.")

    return RoundAction(
        gettext_lazy("Hide the results"),
        explanation,
        gettext_lazy("Hide the results"),
        perform,
        secondary=True,
        replaces={"publish": ALREADY_PUBLISHED, **(replaces or {})},
    )


def publication_admin_actions(publish: Callable[..., str], hide: Callable[..., str]) -> dict:
    """The admin's list of rounds' publication and its undoing (``RoundKind.admin_actions``):
    ``publish(user=, round=)`` and ``hide(user=, round=)`` under the names and words every
    kind offering them shares (the list shows one entry per name, in the first kind's words,
    so they must be true of each kind's round)."""
    return {
        "publish_results": AdminAction(
            gettext_lazy("Publish the results (matrix and final ranking)"), publish
        ),
        "unpublish_results": AdminAction(gettext_lazy("Hide the results again"), hide),
    }


def replaced_answer(actions: dict[str, RoundAction], name: str):
    """What the console says when asked for ``name``, an action not offered now because one
    of ``actions`` (those offered) replaced it once it was done; None: no such action."""
    return next((a.replaces[name] for a in actions.values() if name in a.replaces), None)


def offered_actions(actions: dict[str, RoundAction], shown) -> dict[str, RoundAction]:
    """The kind's ``actions`` the console offers now (those named in ``shown``), in the
    kind's order: what ``RoundKind.console_actions`` returns."""
    return {name: action for name, action in actions.items() if name in shown}
