import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pwscup.settings.local")
django_application = get_wsgi_application()

# Imported once Django is set up: the hottest round pages answered from their snapshots
# while nothing on them has changed (pwscup/core/snapshots.py).
from pwscup.core.snapshots import snapshot_fast_path  # noqa: E402

application = snapshot_fast_path(django_application)
