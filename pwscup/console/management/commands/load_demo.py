"""Create the demo competition on the Adult fixture, with demo accounts.

Only this command creates the demo accounts (password ``pwscup-demo``: the superuser
``admin``, ``organizer`` and one member per team); it is meant for a laptop, never for a real
competition. On a database that holds the demo (the competition it made,
``Competition.is_demo``) it adds what the demo lacks and keeps everything else: the
class's accounts, teams, uploads and scores, and the demo's own rows as the class left them,
so that ``scripts/demo`` starts again on the data of the day before. It refuses a database
holding other accounts or competitions and no demo unless ``--force``, and it never changes
an existing account (password, staff or superuser flags), even with ``--force``.
"""

import datetime as dt

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.services import (
    membership_add,
    organizer_grant,
    team_create,
    user_get_or_create,
)
from pwscup.competitions.models import Competition
from pwscup.competitions.services import competition_create, competition_demo_mark
from pwscup.console.services import competition_creator_grant
from pwscup.core.errors import Refused
from pwscup.kinds import all_kinds, kind_of
from pwscup.presentations.services import presentation_window_create

DEMO_PASSWORD = "pwscup-demo"
TEAMS = [
    ("Team A", "teamA", "team-a"),
    ("Team B", "teamB", "team-b"),
    ("Team C", "teamC", "team-c"),
]
ORGANIZER = "organizer"
# The site's administrator: a superuser, the only account that may open "Who may create
# competitions" (``may_manage_creators``). The right is site-wide, so the demo does not give
# it to its organizer: a lecturer sees the split of a real site (the administrator grants,
# the organizer organizes) and grants the right to a student from the console, no shell.
ADMIN = "admin"
DEMO_USERNAMES = (ADMIN, ORGANIZER, *(username for _name, _slug, username in TEAMS))
# Names and descriptions are an organizer's own text, one per competition or round (not
# translated by the site): the demo writes them in Japanese and English, as a lecturer of
# a mixed class would. The rounds are the kinds' (``RoundKind.demo_load``).
DEMO_NAME = "PWSCup デモ / PWSCup demo (UCI Adult)"
DEMO_DESCRIPTION = (
    "UCI Adult 国勢調査データ（Becker & Kohavi 1996, CC BY 4.0）を使った、"
    "匿名加工と攻撃のコンペティションのデモです。\n\n"
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
        competition = Competition.objects.filter(slug=slug).first()
        ours = competition is not None and competition.is_demo
        if not ours:
            self.refuse_unless_forced(slug=slug, force=force)
        if reset and competition is not None:
            competition.delete()
            competition, ours = None, False
        if ours:
            self.complete(competition)
            return
        if competition is not None:
            if non_demo_data(slug=slug):
                # Forced on a database of a class or a real competition: a competition of that
                # slug that load_demo did not make is left alone, as it always was.
                self.stdout.write(
                    _("Competition '%(slug)s' exists and is not the demo's; nothing to do.")
                    % {"slug": slug}
                )
                return
            # The demo, made before load_demo marked its competition: nothing else is here.
            competition_demo_mark(competition=competition)
            self.complete(competition)
            return
        self.account(ADMIN, is_superuser=True)
        organizer, organizer_created = self.account(ORGANIZER)
        competition = competition_create(
            name=DEMO_NAME,
            slug=slug,
            description=DEMO_DESCRIPTION,
            organizers=[organizer],
            is_demo=True,
        )
        if organizer_created:
            self.organizer_grant(organizer, competition)
        self.teams_add(competition)
        self.rounds_add(competition, organizer=organizer)
        self.presentations_add(competition, organizer=organizer)
        self.stdout.write(
            self.style.SUCCESS(_("Demo competition '%(slug)s' created.") % {"slug": slug})
        )

    def refuse_unless_forced(self, *, slug, force):
        found = non_demo_data(slug=slug)
        if found and not force:
            raise CommandError(
                _(
                    "This database holds data that is not the demo's (%(found)s) and no demo: "
                    "the demo is for a laptop, with its well-known passwords. Use --force to "
                    "load it anyway."
                )
                % {"found": ", ".join(found)}
            )

    def complete(self, competition):
        """The demo is here: add what it lacks (its organizer, teams, rounds, presentation
        window), never changing nor deleting what exists (the class's accounts, teams,
        uploads, scores, and the demo's rows as the class left them)."""
        self.account(ADMIN, is_superuser=True)
        organizer, organizer_created = self.account(ORGANIZER)
        if organizer_created:
            self.organizer_grant(organizer, competition)
        teams = self.teams_add(competition)
        rounds_before = set(competition.rounds.values_list("pk", flat=True))
        self.rounds_add(competition, organizer=organizer)
        if teams:
            # A demo team made again after the rounds: each round's kind draws its data (as
            # for a team registered on the site); the rounds made just now drew theirs.
            for round_ in competition.rounds.filter(pk__in=rounds_before):
                kind_of(round_).teams_changed(round_)
        if not competition.presentation_windows.exists():
            self.presentations_add(competition, organizer=organizer)
        self.stdout.write(
            self.style.SUCCESS(
                _(
                    "Demo competition '%(slug)s' already exists: what it lacked was added, the "
                    "rest (accounts, teams, uploads, scores) is kept."
                )
                % {"slug": competition.slug}
            )
        )

    def organizer_grant(self, organizer, competition):
        # Staff in the organizers' group, not a superuser: the demo shows what a real
        # organizer sees (their own competitions only), and may create competitions.
        organizer_grant(user=organizer, competition=competition)
        competition_creator_grant(user=organizer)

    def teams_add(self, competition) -> list:
        """The demo teams the competition lacks (by slug), each with its demo account;
        returns those made."""
        made = []
        for name, team_slug, username in TEAMS:
            if competition.teams.filter(slug=team_slug).exists():
                continue
            try:
                team = team_create(competition=competition, name=name, slug=team_slug)
            except Refused as refusal:  # a team of the class took the name
                self.stdout.write(
                    _("Team '%(name)s' is not made again: %(reason)s")
                    % {"name": name, "reason": refusal}
                )
                continue
            user = self.account(username)[0]
            if not competition.teams.filter(members=user).exists():
                membership_add(team=team, user=user)
            made.append(team)
        return made

    def rounds_add(self, competition, *, organizer):
        # Each round kind adds the demo rounds the competition lacks, the first kind's first
        # (the registry's order): the command knows no game.
        for kind in all_kinds():
            kind.demo_load(competition, organizer=organizer)

    def presentations_add(self, competition, *, organizer):
        # The closing session: every team presents its policies (slides open for two weeks).
        now = timezone.now()
        presentation_window_create(
            competition=competition,
            user=organizer,
            title="最終発表 / Final presentations",
            opens_at=now - dt.timedelta(hours=1),
            closes_at=now + dt.timedelta(days=14),
        )

    def account(self, username: str, *, is_superuser: bool = False):
        user, created = user_get_or_create(
            username=username, password=DEMO_PASSWORD, is_superuser=is_superuser
        )
        if not created:
            self.stdout.write(
                _("Account '%(name)s' exists already: its password and flags are left as they are.")
                % {"name": username}
            )
        return user, created
