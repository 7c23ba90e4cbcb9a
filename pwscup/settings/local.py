"""Laptop and demo defaults: DEBUG stays off unless asked for (DJANGO_DEBUG=true).

With DEBUG on, Django's 404 page lists every URL pattern; the demo must not show that. Static
files are served by WhiteNoise straight from the source folders, so no collectstatic is needed.
"""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=False)
WHITENOISE_USE_FINDERS = True
