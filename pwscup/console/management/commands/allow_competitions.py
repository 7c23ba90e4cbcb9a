"""``manage.py allow_competitions <username>``: let an account create competitions
(``--revoke``: take the right back).

The account then sees the organizer console (/console/) and organizes every competition it
creates there; it needs no staff flag and no admin rights. The console's *Who may create
competitions* page does the same with the same services.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from pwscup.console.services import competition_creator_grant, competition_creator_revoke


class Command(BaseCommand):
    help = "Let an account create competitions in the organizer console."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument(
            "--revoke", action="store_true", help="Take the right to create competitions back."
        )

    def handle(self, *args, username, revoke=False, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(_("No account named %(name)s.") % {"name": repr(username)})
        if revoke:
            competition_creator_revoke(user=user)
            self.stdout.write(_("%(name)s may no longer create competitions.") % {"name": username})
            return
        competition_creator_grant(user=user)
        self.stdout.write(
            _("%(name)s may now create competitions at /console/.") % {"name": username}
        )
