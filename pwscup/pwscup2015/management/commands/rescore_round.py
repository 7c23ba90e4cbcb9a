"""Rescore every upload and target of a round with the installed scorer."""

from pwscup.pwscup2015.management.commands._operation import OperationCommand
from pwscup.pwscup2015.services import round_rescore_request


class Command(OperationCommand):
    help = (
        "Queue every submission, target and attack of a round for scoring again "
        "(a background job on the Celery workers)."
    )
    service = staticmethod(round_rescore_request)
