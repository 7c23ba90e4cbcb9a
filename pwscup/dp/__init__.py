"""The DP round (issue 11, spec dp-round.md): an ε ledger per team and level, Laplace answers
to histogram and count queries, platform-run Pk-anonymized releases, estimates scored by L2
and Spearman after the close, next to the paper's baselines.

The mathematics is ``scoring.dp`` (pure); this app stores, charges, draws and shows.
"""
