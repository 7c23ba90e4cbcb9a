"""Shared argument handling of the commands that act on one round."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from pwscup.competitions.models import Round
from pwscup.pwscup2015 import KEY


class RoundCommand(BaseCommand):
    """A command taking ``COMPETITION ROUND`` (slugs) and acting on that round, a round of
    ``round_kind`` (the commands here freeze and rescore the first kind's rounds)."""

    round_kind = KEY

    def add_arguments(self, parser):
        parser.add_argument("competition", help="competition slug")
        parser.add_argument("round", help="round slug")

    def handle(self, *args, competition, round, **options):
        try:
            round_ = Round.objects.get(competition__slug=competition, slug=round)
        except Round.DoesNotExist as error:
            raise CommandError(
                _("No round %(round)s.") % {"round": f"{competition}/{round}"}
            ) from error
        if round_.kind != self.round_kind:
            raise CommandError(
                _("The round %(round)s is a %(kind)s round: this command acts on %(own)s rounds.")
                % {
                    "round": f"{competition}/{round}",
                    "kind": repr(round_.kind),
                    "own": repr(self.round_kind),
                }
            )
        self.handle_round(round_)

    def handle_round(self, round_: Round) -> None:
        raise NotImplementedError
