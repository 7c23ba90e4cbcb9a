"""Freeze a round from the command line (same service as the admin action)."""

from pwscup.pwscup2015.management.commands._operation import OperationCommand
from pwscup.pwscup2015.services import round_freeze_request


class Command(OperationCommand):
    help = (
        "Fix each team's final anonymization and publish the attack targets "
        "(a background job on the Celery workers)."
    )
    service = staticmethod(round_freeze_request)
