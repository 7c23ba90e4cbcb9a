"""``manage.py bundle_import FILE --slug S --start T --organizer U [--name N] [--rounds R]
[--allow-closed]``: a new competition from a bundle (``--rounds``: only those of its rounds;
``--allow-closed``: a start that leaves phases closed already is kept), through the console's
import service (the same checks, the same messages, nothing left on failure)."""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from pwscup.bundles.services import competition_import
from pwscup.bundles.subset import round_addresses


class Command(BaseCommand):
    help = "Import a competition bundle as a new competition."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the bundle (ZIP)")
        parser.add_argument("--slug", required=True, help="the new competition's address")
        parser.add_argument("--name", default="", help="its name (default: the bundle's)")
        parser.add_argument(
            "--start",
            required=True,
            help="its start, ISO 8601 (2026-04-01T09:00+09:00; without an offset: the "
            "server's time zone)",
        )
        parser.add_argument(
            "--organizer",
            required=True,
            help="the account that organizes it (may create competitions)",
        )
        parser.add_argument(
            "--rounds",
            default="",
            help="the addresses of the bundle's rounds to import, separated by commas "
            "(default: every round)",
        )
        parser.add_argument(
            "--allow-closed",
            action="store_true",
            help="keep a start that leaves phases closed already (default: refused, naming them)",
        )

    def handle(self, *args, file, slug, name, start, organizer, rounds, allow_closed, **options):
        moment = parse_datetime(start)
        if moment is None:
            raise CommandError(
                _("--start %(value)s is not an ISO 8601 date and time.") % {"value": repr(start)}
            )
        if timezone.is_naive(moment):
            moment = timezone.make_aware(moment)
        account = get_user_model().objects.filter(username=organizer).first()
        if account is None:
            raise CommandError(_("No account %(name)s.") % {"name": repr(organizer)})
        try:
            with open(file, "rb") as bundle:
                chosen = {"rounds": round_addresses(rounds), "closed_allowed": allow_closed}
                competition = competition_import(
                    bundle_file=bundle, name=name, slug=slug, start=moment, user=account, **chosen
                )
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror}.") from None
        except PermissionDenied:
            raise CommandError(
                _("%(name)s may not create competitions.") % {"name": organizer}
            ) from None
        except ValidationError as error:
            raise CommandError("\n".join(error.messages)) from None
        self.stdout.write(
            _("Competition %(slug)s imported with %(rounds)d round(s), organized by %(name)s.")
            % {
                "slug": repr(competition.slug),
                "rounds": competition.rounds.count(),
                "name": organizer,
            }
        )
