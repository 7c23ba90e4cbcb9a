"""The sequential round's pages for participants (organizers see them too): ``pages`` (the
round page, a release's page, the leaderboard), ``uploads`` (a release, guesses on a
target), ``downloads`` (the team's tables, the configuration, releases, risk tables,
targets); ``common`` holds who may see what. Each view is thin: it calls one service or
selector. The organizer's forms of the console panel are in :mod:`pwscup.sequential.console`.
"""
