"""Create the demo competition on the Adult fixture, with demo accounts.

Only this command creates the demo accounts (password ``pwscup-demo``); it is meant for
a laptop, never for a real competition. It refuses to run on a database holding other
accounts or competitions unless ``--force``, and it never changes an existing account
(password, staff or superuser flags), even with ``--force``.
"""

import datetime as dt

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from pwscup.accounts.services import (
    membership_add,
    organizer_grant,
    team_create,
    user_get_or_create,
)
from pwscup.competitions.models import Competition
from pwscup.competitions.services import competition_create
from pwscup.console.services import competition_creator_grant
from pwscup.kinds import all_kinds
from pwscup.presentations.services import presentation_window_create

DEMO_PASSWORD = "pwscup-demo"
TEAMS = [
    ("Team A", "teamA", "team-a"),
    ("Team B", "teamB", "team-b"),
    ("Team C", "teamC", "team-c"),
]
ORGANIZER = "organizer"
DEMO_USERNAMES = (ORGANIZER, *(username for _name, _slug, username in TEAMS))
# Names and descriptions are an organizer's own text, one per competition or round (not
# translated by the site): the demo writes them in Japanese and English, as a lecturer of
# a mixed class would. The rounds are the kinds' (``RoundKind.demo_load``).
DEMO_NAME = "PWSCup デモ / PWSCup demo (UCI Adult)"
DEMO_DESCRIPTION = (
    "UCI Adult 国勢調査データ（Becker & Kohavi 1996, CC BY 4.0）を使った、"
    "匿名化と攻撃のコンテストのデモです。\n\n"
    "A demo of an anonymize-and-attack competition on the UCI Adult census extract "
    "(Becker & Kohavi 1996, CC BY 4.0)."
)


def non_demo_data(*, slug: str) -> list[str]:
    """What in the database the demo did not create: other accounts, other competitions."""
    found = []
    users = get_user_model().objects.exclude(username__in=DEMO_USERNAMES).count()
    if users:
        found.append(f"{users} other account(s)")
    competitions = Competition.objects.exclude(slug=slug).count()
    if competitions:
        found.append(f"{competitions} other competition(s)")
    return found


class Command(BaseCommand):
    help = "Load the demo competition (Adult data, three teams, both phases open)."

    def add_arguments(self, parser):
        parser.add_argument("--slug", default="demo")
        parser.add_argument(
            "--reset", action="store_true", help="Delete the demo competition first."
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help=(
                "Load the demo although the database holds other accounts or competitions "
                "(existing accounts are still never changed)."
            ),
        )

    @transaction.atomic
    def handle(self, *args, slug, reset, force, **options):
        found = non_demo_data(slug=slug)
        if found and not force:
            raise CommandError(
                f"This database holds data that is not the demo's ({', '.join(found)}): "
                "the demo is for a laptop, with its well-known passwords. "
                "Use --force to load it anyway."
            )
        if reset:
            Competition.objects.filter(slug=slug).delete()
        if Competition.objects.filter(slug=slug).exists():
            self.stdout.write(f"Demo competition '{slug}' already exists; nothing to do.")
            return
        organizer, organizer_created = self.account(ORGANIZER)
        competition = competition_create(
            name=DEMO_NAME,
            slug=slug,
            description=DEMO_DESCRIPTION,
            organizers=[organizer],
        )
        if organizer_created:
            # Staff in the organizers' group, not a superuser: the demo shows what a real
            # organizer sees (their own competitions only), and may create competitions.
            organizer_grant(user=organizer, competition=competition)
            competition_creator_grant(user=organizer)
        for name, team_slug, username in TEAMS:
            team = team_create(competition=competition, name=name, slug=team_slug)
            membership_add(team=team, user=self.account(username)[0])
        # Each round kind adds its demo rounds, the first kind's first (the registry's
        # order): the command knows no game.
        for kind in all_kinds():
            kind.demo_load(competition, organizer=organizer)
        now = timezone.now()
        # The closing session: every team presents its policies (slides open for two weeks).
        presentation_window_create(
            competition=competition,
            user=organizer,
            title="最終発表 / Final presentations",
            opens_at=now - dt.timedelta(hours=1),
            closes_at=now + dt.timedelta(days=14),
        )
        self.stdout.write(self.style.SUCCESS(f"Demo competition '{slug}' created."))

    def account(self, username: str):
        user, created = user_get_or_create(username=username, password=DEMO_PASSWORD)
        if not created:
            self.stdout.write(
                f"Account '{username}' exists already: its password and flags are left as they are."
            )
        return user, created
