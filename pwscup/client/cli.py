"""``pwscup``: log in once, then submit, wait for the scores, read the leaderboard, download
the data, from a terminal or a script, in a round of any kind.

The client asks the API what the round is (``…/rounds/{r}/status/``: what the team may upload
and to which address, with which fields; what it may download now; its uploads) and shows
its leaderboard as the API gives it (``…/standings/``): it knows no kind. Only ``targets`` and
``attack`` are the first game's own shortcuts (``submit --type attack`` works too).

Messages in the user's language (``messages.py``: ``$PWSCUP_LANG``, else the locale).

Exit status: 0 done (a job FINISHED); 2 the job FAILED (its message on stderr) or a usage
error; 1 the server refused the request (its message on stderr) or could not be reached;
3 ``--wait`` gave up after ``--timeout`` seconds (the job goes on: ``pwscup status``).
"""

import argparse
import getpass
import sys
import time
from pathlib import Path

from pwscup.client.config import config_dir, load_credentials, save_credentials
from pwscup.client.formatting import score_table, table, upload_label
from pwscup.client.messages import tr
from pwscup.client.transport import Api, ApiError

FINISHED, FAILED = "finished", "failed"
# Polling while a job runs: quick at first (small uploads score in well under a second),
# then every few seconds.
POLL_START, POLL_MAX = 0.5, 5.0
HEADLINE_SCORES = 4  # scores per upload in ``status`` when the round marks no headline


class UsageError(Exception):
    pass


class WaitTimeout(Exception):
    pass


def split_round(value: str) -> tuple[str, str]:
    competition, _sep, round_slug = value.strip("/").partition("/")
    if not competition or not round_slug or "/" in round_slug:
        raise argparse.ArgumentTypeError(
            tr(
                "{value!r}: give the round as COMPETITION/ROUND (its slugs, as in its page's URL)"
            ).format(value=value)
        )
    return competition, round_slug


def split_field(value: str) -> tuple[str, str]:
    name, sep, field_value = value.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(
            tr("{value!r}: give a field as NAME=VALUE").format(value=value)
        )
    return name, field_value


def round_path(round_ref: tuple[str, str], suffix: str = "") -> str:
    competition, round_slug = round_ref
    return f"api/v1/competitions/{competition}/rounds/{round_slug}/{suffix}"


def connect() -> Api:
    credentials = load_credentials()
    if not credentials:
        raise UsageError(tr("not logged in: run `pwscup login URL` first"))
    return Api(credentials["url"], credentials["token"])


def cmd_login(args) -> int:
    url = args.url.rstrip("/")
    if args.token_stdin:
        token = sys.stdin.readline().strip()
    else:
        profile = f"{url}/accounts/profile/"
        print(tr("Create a token on your profile page: {url}").format(url=profile), file=sys.stderr)
        token = getpass.getpass(tr("API token: ")).strip()
    if not token:
        raise UsageError(tr("no token given"))
    me = Api(url, token).get("api/v1/me/")
    path = save_credentials(url=url, token=token)
    print(
        tr("Logged in to {url} as {user} (token kept in {path}).").format(
            url=url, user=me["username"], path=path
        )
    )
    return 0


def with_id(upload: dict) -> str:
    """``#3 (id 57)``: the team's number of the upload, and the id its URLs use."""
    return f"{upload_label(upload)} (id {upload['id']})"


def wait_for(api: Api, url: str, *, timeout: float, quiet: bool) -> dict:
    """Poll an upload until it is finished or failed; progress on stderr."""
    delay, started, last = POLL_START, time.monotonic(), None
    while True:
        upload = api.get(url)
        if upload["status"] != last and not quiet:
            print(f"{with_id(upload)}: {upload['status']}", file=sys.stderr)
            last = upload["status"]
        if upload["status"] in (FINISHED, FAILED):
            return upload
        if time.monotonic() - started > timeout:
            raise WaitTimeout(
                tr("still {status} after {seconds} s; see `pwscup status`").format(
                    status=upload["status"], seconds=f"{timeout:.0f}"
                )
            )
        time.sleep(delay)
        delay = min(POLL_MAX, delay * 1.5)


def _failed(upload: dict) -> int:
    print(tr("failed: {message}").format(message=upload["message"]), file=sys.stderr)
    return 2


def choose_type(status: dict, key: str | None) -> dict:
    """The submission type to upload: ``key`` if given; else the round's only one, or its
    only open one (the server refuses a closed one with its own message)."""
    types = status["submission_types"]
    keys = ", ".join(t["key"] for t in types)
    if not types:
        raise UsageError(tr("This round takes no upload from your team."))
    if key is not None:
        chosen = [t for t in types if t["key"] == key]
        if not chosen:
            raise UsageError(
                tr("no submission type {key!r} in this round; it takes: {keys}").format(
                    key=key, keys=keys
                )
            )
        return chosen[0]
    if len(types) == 1:
        return types[0]
    open_types = [t for t in types if t["open"]]
    if len(open_types) == 1:
        return open_types[0]
    raise UsageError(
        tr("this round takes several uploads; choose one with --type: {keys}").format(keys=keys)
    )


def upload_fields(kind: dict, given: dict, note: str) -> dict:
    """The fields the submission type takes: given ones, the note, a required field with a
    single choice filled in; a required one missing is a usage error naming its choices."""
    values = {}
    for field in kind["fields"]:
        name = field["name"]
        if name in given:
            values[name] = given[name]
        elif name == "note":
            values[name] = note
        elif field["required"] and field["choices"] and len(field["choices"]) == 1:
            values[name] = field["choices"][0]
        elif field["required"]:
            if field["choices"]:
                raise UsageError(
                    tr("give --field {name}=VALUE (one of: {choices})").format(
                        name=name, choices=", ".join(field["choices"])
                    )
                )
            raise UsageError(tr("give --field {name}=VALUE").format(name=name))
    return values


def print_scores(upload: dict, status: dict) -> None:
    """The upload's scores as ``python -m scoring evaluate`` prints them (the round's metrics
    in its order, each as the server wrote it)."""
    texts = upload.get("scores_text") or {}
    if not texts:
        print(tr("{upload}: no score to show yet.").format(upload=upload_label(upload)))
        return
    metrics = status["metrics"]
    keys = [m["key"] for m in metrics] or list(texts)
    print(
        score_table(
            upload.get("scores") or {},
            texts,
            metrics=keys,
            names={m["key"]: m["name"] for m in metrics},
            notes={m["key"]: m["note"] for m in metrics if m["note"]},
        )
    )


def cmd_submit(args) -> int:
    api = connect()
    status = api.get(round_path(args.round, "status/"))
    kind = choose_type(status, args.type)
    accepted = api.post_multipart(
        kind["url"],
        fields=upload_fields(kind, dict(args.field), args.note),
        file_field="file",
        file_path=args.file,
    )
    if accepted.get("message"):
        print(accepted["message"], file=sys.stderr)
    if not args.wait:
        print(with_id(accepted))
        return 0
    upload = wait_for(api, accepted["url"], timeout=args.timeout, quiet=args.quiet)
    if upload["status"] == FAILED:
        return _failed(upload)
    if "rate" in upload:  # an attack of the first game: its own line (``attack``)
        return _print_rate(upload)
    print_scores(upload, status)
    return 0


def _print_rate(upload: dict) -> int:
    if upload["rate"] is None:
        print(tr("re-identification rate hidden until the organizer's rule shows it"))
    else:
        print(
            tr("re-identification rate {rate} ({correct} of {rows} rows)").format(
                rate=upload["rate_text"], correct=upload["correct"], rows=upload["rows"]
            )
        )
    return 0


def cmd_attack(args) -> int:
    api = connect()
    accepted = api.post_multipart(
        round_path(args.round, "attacks/"),
        fields={"note": args.note, "target": args.target},
        file_field="file",
        file_path=args.file,
    )
    print(accepted["message"], file=sys.stderr)
    if not args.wait:
        print(with_id(accepted))
        return 0
    upload = wait_for(api, accepted["url"], timeout=args.timeout, quiet=args.quiet)
    if upload["status"] == FAILED:
        return _failed(upload)
    return _print_rate(upload)


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


def cmd_status(args) -> int:
    api = connect()
    if args.round is None:
        return _my_rounds(api)
    status = api.get(round_path(args.round, "status/"))
    team = f" · {status['team']['name']}" if status["team"] else ""
    print(
        f"{status['name']} ({status['competition']}/{status['slug']}) · {status['kind_label']}{team}"
    )
    if status["schedule"]:
        schedule = [
            [line["label"], line["state"], line["opens_at"], line["closes_at"]]
            for line in status["schedule"]
        ]
        print(table([tr("window"), tr("state"), tr("opens at"), tr("closes at")], schedule))
    open_types = [t["label"] for t in status["submission_types"] if t["open"]]
    if status["submission_types"]:
        print()
        if open_types:
            print(tr("You may upload now: {types}").format(types="; ".join(open_types)))
        else:
            print(tr("Nothing is open for uploads now."))
    if status["team"] is None:
        return 0
    present = {k for upload in status["uploads"] for k in upload["scores_text"]}
    shown = [m["key"] for m in status["metrics"] if m["key"] in present]
    marked = [m["key"] for m in status["metrics"] if m["headline"] and m["key"] in present]
    headline = marked or shown[:HEADLINE_SCORES]
    rows = [
        [
            upload_label(u),
            u["id"],
            u["status"] + (tr(" (final)") if u["final"] else ""),
            " ".join(part for part in (u["type"], u["about"]) if part),
            u["created_at"][:16],
            *[u["scores_text"].get(m, "") for m in headline],
            u["note"] or (u["message"][:60] if u["status"] == FAILED else ""),
        ]
        for u in status["uploads"]
    ]
    print()
    print(tr("Your uploads"))
    if rows:
        headers = ["#", "id", tr("status"), tr("type"), tr("uploaded"), *headline, tr("note")]
        print(table(headers, rows))
    else:
        print(tr("No upload yet."))
    return 0


def cmd_download(args) -> int:
    """What the team may download now, as the round's Data tab offers it (the table to work
    on, the configuration, the team's own files), under the names the server gives."""
    api = connect()
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


def cmd_leaderboard(args) -> int:
    api = connect()
    board = api.get(round_path(args.round, "standings/"))
    if board["note"]:
        print(board["note"])
    several = len(board["tables"]) > 1
    for number, board_table in enumerate(board["tables"]):
        if several:  # one table needs no title (the round's leaderboard)
            if number or board["note"]:
                print()
            print(board_table["title"])
        rows = [["–" if cell is None else cell for cell in row] for row in board_table["rows"]]
        if rows:
            print(table(board_table["columns"], rows))
        else:
            print(tr("{title}: empty").format(title=board_table["title"]))
    return 0


def cmd_targets(args) -> int:
    api = connect()
    targets = api.get(round_path(args.round, "targets/"))
    rows = [[t["team"]["slug"], t["team"]["name"], t["rows"], t["version"]] for t in targets]
    if rows:
        print(table([tr("target"), tr("team"), tr("rows"), tr("version")], rows))
    else:
        print(tr("No target yet."))
    if args.download:
        folder = Path(args.download)
        folder.mkdir(parents=True, exist_ok=True)
        for target in targets:
            slug = target["team"]["slug"]
            path = api.download(target["anonymized_url"], folder / f"{slug}_anonymized.csv")
            print(tr("saved {path}").format(path=path), file=sys.stderr)
            if target["candidate_url"]:
                path = api.download(target["candidate_url"], folder / f"{slug}_candidate.csv")
                print(tr("saved {path}").format(path=path), file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pwscup",
        description=tr("Command-line client of the PWSCup platform (REST API, personal token)."),
        epilog=tr("Credentials are kept in {path} (readable by you only).").format(
            path=config_dir()
        ),
    )
    commands = parser.add_subparsers(dest="command", required=True)

    login = commands.add_parser("login", help=tr("store the server's URL and your API token"))
    login.add_argument("url", help=tr("the platform's address, e.g. https://pwscup.example.org"))
    login.add_argument(
        "--token-stdin", action="store_true", help=tr("read the token from standard input")
    )
    login.set_defaults(run=cmd_login)

    def round_argument(command):
        command.add_argument("round", type=split_round, help=tr("COMPETITION/ROUND (slugs)"))

    def wait_arguments(command):
        command.add_argument("--note", default="", help=tr("a note for your team (200 characters)"))
        command.add_argument("--wait", action="store_true", help=tr("wait until it is scored"))
        command.add_argument(
            "--timeout", type=float, default=1800, help=tr("seconds to wait (default 1800)")
        )
        command.add_argument("--quiet", action="store_true", help=tr("no progress lines"))

    submit = commands.add_parser(
        "submit", help=tr("upload a file to the round (the kind of upload the round takes)")
    )
    round_argument(submit)
    submit.add_argument("file", type=Path, help=tr("the file to upload (CSV)"))
    submit.add_argument(
        "--type",
        help=tr("which upload, when the round takes several (see `pwscup status ROUND`)"),
    )
    submit.add_argument(
        "--field",
        type=split_field,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=tr("a field of the upload, e.g. --field step=2 (repeatable)"),
    )
    wait_arguments(submit)
    submit.set_defaults(run=cmd_submit)

    status = commands.add_parser(
        "status", help=tr("your rounds, or a round's schedule and your uploads")
    )
    status.add_argument("round", type=split_round, nargs="?", help=tr("COMPETITION/ROUND (slugs)"))
    status.set_defaults(run=cmd_status)

    for name, aliases in (("download", ["data"]),):
        download = commands.add_parser(
            name,
            aliases=aliases,
            help=tr("download what your team may download now (data, configuration)"),
        )
        round_argument(download)
        download.add_argument(
            "-o", "--output", default=".", metavar="DIR", help=tr("folder (default .)")
        )
        download.set_defaults(run=cmd_download)

    leaderboard = commands.add_parser("leaderboard", help=tr("the round's leaderboard"))
    round_argument(leaderboard)
    leaderboard.set_defaults(run=cmd_leaderboard)

    targets = commands.add_parser("targets", help=tr("list (and download) the published targets"))
    round_argument(targets)
    targets.add_argument("--download", metavar="DIR", help=tr("save the files into DIR"))
    targets.set_defaults(run=cmd_targets)

    attack = commands.add_parser(
        "attack", help=tr("upload a correspondence table against a target")
    )
    round_argument(attack)
    attack.add_argument("target", help=tr("the target team's slug (see `pwscup targets`)"))
    attack.add_argument("file", type=Path, help=tr("the correspondence table (CSV)"))
    wait_arguments(attack)
    attack.set_defaults(run=cmd_attack)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except UsageError as error:
        print(tr("error: {error}").format(error=error), file=sys.stderr)
        return 2
    except WaitTimeout as error:
        print(tr("error: {error}").format(error=error), file=sys.stderr)
        return 3
    except ApiError as error:
        print(tr("error: {error}").format(error=f"{error.message} [{error.code}]"), file=sys.stderr)
        return 1
    except OSError as error:
        print(tr("error: {error}").format(error=error), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
