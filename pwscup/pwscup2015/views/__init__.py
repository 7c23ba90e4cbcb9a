"""A 2015 round's pages, thin adapters over services and selectors: ``tabs`` (the round
page's five tabs and the jobs fragment), ``files`` (the data, configuration and
sample-submission downloads), ``kit`` (the starter kit), ``uploads`` (uploads, the final
choice, notes, the files back, ``status.json``), ``targets`` (the published targets),
``leaderboards`` (the leaderboard, attack matrix, final ranking and their charts) and
``operations`` (the console's operations as JSON). The site's URLconf mounts the upload pages that have no round in
their address from here."""

from pwscup.pwscup2015.views.uploads import (
    attack_file,
    attack_note,
    submission_file,
    submission_note,
    submission_select,
)

__all__ = ["attack_file", "attack_note", "submission_file", "submission_note", "submission_select"]
