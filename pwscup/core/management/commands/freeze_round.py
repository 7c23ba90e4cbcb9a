"""Freeze a round from the command line (same service as the admin action)."""

from django.core.management.base import BaseCommand, CommandError

from pwscup.competitions.models import Round
from pwscup.submissions.services import round_freeze


class Command(BaseCommand):
    help = "Fix each team's final anonymization and publish the attack targets."

    def add_arguments(self, parser):
        parser.add_argument("competition")
        parser.add_argument("round")

    def handle(self, *args, competition, round, **options):
        try:
            round_ = Round.objects.get(competition__slug=competition, slug=round)
        except Round.DoesNotExist as error:
            raise CommandError(f"No round {competition}/{round}.") from error
        targets = round_freeze(round=round_)
        for target in targets:
            self.stdout.write(f"{target.team.slug}: version {target.version}, {target.rows} rows")
        self.stdout.write(self.style.SUCCESS(f"Frozen: {len(targets)} targets published."))
