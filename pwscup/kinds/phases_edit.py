"""How a kind lets the core's console edit its phases (``RoundKind.phases_edit``): the
console's page *Dates and limits* of a round whose windows are the core's ``Phase`` rows.

A kind declares a ``PhasesEdit``; the core serves the page (``pwscup.console.phase_views``),
checks the dates the platform accepts and saves every phase through ``phase_set``
(``pwscup.competitions.phases_edit``). The kind says only what its game refuses, and, when
its windows live in its own row, how they are read and saved. A kind with an edit page of
its own (the 2015 game, the sequential rounds) declares none."""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

# The core's labels of a phase's two limits (a kind that counts its limits otherwise, per
# level say, declares its own ``limit_labels``).
UPLOAD_LIMIT_LABELS = (_("Uploads per team per day"), _("Uploads per team in total"))


@dataclass(frozen=True)
class PhaseValues:
    """One phase as the organizer typed it: its window and its upload limits per team
    (``None``: no limit; ``target_limit``: per target, for a phase that has one)."""

    opens_at: object
    closes_at: object
    daily_limit: int | None = None
    total_limit: int | None = None
    target_limit: int | None = None


@dataclass(frozen=True)
class PhasesEdit:
    """``errors(round=, phases=)``: what the kind's game refuses in ``phases`` (``{phase key:
    PhaseValues}``, every phase of the round), as ``{field: message}`` keyed by the page's
    fields (``<phase key>_opens_at``, ``_closes_at``, ``_daily_limit``, ``_total_limit``,
    ``_target_limit``), every error at once; ``{}``: none. ``target_limit_phases``: the
    phases whose uploads are also limited per target (the page asks for that limit).
    ``limit_labels``: the labels of the daily and total limits, as the kind's game counts
    them (default: a team's uploads per day and in total)."""

    errors: Callable[..., dict]
    target_limit_phases: tuple[str, ...] = ()
    limit_labels: tuple = UPLOAD_LIMIT_LABELS
    # A kind whose windows are not the core's ``Phase`` rows (the DP round's release window is
    # its own row's) names them here (``labels``, instead of ``phase_labels``), reads them
    # (``stored(round=)``: ``{key: PhaseValues}``) and saves them (``save(round=, phases=)``,
    # in the core's transaction, after the ranking version's bump).
    labels: dict | None = None
    stored: Callable[..., dict] | None = None
    save: Callable[..., None] | None = None

    def phase_labels(self, kind) -> dict:
        """The windows the page holds, by key, in order: ``labels``, or the kind's phases."""
        return kind.phase_labels if self.labels is None else self.labels
