"""What the freeze at the release phase's close reads (``RoundKind.auto_freeze``): when the
round's release phase closed and whether the freeze still waits for scoring, one rule for the
beat that freezes (``services.auto_freeze``) and the console's panel that says where it
stands (``auto_freeze_panel``)."""

from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext

from pwscup.competitions.selectors import phase_of
from pwscup.kinds.registry import kind_of
from pwscup.submissions.services.maintenance import uploads_in_flight


def release_closed_at(declared, row, *, now):
    """When the release phase of the round of ``row`` (the kind's row) closed, ``None``
    while it is open or if the round has none."""
    phase = phase_of(round=row.round, kind=declared.release_kind)
    if phase is None or phase.closes_at > now:
        return None
    return phase.closes_at


def scoring_awaited(declared, row, *, closed_at, now) -> bool:
    """Whether a release accepted before the close (``closed_at``) is still being scored:
    the freeze waits for it, as what was registered by the deadline counts."""
    accepted = declared.releases(row).filter(created_at__lt=closed_at)
    return uploads_in_flight(accepted, closed_at=closed_at, now=now)


@dataclass(frozen=True)
class AutoFreezePanel:
    """Where the round's automatic freeze stands, for the console's panel: ``closes_at``
    (the release phase's close it is due at), ``waiting`` (closed, waiting for scoring)
    and ``refusal`` (why the platform's last freeze was refused, translated)."""

    closes_at: object
    waiting: bool
    refusal: str


def auto_freeze_panel(row, *, now=None) -> AutoFreezePanel | None:
    """The panel's line of the automatic freeze of the kind's ``row``; ``None`` when it is
    off, the kind has none or the releases are frozen."""
    declared = kind_of(row.round).auto_freeze
    if declared is None or not row.auto_freeze or row.frozen_at is not None:
        return None
    now = now or timezone.now()
    phase = phase_of(round=row.round, kind=declared.release_kind)
    closed_at = release_closed_at(declared, row, now=now)
    waiting = closed_at is not None and scoring_awaited(declared, row, closed_at=closed_at, now=now)
    refusal = gettext(row.auto_freeze_refusal) if row.auto_freeze_refusal else ""
    return AutoFreezePanel(
        closes_at=phase.closes_at if phase else None, waiting=waiting, refusal=refusal
    )
