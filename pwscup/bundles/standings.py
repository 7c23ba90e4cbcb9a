"""The competition's standings in a bundle: the rule and, per counted round, its address,
weight and rankings (``pwscup.competitions.standings``). An old bundle has none: the
imported competition then has no standings, as before."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from pwscup.bundles.manifest import MANIFEST_NAME
from pwscup.competitions.standings import standings_settings
from pwscup.competitions.standings_services import EntryInput, standings_update


def standings_entry(*, competition) -> dict | None:
    """The manifest's ``standings`` (``None``: the competition has none)."""
    settings = standings_settings(competition=competition)
    if settings is None:
        return None
    return {
        "rule": settings.rule,
        "rounds": [
            {
                "round": entry.round.slug,
                "weight": float(entry.weight),
                "rankings": list(entry.rankings),
            }
            for entry in settings.entries.all()
        ],
    }


def standings_import(*, competition, entry: dict | None, user) -> None:
    """Set the imported competition's standings through ``standings_update`` (every check
    the console's form gets), the rounds named by their address in the bundle."""
    if not entry:
        return
    inputs = []
    for index, item in enumerate(entry["rounds"]):
        round_ = competition.rounds.filter(slug=item["round"]).first()
        if round_ is None:
            raise ValidationError(
                _("%(file)s: %(path)s.round: the bundle has no round %(value)s.")
                % {
                    "file": MANIFEST_NAME,
                    "path": f"standings.rounds[{index}]",
                    "value": item["round"],
                }
            )
        inputs.append(
            EntryInput(
                round=round_,
                weight=Decimal(str(item["weight"])),
                rankings=tuple(item["rankings"]),
            )
        )
    try:
        standings_update(user=user, competition=competition, rule=entry["rule"], entries=inputs)
    except ValidationError as error:
        raise ValidationError(
            [
                _("%(file)s: %(path)s: %(message)s")
                % {"file": MANIFEST_NAME, "path": "standings", "message": message}
                for message in error.messages
            ]
        ) from None
