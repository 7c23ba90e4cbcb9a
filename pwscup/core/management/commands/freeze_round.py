"""Freeze a round from the command line (same service as the admin action)."""

from pwscup.core.management.commands._round import RoundCommand
from pwscup.submissions.services import round_freeze


class Command(RoundCommand):
    help = "Fix each team's final anonymization and publish the attack targets."

    def handle_round(self, round_):
        targets = round_freeze(round=round_)
        for target in targets:
            self.stdout.write(f"{target.team.slug}: version {target.version}, {target.rows} rows")
        self.stdout.write(self.style.SUCCESS(f"Frozen: {len(targets)} targets published."))
