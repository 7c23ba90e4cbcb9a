"""Shared handling of the commands that ask for a round's background operation."""

import time

from django.core.management.base import CommandError

from pwscup.pwscup2015.management.commands._round import RoundCommand
from pwscup.pwscup2015.models import RoundOperation
from pwscup.pwscup2015.selectors.operations import operation_request_text, operation_summary


class OperationCommand(RoundCommand):
    """Ask for the operation (it runs on a Celery worker) with ``service``, the admin action's
    own service (called with ``round=``), and return, or ``--wait`` for it."""

    service = None

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--wait",
            action="store_true",
            help="wait for a worker to finish the operation, printing its progress",
        )
        parser.add_argument(
            "--timeout", type=float, default=600.0, help="seconds --wait waits at most"
        )

    def handle(self, *args, wait=False, timeout=600.0, **options):
        self.wait, self.timeout = wait, timeout
        super().handle(*args, **options)

    def handle_round(self, round_):
        operation = self.service(round=round_)
        self.stdout.write(
            f"{operation_request_text(operation=operation)} (operation {operation.pk})"
        )
        if not self.wait:
            self.stdout.write(
                "It runs on a Celery worker; follow it on the round's admin page, or wait "
                "for it with --wait."
            )
            return
        summary = self.wait_for(operation)
        if summary["status"] != "finished":
            raise CommandError(
                f"Operation {operation.pk} {summary['status']}: {summary['message']}"
            )
        counts = ", ".join(f"{key}={value}" for key, value in sorted(summary["result"].items()))
        self.stdout.write(self.style.SUCCESS(f"Finished: {counts}"))

    def wait_for(self, operation: RoundOperation) -> dict:
        deadline = time.monotonic() + self.timeout
        shown = None
        while True:
            operation.refresh_from_db()
            summary = operation_summary(operation)
            progress = (summary["status"], summary["done"], summary["total"])
            if progress != shown:
                self.stdout.write(f"{summary['status']}: {summary['done']} of {summary['total']}")
                shown = progress
            if not summary["active"]:
                return summary
            if time.monotonic() > deadline:
                raise CommandError(
                    f"Operation {operation.pk} still {summary['status']} after "
                    f"{self.timeout:g} s: is a Celery worker running?"
                )
            time.sleep(0.5)
