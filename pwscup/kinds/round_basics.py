"""What every round has, whatever its kind, as a new round's creation is handed it."""

from dataclasses import dataclass

from pwscup.core.time_zones import default_time_zone


@dataclass(frozen=True)
class RoundBasics:
    """A new round's basics: the competition it belongs to (a ``Competition``), its name,
    its address (``slug``), its time zone (``None``: the site's ``default_time_zone()``) and
    its place among the competition's rounds (``order``; ``None``: after the others).

    Every entry point makes one (the console's creation forms from a ``RoundBasicsForm``'s
    values with ``round_basics``, a bundle's import with ``RoundEntry.basics``, the demos),
    every kind's creation service takes it as ``basics`` and passes it on to
    ``round_of_kind_create``, which checks the address and the time zone."""

    competition: object
    name: str
    slug: str
    timezone: str | None = None
    order: int | None = None

    def time_zone(self) -> str:
        """The round's time zone: its own, else the site's ``default_time_zone()``."""
        return default_time_zone() if self.timezone is None else self.timezone
