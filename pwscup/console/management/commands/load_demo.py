"""Create the demo competition on the Adult fixture, with demo accounts.

Only this command creates the demo accounts (password ``pwscup-demo``); it is meant for
a laptop, never for a real competition. It refuses to run on a database holding other
accounts or competitions unless ``--force``, and it never changes an existing account
(password, staff or superuser flags), even with ``--force``.
"""

import datetime as dt
import json

from django.conf import settings
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
from pwscup.competitions.models import Competition, Phase
from pwscup.competitions.services import competition_create, phase_set
from pwscup.console.services import competition_creator_grant
from pwscup.kinds import all_kinds
from pwscup.presentations.services import presentation_window_create
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.services import round_assign_samples
from pwscup.pwscup2015.services.rounds import round_create

DEMO_PASSWORD = "pwscup-demo"
TEAMS = [
    ("Team A", "teamA", "team-a"),
    ("Team B", "teamB", "team-b"),
    ("Team C", "teamC", "team-c"),
]
ORGANIZER = "organizer"
# Round 1 also shows the attribute-disclosure indicators L1, L2, L3 and T on the income
# class (<=50K / >50K), a column with no role: how well each QI class hides it.
DEMO_INDICATORS = {"sa": "income"}
DEMO_USERNAMES = (ORGANIZER, *(username for _name, _slug, username in TEAMS))
# Names and descriptions are an organizer's own text, one per competition or round (not
# translated by the site): the demo writes them in Japanese and English, as a lecturer of
# a mixed class would.
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
        fixtures = settings.BASE_DIR / "fixtures"
        original = (fixtures / "adult.csv").read_bytes()
        config = json.loads((fixtures / "adult_round.json").read_text())
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
        now = timezone.now()
        shared = round_create(
            competition=competition,
            name="ラウンド 1：共通の元データ / Round 1: shared original",
            slug="round-1",
            order=1,
            original=original,
            original_filename="adult.csv",
            config_raw={**config, "indicators": DEMO_INDICATORS},
            utility_gates={"U1": 2000, "U4": 0.1},
            tie_break_metric="U5",
        )
        per_team = round_create(
            competition=competition,
            name="ラウンド 2：チームごとの標本 / Round 2: per-team samples",
            slug="round-2",
            order=2,
            original=original,
            original_filename="adult.csv",
            config_raw=config,
            data_mode=Pwscup2015Round.DataMode.PER_TEAM,
            sample_size=100,
            decoy_count=100,
            tie_break_metric="U5",
        )
        for round_ in (shared, per_team):
            # Both windows are open at once so that the demo can be played through in minutes:
            # the organizer freezes the round from the console to start the attacks.
            phase_set(
                round=round_,
                kind=Phase.Kind.ANONYMIZATION,
                opens_at=now - dt.timedelta(hours=1),
                closes_at=now + dt.timedelta(days=7),
                daily_limit=20,
                total_limit=100,
                leaderboard_public=True,
            )
            phase_set(
                round=round_,
                kind=Phase.Kind.ATTACK,
                opens_at=now - dt.timedelta(hours=1),
                closes_at=now + dt.timedelta(days=14),
                daily_limit=50,
                total_limit=300,
            )
        for name, team_slug, username in TEAMS:
            team = team_create(competition=competition, name=name, slug=team_slug)
            membership_add(team=team, user=self.account(username)[0])
        round_assign_samples(round=per_team)
        # The other round kinds add their demo rounds (the first kind's are the two above).
        for kind in all_kinds():
            kind.demo_load(competition, organizer=organizer)
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
