"""The DP round's pages: thin adapters over ``services`` and ``selectors``. One module per
group of pages: ``pages`` (the round page, a level's page, the leaderboard), ``charges``
(queries and releases charged to a ledger, the ledger's and a release's CSV), ``estimates``
(an estimate uploaded, built from a release or an answer, or declared); ``common`` holds
the look-ups and the refusal every group shares.
"""
