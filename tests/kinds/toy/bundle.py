"""The toy round in a competition bundle: its phase's times (offsets from the bundle's
anchor, through the core's schedule rule) and limits, created again through the toy's own
service."""

from pwscup.kinds.bundles import (
    BundleChecks,
    RoundBundle,
    schedule_offsets,
    window_at_offsets,
)
from tests.kinds.toy.services import toy_round_create

KEYS = ("opens_at", "closes_at", "daily_limit", "total_limit")


def round_bundle(round, *, anchor, options=None) -> RoundBundle:
    phase = round.phases.get()
    ((opens_at, closes_at),) = schedule_offsets([(phase.opens_at, phase.closes_at)], anchor)
    return RoundBundle(
        settings={
            "opens_at": opens_at,
            "closes_at": closes_at,
            "daily_limit": phase.daily_limit,
            "total_limit": phase.total_limit,
        }
    )


def round_from_bundle(*, competition, entry, start, user=None):
    checks = BundleChecks()  # as every kind: one answer names every error
    settings = entry.settings_of(KEYS, checks=checks)
    window = checks.run(
        window_at_offsets, settings, start, path="settings", entry=entry, phase="Toy phase"
    )
    checks.done()
    opens_at, closes_at = window
    return toy_round_create(
        competition=competition,
        name=entry.name,
        slug=entry.slug,
        opens_at=opens_at,
        closes_at=closes_at,
        daily_limit=settings["daily_limit"],
        total_limit=settings["total_limit"],
    )
