"""Shared handling of the commands that ask for a round's background operation."""

import time

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.pwscup2015.management.commands._round import RoundCommand
from pwscup.pwscup2015.models import RoundOperation
from pwscup.pwscup2015.selectors.operations import operation_request_text, operation_summary

# The counts an operation's result holds (its runner's keys), as the command prints them.
RESULT_LABELS = {
    "targets": gettext_lazy("targets"),
    "published": gettext_lazy("published"),
    "unchanged": gettext_lazy("unchanged"),
    "anonymizations": gettext_lazy("anonymizations"),
    "attacks": gettext_lazy("attacks"),
}


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

    def check_round(self, round_) -> None:
        """Refuse (``CommandError``) what the service must not be asked for; by default
        nothing."""

    def handle_round(self, round_):
        self.check_round(round_)
        operation = self.service(round=round_)
        self.stdout.write(
            _("%(request)s (operation %(id)d)")
            % {"request": operation_request_text(operation=operation), "id": operation.pk}
        )
        if not self.wait:
            self.stdout.write(
                _(
                    "It runs on a Celery worker; follow it on the round's admin page, or wait "
                    "for it with --wait."
                )
            )
            return
        summary = self.wait_for(operation)
        if summary["status"] != "finished":
            raise CommandError(
                _("Operation %(id)d %(status)s: %(message)s")
                % {
                    "id": operation.pk,
                    "status": summary["status_label"],
                    "message": summary["message"],
                }
            )
        counts = ", ".join(
            f"{RESULT_LABELS.get(key, key)}={value}"
            for key, value in sorted(summary["result"].items())
        )
        self.stdout.write(self.style.SUCCESS(_("Finished: %(counts)s") % {"counts": counts}))

    def wait_for(self, operation: RoundOperation) -> dict:
        deadline = time.monotonic() + self.timeout
        shown = None
        while True:
            operation.refresh_from_db()
            summary = operation_summary(operation)
            progress = (summary["status"], summary["done"], summary["total"])
            if progress != shown:
                self.stdout.write(
                    _("%(status)s: %(done)d of %(total)d")
                    % {
                        "status": summary["status_label"],
                        "done": summary["done"],
                        "total": summary["total"],
                    }
                )
                shown = progress
            if not summary["active"]:
                return summary
            if time.monotonic() > deadline:
                raise CommandError(
                    _(
                        "Operation %(id)d still %(status)s after %(seconds)s s: is a Celery worker running?"
                    )
                    % {
                        "id": operation.pk,
                        "status": summary["status_label"],
                        "seconds": f"{self.timeout:g}",
                    }
                )
            time.sleep(0.5)
