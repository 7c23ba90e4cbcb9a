"""The 2015 game's admin pages; Django's admin autodiscovery imports this package, which
registers them."""

from pwscup.pwscup2015.admin import rounds, uploads  # noqa: F401  (registration)
