"""The competition's standings in a bundle: per division, the rule and, per counted round,
its address, weight and rankings (``pwscup.competitions.standings``). The first division is
the manifest's ``standings`` (its ``key`` and names written only when they are not the
defaults, ``overall`` and none, so that a competition of one standings writes what it did
before divisions); the others are ``standings_divisions``, in order. An old bundle has
neither: the imported competition then has no standings, as before."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from pwscup.bundles.manifest import MANIFEST_NAME
from pwscup.competitions.standings import standings_divisions
from pwscup.competitions.standings_services import (
    FIRST_KEY,
    DivisionInput,
    EntryInput,
    standings_division_add,
    standings_update,
)


def _division_entry(division, *, first: bool) -> dict:
    entry = {}
    if not first or division.key != FIRST_KEY:
        entry["key"] = division.key
    if division.name_en or not first:
        entry["name_en"] = division.name_en
    if division.name_ja or not first:
        entry["name_ja"] = division.name_ja
    entry["rule"] = division.rule
    entry["rounds"] = [
        {
            "round": entry.round.slug,
            "weight": float(entry.weight),
            "rankings": list(entry.rankings),
        }
        for entry in division.entries.all()
    ]
    return entry


def standings_entries(*, competition) -> dict:
    """The manifest's ``standings`` and ``standings_divisions`` (each absent when empty)."""
    divisions = standings_divisions(competition=competition)
    entries = {}
    if divisions:
        entries["standings"] = _division_entry(divisions[0], first=True)
    if len(divisions) > 1:
        entries["standings_divisions"] = [
            _division_entry(division, first=False) for division in divisions[1:]
        ]
    return entries


def _inputs(competition, entry: dict, path: str) -> list[EntryInput]:
    inputs = []
    for index, item in enumerate(entry["rounds"]):
        round_ = competition.rounds.filter(slug=item["round"]).first()
        if round_ is None:
            raise ValidationError(
                _("%(file)s: %(path)s.round: the bundle has no round %(value)s.")
                % {"file": MANIFEST_NAME, "path": f"{path}.rounds[{index}]", "value": item["round"]}
            )
        inputs.append(
            EntryInput(
                round=round_,
                weight=Decimal(str(item["weight"])),
                rankings=tuple(item["rankings"]),
            )
        )
    return inputs


def _division_import(*, competition, entry: dict, user, path: str, first: bool) -> None:
    inputs = _inputs(competition, entry, path)
    division = DivisionInput(
        key=entry.get("key", FIRST_KEY),
        name_en=entry.get("name_en", ""),
        name_ja=entry.get("name_ja", ""),
    )
    fields = {"user": user, "competition": competition, "rule": entry["rule"], "entries": inputs}
    try:
        if first:
            standings_update(division=division, **fields)
        else:
            standings_division_add(division=division, **fields)
    except ValidationError as error:
        raise ValidationError(
            [
                _("%(file)s: %(path)s: %(message)s")
                % {"file": MANIFEST_NAME, "path": path, "message": message}
                for message in error.messages
            ]
        ) from None


def standings_import(*, competition, manifest: dict, user) -> None:
    """Set the imported competition's divisions through the standings services (every check
    the console's form gets), the rounds named by their address in the bundle."""
    first = manifest.get("standings")
    if not first:
        return
    _division_import(competition=competition, entry=first, user=user, path="standings", first=True)
    for index, entry in enumerate(manifest.get("standings_divisions", [])):
        path = f"standings_divisions[{index}]"
        _division_import(competition=competition, entry=entry, user=user, path=path, first=False)
