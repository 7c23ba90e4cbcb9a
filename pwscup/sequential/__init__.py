"""The sequential-release round (m-invariance, spec ``sequential-round.md``, issue 12).

Teams publish the releases T*(1) … T*(n) of a table that changes between releases; the
maths (validation, MU/MINV, utility, risk under attackers N and A, attack scoring) is
``scoring.sequential``. This app stores the organizer's master tables and the teams'
uploads, freezes the steps, publishes the attack targets and ranks the teams.
"""

# The key of this kind (``Round.kind``), for the game's own modules.
KEY = "sequential"
