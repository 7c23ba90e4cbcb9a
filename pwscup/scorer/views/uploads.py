"""The scorer round's choice of the final release and of the attack that counts (a round whose
``attack_counts`` is ``chosen``; its release and attack forms post to the
core's targets of the declared types, ``api/submissions.py``: ``pwscup.pages.declared``). It
keeps the choice through one service and goes back to the Submit tab with a message; a
request that asks for JSON (``Accept: application/json``) gets the answer as JSON."""

from django.utils.translation import gettext as _

from pwscup.scorer import KEY, services
from pwscup.scorer.views.common import own_upload
from pwscup.submissions.round_pages import release_select_view

release_select = release_select_view(
    KEY,
    lambda access, pk: own_upload(access, "releases", pk),
    services.release_select,
)

attack_select = release_select_view(
    KEY,
    lambda access, pk: own_upload(access, "attacks", pk),
    lambda release: services.attack_select(attack=release),
    anchor="#attacks",
    done=lambda attack: _("Attack #%(n)s is now the one that counts.") % {"n": attack.number},
)
