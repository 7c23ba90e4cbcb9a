"""A copy that keeps some of a bundle's rounds (a clone's ticked rounds, an import's chosen
ones): what of the manifest goes with them. The one owner of the rule for both."""

import datetime as dt
import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from pwscup.competitions.standings_services import FIRST_KEY
from pwscup.kinds import get_kind
from pwscup.kinds.bundle_anchor import schedule_anchor

# Round addresses as typed in one field or option: separated by commas or spaces.
ADDRESS_SEPARATORS = re.compile(r"[\s,]+")


def round_addresses(text: str) -> set[str] | None:
    """The round addresses ``text`` names (``"r1, r3"``, ``"r1 r3"``); ``None`` when it
    names none: every round."""
    addresses = {address for address in ADDRESS_SEPARATORS.split(text or "") if address}
    return addresses or None


def _kept_check(manifest: dict, keep: set[str]) -> None:
    """Refuse (keyed ``rounds``) an address the bundle lacks, naming its rounds, and a
    choice keeping none."""
    known = [entry["slug"] for entry in manifest["rounds"]]
    unknown = sorted(address for address in keep if address not in known)
    if unknown:
        raise ValidationError(
            {
                "rounds": _("The bundle has no round %(unknown)s; its rounds are %(known)s.")
                % {
                    "unknown": ", ".join(repr(address)[:60] for address in unknown[:5]),
                    "known": ", ".join(known),
                }
            }
        )
    if not keep:
        raise ValidationError({"rounds": _("Keep at least one round.")})


def rounds_kept(manifest: dict, round_files: list, keep: set[str]) -> list:
    """Leave out of ``manifest`` (in place) the rounds whose address is not in ``keep``, the
    presentation windows of those rounds and each standings division that counts one of
    them or counts a division left out (the first division kept becomes the first); return
    the kept rounds' files.

    Raises ``ValidationError`` (keyed ``rounds``) when ``keep`` names a round the bundle
    lacks or keeps none."""
    _kept_check(manifest, keep)
    kept = [
        (entry, files)
        for entry, files in zip(manifest["rounds"], round_files, strict=True)
        if entry["slug"] in keep
    ]
    manifest["rounds"] = [entry for entry, _files in kept]
    manifest["presentations"] = [
        window
        for window in manifest.get("presentations", [])
        if window["round"] is None or window["round"] in keep
    ]
    _divisions_kept(manifest, keep)
    return [files for _entry, files in kept]


def _divisions_kept(manifest: dict, keep: set[str]) -> None:
    """Leave out each division that counts a round left out, then each that counts a
    division left out (one level: counted divisions count no division). What is left keeps
    its order; the first left is the manifest's ``standings``."""
    divisions = [manifest["standings"]] if manifest.get("standings") else []
    divisions += manifest.get("standings_divisions") or []
    divisions = [d for d in divisions if all(item["round"] in keep for item in d["rounds"])]
    keys = {d.get("key", FIRST_KEY) for d in divisions}
    divisions = [
        d for d in divisions if all(item["division"] in keys for item in d.get("divisions", []))
    ]
    manifest["standings"] = divisions[0] if divisions else None
    manifest["standings_divisions"] = divisions[1:]


def kept_start(manifest: dict, keep: set[str], start: dt.datetime) -> dt.datetime:
    """Where the bundle's anchor goes so that the rounds ``keep`` begin at ``start``: the
    earliest time of theirs (``schedule_anchor``: an opening, else a close) on ``start``, every
    other time keeping its distance. ``start`` itself when they begin with the whole bundle
    (every round kept among them). Call it before ``rounds_kept`` leaves the others out."""
    kept = _offset_anchor(entry for entry in manifest["rounds"] if entry["slug"] in keep)
    whole = _offset_anchor(manifest["rounds"])
    if kept is None or whole is None:
        return start
    try:
        return start - (kept - whole)
    except OverflowError:
        raise ValidationError(
            {"start": _("The rounds to import begin too far from this start.")}
        ) from None


def _offset_anchor(entries) -> dt.timedelta | None:
    """The earliest time of the rounds ``entries`` of a manifest, as an offset from the
    bundle's anchor (their kinds read their windows, ``RoundKind.bundle_schedule``); a round
    of a kind this site lacks has none (its import is refused)."""
    windows = []
    for entry in entries:
        try:
            kind = get_kind(entry["kind"])
        except ValidationError:
            continue
        windows += kind.bundle_schedule(entry["settings"])
    return schedule_anchor(windows)
