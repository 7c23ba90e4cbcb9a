"""The synthetic round's choice of the final release (its release and attack forms post to
the core's targets of the declared types, ``api/submissions.py``: ``syn/releases/send/``,
``syn/attacks/send/``, ``pwscup.pages.declared``). It keeps the choice through one service
and goes back to the Submit tab with a message; a request that asks for JSON
(``Accept: application/json``) gets the answer as JSON."""

from pwscup.submissions.round_pages import release_select_view
from pwscup.synthetic import KEY, services
from pwscup.synthetic.views.common import own_release

release_select = release_select_view(KEY, own_release, services.release_select)
