"""The toy round in a competition bundle: its phase's times (offsets from the bundle's
anchor) and limits, created again through the toy's own service."""

from pwscup.kinds.bundles import (
    RoundBundle,
    at_offset,
    offset_from,
    settings_known,
    settings_object,
)
from tests.kinds.toy.services import toy_round_create

KEYS = ("opens", "closes", "daily_limit", "total_limit")


def round_bundle(round, *, anchor) -> RoundBundle:
    phase = round.phases.get()
    return RoundBundle(
        settings={
            "opens": offset_from(phase.opens_at, anchor),
            "closes": offset_from(phase.closes_at, anchor),
            "daily_limit": phase.daily_limit,
            "total_limit": phase.total_limit,
        }
    )


def round_from_bundle(*, competition, entry, start):
    settings = settings_object(entry.settings, "settings")
    settings_known(settings, KEYS, "settings")
    return toy_round_create(
        competition=competition,
        name=entry.name,
        slug=entry.slug,
        opens_at=at_offset(settings["opens"], start, field="opens"),
        closes_at=at_offset(settings["closes"], start, field="closes"),
        daily_limit=settings["daily_limit"],
        total_limit=settings["total_limit"],
    )
