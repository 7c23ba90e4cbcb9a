"""The synthetic-data round: release a stand-in for a private table, attack the others'
releases by membership inference (spec ``synthetic-round.md``, issue 36).

The maths (configuration, draws, checks, utility, attacks and their scores) is
``scoring.synthetic``. This app keeps the round's draws, the teams' releases and attacks,
freezes the releases as targets with their challenge sets, scores the built-in attacks and
ranks both sides. A new game on the core: one folder per layer and one registration line.
"""

# The key of this kind (``Round.kind``), for the game's own modules.
KEY = "synthetic"
