"""The 2015 game's console form for a round's name and phases (the wizard's phases step, the
round's edit page), and the phases' values it reads and fills."""

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.models import Round
from pwscup.competitions.round_create import RoundBasicsForm
from pwscup.core.form_fields import limit_field, local_datetime_field
from pwscup.core.time_zones import zone_or_default

PHASE_DATE_FIELDS = (
    "anonymization_opens_at",
    "anonymization_closes_at",
    "attack_opens_at",
    "attack_closes_at",
)


class PhasesForm(RoundBasicsForm):
    """The round's name, address and time zone (``RoundBasicsForm``), then both windows in
    the round's time zone; the service checks their order."""

    anonymization_opens_at = local_datetime_field(_("Anonymization phase opens"))
    anonymization_closes_at = local_datetime_field(_("Anonymization phase closes"))
    attack_opens_at = local_datetime_field(_("Attack phase opens"))
    attack_closes_at = local_datetime_field(_("Attack phase closes"))
    allow_attack_before_close = forms.BooleanField(
        label=_("Allow the attack phase to open before the anonymization phase closes"),
        required=False,
    )
    anonymization_daily_limit = limit_field(_("Anonymizations per day"))
    anonymization_total_limit = limit_field(_("Anonymizations in total"))
    attack_daily_limit = limit_field(_("Attacks per day"))
    attack_total_limit = limit_field(_("Attacks in total"))
    attack_target_limit = limit_field(_("Attacks per target"))
    anonymization_leaderboard_public = forms.BooleanField(
        label=_("Anonymization leaderboard visible to visitors and teams"), required=False
    )
    attack_leaderboard_public = forms.BooleanField(
        label=_("Attack phase leaderboard visible to visitors and teams"), required=False
    )

    LOCAL_DATES = PHASE_DATE_FIELDS


def phases_of(cleaned: dict) -> dict:
    """``{kind: phase_set keyword arguments}`` from a cleaned ``PhasesForm``."""
    return {
        kind: dict(
            opens_at=cleaned[f"{kind}_opens_at"],
            closes_at=cleaned[f"{kind}_closes_at"],
            daily_limit=cleaned.get(f"{kind}_daily_limit"),
            total_limit=cleaned.get(f"{kind}_total_limit"),
            target_limit=cleaned.get(f"{kind}_target_limit"),
            leaderboard_public=bool(cleaned.get(f"{kind}_leaderboard_public")),
        )
        for kind in ("anonymization", "attack")
    }


def windows_of(phases: dict) -> dict:
    return {kind: (v["opens_at"], v["closes_at"]) for kind, v in phases.items()}


def phases_initial(round: Round) -> dict:
    """A ``PhasesForm``'s initial values for an existing round (times in its zone)."""
    zone = zone_or_default(round.timezone)
    initial = {"name": round.name, "slug": round.slug, "timezone": round.timezone}
    for phase in round.phases.all():
        initial[f"{phase.kind}_opens_at"] = phase.opens_at.astimezone(zone).replace(tzinfo=None)
        initial[f"{phase.kind}_closes_at"] = phase.closes_at.astimezone(zone).replace(tzinfo=None)
        initial[f"{phase.kind}_daily_limit"] = phase.daily_limit
        initial[f"{phase.kind}_total_limit"] = phase.total_limit
        initial[f"{phase.kind}_target_limit"] = phase.target_limit
        initial[f"{phase.kind}_leaderboard_public"] = phase.leaderboard_public
    initial["allow_attack_before_close"] = attack_before_close(round)
    return initial


def attack_before_close(round: Round) -> bool:
    """Whether the round's attack phase opens before its anonymization phase closes: the box
    *Allow the attack phase to open before…* of a saved round's forms (the console's edit
    page, the admin's) starts ticked then, since windows saved overlapping were allowed
    (else the form would refuse the round as rendered)."""
    phases = {phase.kind: phase for phase in round.phases.all()}
    attack, anonymization = phases.get("attack"), phases.get("anonymization")
    return bool(attack and anonymization and attack.opens_at < anonymization.closes_at)
