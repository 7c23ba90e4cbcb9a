"""``manage.py allow_competitions <username>``: let an account create competitions.

The account then sees the organizer console (/console/) and organizes every competition it
creates there; it needs no staff flag and no admin rights.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from pwscup.console.services import competition_creator_grant


class Command(BaseCommand):
    help = "Let an account create competitions in the organizer console."

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, username, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No account named {username!r}.")
        competition_creator_grant(user=user)
        self.stdout.write(f"{username} may now create competitions at /console/.")
