"""The PWSCup 2015 anonymize-then-attack game: a round kind like the others (see
``docs/architecture.md``, "Round kinds")."""

# The key of this kind (``Round.kind``), for the game's own modules.
KEY = "pwscup2015"
