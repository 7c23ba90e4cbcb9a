"""Freeze a round from the command line (same service as the admin action)."""

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from pwscup.core.errors import Refused
from pwscup.pwscup2015.console.services import freeze_opening_check
from pwscup.pwscup2015.management.commands._operation import OperationCommand
from pwscup.pwscup2015.services import round_freeze_request


class Command(OperationCommand):
    help = (
        "Fix each team's final anonymization and publish the attack targets "
        "(a background job on the Celery workers)."
    )
    service = staticmethod(round_freeze_request)

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--before-opening",
            action="store_true",
            help=(
                "freeze even though the anonymization phase has not opened yet (it then "
                "never takes an upload): the console confirmation's box"
            ),
        )

    def handle(self, *args, before_opening=False, **options):
        self.before_opening = before_opening
        super().handle(*args, **options)

    def check_round(self, round_):
        """The console's rule (``freeze_opening_check``): no freeze before the phase opens
        unless ``--before-opening`` says so."""
        try:
            freeze_opening_check(round=round_, early=self.before_opening)
        except Refused as refused:
            raise CommandError(
                _("%(refusal)s (From the command line: add --before-opening.)")
                % {"refusal": refused.message}
            ) from refused
