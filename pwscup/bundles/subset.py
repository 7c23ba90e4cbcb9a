"""A clone that keeps some of the source's rounds: what of the manifest goes with them."""


def rounds_kept(manifest: dict, round_files: list, keep: set[str]) -> list:
    """Leave out of ``manifest`` (in place) the rounds whose address is not in ``keep``, the
    presentation windows of those rounds and the standings when they count one of them;
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
    standings = manifest.get("standings")
    if standings and any(item["round"] not in keep for item in standings["rounds"]):
        manifest["standings"] = None
    return [files for _entry, files in kept]
