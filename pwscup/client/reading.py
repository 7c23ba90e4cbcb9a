"""The commands that read: ``status`` (the team's rounds, or a round's schedule and the
team's uploads), ``download`` and ``leaderboard`` (``targets``: ``targets.py``)."""

import sys
from pathlib import Path

from pwscup.client.choosing import print_data_choice
from pwscup.client.formatting import moment, state_text, table, upload_label
from pwscup.client.messages import tr
from pwscup.client.session import FAILED, round_path
from pwscup.client.transport import Api

HEADLINE_SCORES = 4  # scores per upload in ``status`` when the round marks no headline


def _my_rounds(api: Api) -> int:
    me = api.get("api/v1/me/")
    print(tr("{user} on {server}").format(user=me["username"], server=api.base))
    rows = []
    for membership in me["teams"]:
        competition = api.get(f"api/v1/competitions/{membership['competition']}/")
        for round_ in competition["rounds"]:
            rows.append(
                [
                    f"{competition['slug']}/{round_['slug']}",
                    round_["kind_label"],
                    membership["team"]["name"],
                ]
            )
    if rows:
        print(table([tr("round"), tr("kind"), tr("team")], rows))
    else:
        print(tr("You are in no team yet."))
    return 0


def close_text(line: dict) -> str:
    """A window's close: when it really closed, and its planned close when it closed earlier
    (a freeze, *Close now*, a publication), as the round's pages show it."""
    planned = line.get("planned_closes_at")
    if not planned:
        return moment(line["closes_at"])
    return tr("{at} (planned: {planned})").format(
        at=moment(line["closes_at"]), planned=moment(planned)
    )


def cmd_status(api: Api, args) -> int:
    if args.round is None:
        return _my_rounds(api)
    status = api.get(round_path(args.round, "status/"))
    team = f" · {status['team']['name']}" if status["team"] else ""
    print(
        f"{status['name']} ({status['competition']}/{status['slug']}) · {status['kind_label']}{team}"
    )
    if status["schedule"]:
        schedule = [
            [
                line["label"],
                state_text(line["state"]),
                moment(line["opens_at"]),
                close_text(line),
            ]
            for line in status["schedule"]
        ]
        print(table([tr("window"), tr("state"), tr("opens at"), tr("closes at")], schedule))
        # Why a window open by its dates takes no upload (an older server sends no "held").
        for held in dict.fromkeys(line.get("held") for line in status["schedule"]):
            if held:
                print(held)
    print_data_choice(status)
    if status["submission_types"]:
        print()
        _print_upload_types(status["submission_types"])
    if status["team"] is None:
        return 0
    _print_uploads(status)
    # What the round's pages tell the team now (a scorer round's uploads still scored by an
    # older version of the program); an older server sends no notes.
    for note in status.get("notes", []):
        print()
        print(note["text"])
    return 0


def field_text(field: dict) -> str:
    """A field of an upload as ``--field`` takes it: ``target=teamA|teamB`` (the values it
    takes now), ``note=VALUE`` (any), marked when it may be left out."""
    choices = field["choices"]
    if choices is None:
        values = "VALUE"
    else:
        values = "|".join(choices) or tr("(none now)")
    optional = "" if field["required"] else tr(" (optional)")
    return f"{field['name']}={values}{optional}"


def _print_upload_types(types: list[dict]) -> None:
    """What the round takes: each type's ``--type`` key, whether it is open now, its label
    and its fields (``--field NAME=VALUE``)."""
    rows = [
        [
            kind["key"],
            tr("yes") if kind["open"] else tr("no"),
            kind["label"],
            "; ".join(field_text(field) for field in kind["fields"]),
        ]
        for kind in types
    ]
    print(tr("What this round takes (pwscup submit ROUND FILE --type KEY --field NAME=VALUE)"))
    print(table(["--type", tr("open now"), tr("upload"), tr("fields")], rows))
    for kind in types:
        if (kind.get("files") or {}).get("required"):  # an older server says nothing
            print(f"{kind['key']}: {files_text(kind['files'])}")


def files_text(files: dict) -> str:
    """The files an upload must hold (a type's ``files`` in the round status), as the Submit
    tab says them: ``the upload must hold a.csv, b.log (and no other file). Upload them
    together in one ZIP file.``"""
    text = tr("the upload must hold {files}").format(files=", ".join(files["required"]))
    text += (
        tr(" (and no other file).")
        if files["only_required"]
        else tr(" (other files may come with them).")
    )
    return text + (tr(" Upload them together in one ZIP file.") if files["zip"] else "")


def _print_uploads(status: dict) -> None:
    """The team's uploads, one table per submission type (the round status's order), newest
    first."""
    print()
    print(tr("Your uploads"))
    if not status["uploads"]:
        print(tr("No upload yet."))
        return
    types = {t["key"]: t for t in status["submission_types"]}
    groups: dict[str, list] = {key: [] for key in types}
    for upload in status["uploads"]:
        groups.setdefault(upload["type"], []).append(upload)
    for key, uploads in groups.items():
        if uploads:
            kind = types.get(key, {})
            print()
            print(f"{key}: {kind['label']}" if kind else key)
            if kind.get("counts"):  # which of them counts: "(final)" marks it below
                print(kind["counts"])
            takes_note = any(field["name"] == "note" for field in kind.get("fields", []))
            print(
                uploads_table(
                    uploads,
                    status["metrics"],
                    # An upload that counts is marked where the team chooses it or the
                    # round says which counts (the newest attack, PWSCup 2025's rule).
                    selectable=kind.get("selectable") or bool(kind.get("counts")),
                    takes_note=takes_note,
                )
            )


def _counting_mark(upload: dict, *, selectable: bool) -> str:
    """Beside an upload's state: " (voided)" for one the organizers voided, " (withdrawn)"
    for one its team withdrew (the answer's ``voided``: it counts nowhere, as the pages mark
    it), else " (final)" for the one that counts where the team chooses it."""
    voided = upload.get("voided")
    if voided:
        return tr(" (voided)") if voided.get("by_organizers", True) else tr(" (withdrawn)")
    return tr(" (final)") if upload["final"] and selectable else ""


def uploads_table(
    uploads: list[dict], metrics: list[dict], *, selectable: bool, takes_note: bool = False
) -> str:
    """Uploads of one type with the scores the round's metrics mark as ``headline`` (the
    first few when it marks none of theirs); "(final)" beside the chosen one when the team
    chooses its final upload of the type (``selectable``). The team's own note under its
    heading (when the type takes one, ``takes_note``, or an upload has one), the platform's
    remarks (a release passing the gates, the half an attack's scores are on) under theirs,
    as the round's pages keep them apart. Under the table, each failed upload's reason in
    full."""
    present = {k for upload in uploads for k in upload["scores_text"]}
    shown = [m["key"] for m in metrics if m["key"] in present]
    marked = [m["key"] for m in metrics if m["headline"] and m["key"] in present]
    headline = marked or shown[:HEADLINE_SCORES]
    notes = takes_note or any(u.get("note") for u in uploads)
    remarks = any(u.get("remark") for u in uploads)
    rows = [
        [
            upload_label(u),
            u["id"],
            state_text(u["status"]) + _counting_mark(u, selectable=selectable),
            u["about"],
            moment(u["created_at"]),
            *[u["scores_text"].get(m, "") for m in headline],
            *([u.get("note", "")] if notes else []),
            *([u.get("remark", "")] if remarks else []),
        ]
        for u in uploads
    ]
    # Each score under the round's own name for it, in the reader's language (the API's
    # ``metrics``: 有用性, not the program's key ``utility``).
    names = {m["key"]: m["name"] or m["key"] for m in metrics}
    headers = ["#", "id", tr("status"), tr("about"), tr("uploaded"), *map(names.get, headline)]
    headers += [tr("note")] * notes + [tr("remarks")] * remarks
    reasons = [
        f"{upload_label(u)} {state_text(FAILED)}: {u['message']}"
        for u in uploads
        if u["status"] == FAILED and u["message"]
    ]
    return "\n".join([table(headers, rows), *reasons])


def cmd_download(api: Api, args) -> int:
    """What the team may download now, as the round's Data tab offers it (the table to work
    on, the configuration, the team's own files), under the names the server gives."""
    folder = Path(args.output)
    folder.mkdir(parents=True, exist_ok=True)
    status = api.get(round_path(args.round, "status/"))
    if not status["downloads"]:
        print(tr("Nothing to download now."), file=sys.stderr)
        return 0
    for item in status["downloads"]:
        path = api.download(item["url"], folder / Path(item["name"]).name)
        print(path)
    return 0


def cmd_leaderboard(api: Api, args) -> int:
    board = api.get(round_path(args.round, "standings/"))
    if board["note"]:
        print(board["note"])
    several = len(board["tables"]) > 1
    for number, board_table in enumerate(board["tables"]):
        if several:  # one table needs no title (the round's leaderboard)
            if number or board["note"]:
                print()
            print(board_table["title"])
        # The server writes the figures (``rows_text``: the site's one rule, which this
        # standard-library client cannot import); a server without it sends ``rows`` only.
        text = board_table.get("rows_text")
        rows = text or [["–" if c is None else c for c in row] for row in board_table["rows"]]
        if rows:
            print(table(board_table["columns"], rows))
        else:
            print(tr("{title}: empty").format(title=board_table["title"]))
    return 0
