"""``pwscup targets ROUND [--download DIR]``: the targets a team may attack now, and with
``--download`` their files, every kind alike: the round status's ``downloads`` marked with a
``target`` (the target team's slug), saved under ``DIR/<target>/``. A 2015 round lists its
targets from its own endpoint (rows, version); another kind's are the choices of its
attack's ``target`` field."""

import sys
from pathlib import Path

from pwscup.client.formatting import table
from pwscup.client.messages import tr
from pwscup.client.session import UsageError, round_path
from pwscup.client.transport import Api, ApiError


def cmd_targets(api: Api, args) -> int:
    try:
        targets = api.get(round_path(args.round, "targets/"))
    except ApiError as error:
        if error.status != 404:
            raise
        status = api.get(round_path(args.round, "status/"))  # no such round: its own 404
        shown = _targets_of_an_upload_field(status, downloading=bool(args.download))
    else:
        shown = _print_listed_targets(targets)
        status = api.get(round_path(args.round, "status/")) if args.download else None
    if args.download:
        _download_targets_files(api, status, Path(args.download))
    return shown


def _print_listed_targets(targets: list) -> int:
    """A 2015 round's targets (its ``targets/`` endpoint): slug, team, rows, version; none
    yet (before the freeze) is said as in a round of any kind (``_none_now``)."""
    rows = [[t["team"]["slug"], t["team"]["name"], t["rows"], t["version"]] for t in targets]
    if not rows:
        raise _none_now()
    print(table([tr("target"), tr("team"), tr("rows"), tr("version")], rows))
    return 0


def _none_now() -> UsageError:
    """No target to list now (a two-sided round before its freeze, or after it with no
    other team's release published; a round of none): said so, exit 2, whatever the round's
    game."""
    return UsageError(
        tr(
            "this round lists no target for your team now (a round with an attack phase "
            "lists the other teams' releases once they are frozen, never your own); see "
            "`pwscup status ROUND` and `pwscup download ROUND`"
        )
    )


def _download_targets_files(api: Api, status: dict, folder: Path) -> None:
    """``--download DIR``: the files of the round status's ``downloads`` that are a
    target's (``target``: its team's slug), each under ``DIR/<target>/`` by the name the
    status gives (one target's files apart from another's, whatever their names); none yet
    is said. A slug or name that is not a plain file name (``..``) is never followed."""
    found = [item for item in status.get("downloads", []) if item.get("target")]
    if not found:
        print(tr("No target's file to download now."), file=sys.stderr)
        return
    for item in found:
        target, name = _plain_name(item["target"]), _plain_name(item["name"])
        if target is None or name is None:
            print(
                tr("{name!r} is not a file name: not saved").format(name=item["name"]),
                file=sys.stderr,
            )
            continue
        (folder / target).mkdir(parents=True, exist_ok=True)
        path = api.download(item["url"], folder / target / name)
        print(tr("saved {path}").format(path=path), file=sys.stderr)


def _plain_name(text: str) -> str | None:
    """``text``'s last part as a file name; ``None`` for ``.``, ``..`` or nothing (a
    server's answer is not trusted to name a place outside the folder)."""
    name = Path(text).name
    return None if name in ("", ".", "..") else name


def _targets_of_an_upload_field(status: dict, *, downloading: bool = False) -> int:
    """A round of another kind than the first game's has no targets endpoint; when one of
    its uploads names a target (a ``target`` field with choices), those are its targets:
    listed, and where their files come from said unless ``downloading``. Else it has none
    to list now."""
    choices = [
        choice
        for kind in status.get("submission_types", [])
        for field in kind.get("fields", [])
        if field.get("name") == "target"
        for choice in field.get("choices") or []
    ]
    if not choices and any(k.get("key") == "attack" for k in status.get("submission_types", [])):
        # An attack covering every target at once (a scorer round's all_targets mode, PWSCup
        # 2024 and 2025): it has targets, none to name; said so rather than "no targets".
        print(tr("This round's attack covers every target at once: it names none."))
        _where_their_files_come(downloading)
        return 0
    if not choices:
        raise _none_now()
    print(table([tr("target")], [[slug] for slug in dict.fromkeys(choices)]))
    _where_their_files_come(downloading)
    return 0


def _where_their_files_come(downloading: bool) -> None:
    """Said after the targets' list, unless ``--download`` is saving their files now."""
    if not downloading:
        print(
            tr(
                "Their files come with `pwscup targets ROUND --download DIR` (each target's "
                "in its own folder) or `pwscup download ROUND`."
            ),
            file=sys.stderr,
        )
