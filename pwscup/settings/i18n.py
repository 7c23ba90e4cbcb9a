"""Languages and time zones: the site's language, the server's zone and a new round's."""

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from .environment import BASE_DIR, env
from .zone_names import zone_name_known

LANGUAGE_CODE = env("DJANGO_LANGUAGE_CODE", default="ja")
LANGUAGES = [("ja", _("Japanese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env("DJANGO_TIME_ZONE", default="Asia/Tokyo")
# Refused here, by the rule of every zone (zone_names.py): Django would stop at set-up with a
# bare "Incorrect timezone setting", before any system check could name the variable.
if not zone_name_known(TIME_ZONE):
    raise ImproperlyConfigured(
        f"DJANGO_TIME_ZONE={TIME_ZONE!r} is not a time zone this host knows: set an IANA name "
        "such as Asia/Tokyo, Europe/Paris or UTC."
    )
# The time zone a new round (of every kind) or presentation window starts with, and the
# creation forms' initial choice (pwscup/core/time_zones.py): the server's unless set.
PWSCUP_DEFAULT_TIME_ZONE = env("PWSCUP_DEFAULT_TIME_ZONE", default=TIME_ZONE)
USE_I18N = True
USE_TZ = True
