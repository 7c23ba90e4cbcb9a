"""``manage.py bundle_export COMPETITION FILE``: the competition as a bundle (a ZIP), through
the console's export service (recorded in the competition's audit log)."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from pwscup.bundles.services import competition_export
from pwscup.competitions.models import Competition


class Command(BaseCommand):
    help = "Export a competition as a bundle (ZIP with manifest.json and the rounds' files)."

    def add_arguments(self, parser):
        parser.add_argument("competition", help="competition slug")
        parser.add_argument("file", help="the ZIP to write")
        parser.add_argument("--user", help="account recorded in the audit log (optional)")
        parser.add_argument(
            "--include-hidden",
            action="store_true",
            help="with the rounds' hidden data (a scorer round's reference and truth packs)",
        )

    def handle(self, *args, competition, file, user, include_hidden, **options):
        found = Competition.objects.filter(slug=competition).first()
        if found is None:
            raise CommandError(_("No competition %(slug)s.") % {"slug": repr(competition)})
        account = None
        if user:
            account = get_user_model().objects.filter(username=user).first()
            if account is None:
                raise CommandError(_("No account %(name)s.") % {"name": repr(user)})
        try:
            data = competition_export(
                competition=found, user=account, include_hidden=include_hidden
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        try:
            Path(file).write_bytes(data)
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}.") from None
        self.stdout.write(
            _("%(slug)s: %(size)d bytes written to %(file)s.")
            % {"slug": found.slug, "size": len(data), "file": file}
        )
