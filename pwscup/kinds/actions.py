"""A round's lifecycle action as the console offers it, for every round kind.

A kind lists its actions (``RoundKind.console_actions``); the core shows each behind the
same confirmation page (``console:round_action``: its title, what it does, one button) and
runs ``perform`` only on POST, for an organizer of the round. ``perform`` calls the kind's
lifecycle services and returns the message shown afterwards (or raises
``pwscup.core.errors.Refused``, shown as an error). ``details``, when given, returns the
lines the confirmation page adds for this round (e.g. which teams the action touches).

``AdminAction`` is the same for the admin's list of rounds (``RoundKind.admin_actions``).
"""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class RoundAction:
    title: object
    explanation: object
    button: object
    perform: Callable[..., str]  # (user=, round=) -> the message shown afterwards
    secondary: bool = False  # drawn as a secondary button (undo-like actions)
    details: Callable[..., list] | None = None  # (round=) -> lines shown before confirming


@dataclass(frozen=True)
class AdminAction:
    """An action of the admin's list of rounds, run on the ticked rounds of the kind that
    declares it (the rounds of another kind are skipped, with a message)."""

    description: object
    perform: Callable[..., str]  # (user=, round=) -> the message shown (a SafeString may link)
