"""Rescore every upload and target of a round with the installed scorer."""

from pwscup.core.management.commands._round import RoundCommand
from pwscup.submissions.services import round_rescore_all


class Command(RoundCommand):
    help = "Queue every submission, target and attack of a round for scoring again."

    def handle_round(self, round_):
        self.stdout.write(str(round_rescore_all(round=round_)))
