"""The toy game in the conformance suite. It lives only in the tests, so installing it is
what an app's ``ready()`` does for a real kind — the one registration line — plus creating
its tables (a real kind has migrations)."""

import datetime as dt
import importlib

from django.db import connection
from django.urls import clear_url_caches
from django.utils import timezone

import pwscup.api.urls
import pwscup.urls
from pwscup.accounts.services import user_create
from pwscup.competitions.services import competition_create
from pwscup.kinds import register, unregister
from pwscup.submissions.models import Status
from tests.kinds.players import Arena, Player, phase_close, phases_postpone, teams_join, uploaded
from tests.kinds.toy import services
from tests.kinds.toy.kind import ToyGameKind
from tests.kinds.toy.models import ToyRound, ToyUpload


def _reload_urls():
    """The URLconfs read the registry when they load: load them again (the API's first)."""
    clear_url_caches()
    importlib.reload(pwscup.api.urls)
    importlib.reload(pwscup.urls)


class ToyPlayer(Player):
    key = ToyGameKind.key
    # A team member's second reading of each tab (tests/kinds/test_page_queries_conform.py).
    # Submit reads the team's uploads, Results the standings: one query each (the core's tabs).
    page_queries = {"overview": 3, "data": 4, "rules": 3, "submit": 4, "results": 4}
    test_only = True
    holds_files = False  # a toy round is made of settings only

    def install(self):
        register(ToyGameKind())  # the one registration line (an app's ``ready()`` in a real kind)
        _reload_urls()
        # Inside the test's transaction: PostgreSQL drops the tables with its rollback.
        with connection.schema_editor() as editor:
            editor.create_model(ToyRound)
            editor.create_model(ToyUpload)

    def uninstall(self):
        unregister(self.key)
        _reload_urls()

    def bundle_faults(self, settings):
        settings["colour"] = "red"
        settings["opens_at"] = "next monday"
        settings["closes_at"] = "the day after"
        return ["colour", "opens_at", "closes_at"]

    def arena(self, *, slug, daily_limit=None, total_limit=None):
        organizer = user_create(username=f"{slug}-organizer", password="pw")
        competition = competition_create(name=f"Toy {slug}", slug=slug, organizers=[organizer])
        now = timezone.now()
        round_ = services.toy_round_create(
            competition=competition,
            name="Toy round",
            slug="toy",
            opens_at=now - dt.timedelta(hours=1),
            closes_at=now + dt.timedelta(days=1),
            daily_limit=daily_limit,
            total_limit=total_limit,
        )
        return teams_join(
            Arena(competition=competition, round=round_, organizer=organizer), slug=slug
        )

    def close(self, arena):
        phase_close(arena)

    def postpone(self, arena):
        phases_postpone(arena)

    def submit(self, arena, letter, content, *, name="toy.csv"):
        return services.toy_upload(
            round=arena.round, team=arena.teams[letter], uploaded_file=uploaded(content, name)
        )

    def valid(self, arena, n):
        return b"line\n" * (n + 1)

    def invalid(self, arena):
        return b" "

    def run_jobs(self):
        queued = ToyUpload.objects.filter(status=Status.QUEUED).order_by("pk")
        for pk in queued.values_list("pk", flat=True):
            services.toy_score(upload_id=pk)

    def kept(self, arena, letter):
        return list(
            ToyUpload.objects.filter(round=arena.round, team=arena.teams[letter]).order_by("pk")
        )


PLAYER = ToyPlayer()
