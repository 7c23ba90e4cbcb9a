"""A clone that keeps some of the source's rounds: what of the manifest goes with them."""

from pwscup.competitions.standings_services import FIRST_KEY


def rounds_kept(manifest: dict, round_files: list, keep: set[str]) -> list:
    """Leave out of ``manifest`` (in place) the rounds whose address is not in ``keep``, the
    presentation windows of those rounds and the standings' divisions that count one of them
    (or count a division left out);
    return the kept rounds' files."""
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
