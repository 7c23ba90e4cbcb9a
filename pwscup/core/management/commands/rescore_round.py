"""Rescore every upload and target of a round with the installed scorer."""

from django.core.management.base import BaseCommand, CommandError

from pwscup.competitions.models import Round
from pwscup.submissions.services import round_rescore_all


class Command(BaseCommand):
    help = "Queue every submission, target and attack of a round for scoring again."

    def add_arguments(self, parser):
        parser.add_argument("competition")
        parser.add_argument("round")

    def handle(self, *args, competition, round, **options):
        try:
            round_ = Round.objects.get(competition__slug=competition, slug=round)
        except Round.DoesNotExist as error:
            raise CommandError(f"No round {competition}/{round}.") from error
        self.stdout.write(str(round_rescore_all(round=round_)))
