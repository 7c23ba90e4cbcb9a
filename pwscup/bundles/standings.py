"""The competition's standings in a bundle: per division, the rule and, per counted round,
its address, weight and rankings (``pwscup.competitions.standings``). The first division is
the manifest's ``standings`` (its ``key`` and names written only when they are not the
defaults, ``overall`` and none, so that a competition of one standings writes what it did
before divisions); the others are ``standings_divisions``, in order. An old bundle has
neither: the imported competition then has no standings, as before. A division that counts
other divisions' ranks names them in ``divisions`` (key and weight; absent: none, as in a
bundle made before counted divisions); the import adds the divisions that count none first,
so that each counted one exists when the division counting it is added."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from pwscup.bundles.manifest import MANIFEST_NAME
from pwscup.competitions.standings import standings_divisions
from pwscup.competitions.standings_services import (
    FIRST_KEY,
    CountedInput,
    DivisionInput,
    EntryInput,
    counted_message,
    standings_division_add,
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
    counted = division.counted_divisions.all()
    if counted:
        entry["divisions"] = [
            {"division": link.counted.key, "weight": float(link.weight)} for link in counted
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


def _counted_inputs(competition, entry: dict, path: str, keys: dict) -> list[CountedInput]:
    """The divisions ``entry`` counts, by key among those imported so far (``keys``: every
    division of the manifest, by key, to its entry)."""
    inputs = []
    for index, item in enumerate(entry.get("divisions", [])):
        key = item["division"]
        where = {"file": MANIFEST_NAME, "path": f"{path}.divisions[{index}].division"}
        if key not in keys:
            raise ValidationError(
                _("%(file)s: %(path)s: the bundle has no division %(value)s.")
                % {**where, "value": key}
            )
        division = competition.standings_divisions.filter(key=key).first()
        if division is None:  # it counts divisions itself, so it is added in the last pass
            raise ValidationError(
                _("%(file)s: %(path)s: %(message)s") % {**where, "message": counted_message(key)}
            )
        inputs.append(CountedInput(division=division, weight=Decimal(str(item["weight"]))))
    return inputs


def _division_import(*, competition, entry: dict, user, path: str, order: int, keys) -> None:
    division = DivisionInput(
        key=entry.get("key", FIRST_KEY),
        name_en=entry.get("name_en", ""),
        name_ja=entry.get("name_ja", ""),
        order=order,
    )
    fields = {"user": user, "competition": competition, "rule": entry["rule"]}
    try:
        fields["entries"] = _inputs(competition, entry, path)
        fields["counted"] = _counted_inputs(competition, entry, path, keys)
        standings_division_add(division=division, **fields)
    except ValidationError as error:
        raise ValidationError(
            [
                message
                if message.startswith(MANIFEST_NAME)
                else _("%(file)s: %(path)s: %(message)s")
                % {"file": MANIFEST_NAME, "path": path, "message": message}
                for message in error.messages
            ]
        ) from None


def _manifest_divisions(manifest: dict) -> list[tuple[str, dict]]:
    """Every division of the manifest with its path, in order (the first is ``standings``;
    a clone's subset may have left it out)."""
    divisions = []
    if manifest.get("standings"):
        divisions.append(("standings", manifest["standings"]))
    for index, entry in enumerate(manifest.get("standings_divisions") or []):
        divisions.append((f"standings_divisions[{index}]", entry))
    return divisions


def standings_import(*, competition, manifest: dict, user) -> None:
    """Set the imported competition's divisions through the standings services (every check
    the console's form gets), the rounds named by their address in the bundle, each
    division at its place: those that count no division first, then those that do."""
    divisions = _manifest_divisions(manifest)
    keys = {entry.get("key", FIRST_KEY): entry for _path, entry in divisions}
    placed = list(enumerate(divisions))
    for order, (path, entry) in sorted(placed, key=lambda item: bool(item[1][1].get("divisions"))):
        _division_import(
            competition=competition, entry=entry, user=user, path=path, order=order, keys=keys
        )
