"""The WSGI application: Django's own, with nothing in front of it."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pwscup.settings.local")
application = get_wsgi_application()
