"""What the accounts announce to the apps above them.

``password_set`` is sent by ``user_password_set`` (reset by e-mail, change on the site) with
``user``: the API app answers by revoking the user's tokens. A signal, not a call, because
the API is a face above the core: the core must not import it (``.importlinter``), yet a new
password has to end every credential made with the old one.
"""

from django.dispatch import Signal

password_set = Signal()
