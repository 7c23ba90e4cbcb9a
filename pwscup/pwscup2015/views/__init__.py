"""A 2015 round's pages, thin adapters over services and selectors: ``tabs`` (the round
page's five tabs and the jobs fragment), ``files`` (the data, configuration and
sample-submission downloads), ``kit`` (the starter kit), ``uploads`` (uploads, the final
choice, notes, the files back, ``status.json``), ``targets`` (the published targets),
``leaderboards`` (the leaderboard, attack matrix, final ranking and their charts) and
``operations`` (the console's operations as JSON). The upload pages whose address names no
round are mounted at the site's root by ``Pwscup2015Kind.site_url_patterns``."""
