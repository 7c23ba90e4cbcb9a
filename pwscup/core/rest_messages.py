"""Django REST framework's own messages that its Japanese catalogue lacks (DRF 3.18 ships a
partial ``rest_framework/locale/ja``): an API answer said "choice: Not a valid string." to a
Japanese reader. And Django's own messages whose Japanese is wrong: Django 5's ``ja``
catalogue gives "Null characters are not allowed." (every form's text field refuses a NUL
character with it) as 「何か文字を入力してください。」, "enter some characters", which tells an
organizer who pasted a NUL the opposite of what is wrong. Our catalogue (``LOCALE_PATHS``, read before the apps' catalogues) gives
them in Japanese; listed here, with their exact msgids, so that ``makemessages`` keeps them
live in ``locale/ja/LC_MESSAGES/django.po`` instead of marking them obsolete.

Nothing imports this module at run time: DRF and Django translate their messages themselves,
by these msgids.
"""

from django.utils.translation import gettext_noop

DRF_MESSAGES = (
    gettext_noop("Invalid input."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("Not a valid string."),
    gettext_noop("Must be a valid UUID."),
    gettext_noop("A valid biginteger is required."),
    gettext_noop("Integer value too large to convert to float"),
    gettext_noop('Invalid datetime for the timezone "{timezone}".'),
    gettext_noop("Datetime value out of range."),
    gettext_noop("The number of days must be between {min_days} and {max_days}."),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    gettext_noop("This dictionary may not be empty."),
    gettext_noop("Surrogate characters are not allowed: U+{code_point:X}."),
    gettext_noop(
        'Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or hyphens.'
    ),
)

DJANGO_MESSAGES = (gettext_noop("Null characters are not allowed."),)
