from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "pwscup.competitions"
    verbose_name = _("Competitions")

    def ready(self):
        # Imported here, not at the top: models may be imported only once the app registry
        # is ready (Django's rule for ready()).
        from pwscup.competitions.attack_top import ATTACK_TOP, ATTACK_TOP_LABEL
        from pwscup.competitions.audit_details import value_labels_register
        from pwscup.competitions.dates import clamp_on_load
        from pwscup.competitions.models import AttackTopBy, AttackTopCombine, AttackTopOwn
        from pwscup.competitions.standings_models import Standings
        from pwscup.competitions.totals import TOTAL
        from pwscup.kinds import rankings

        # A date stored outside the accepted window is read as one just outside it, never
        # as an error (pwscup/competitions/dates.py).
        connection_created.connect(clamp_on_load, dispatch_uid="pwscup-dates-clamp-on-load")
        # The standings' audit line names their rule, or that they were removed.
        value_labels_register(
            "standings", {**dict(Standings.Rule.choices), "removed": _("removed")}
        )
        # Each counted round's rankings, by the labels the standings form shows.
        value_labels_register(
            "rounds",
            {key.key: key.label for key in (rankings.RELEASE, rankings.ATTACK, TOTAL)},
        )
        value_labels_register("rounds", {ATTACK_TOP: ATTACK_TOP_LABEL})
        # How the attack score against the top N releases is read, in words.
        value_labels_register("attack_top_by", AttackTopBy.choices)
        value_labels_register("attack_top_own", AttackTopOwn.choices)
        value_labels_register("attack_top_combine", AttackTopCombine.choices)
