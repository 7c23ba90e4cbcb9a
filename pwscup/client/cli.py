"""``pwscup``: log in once, then submit, wait for the scores, read the leaderboard, fetch
the targets and attack them, from a terminal or a script.

Exit status: 0 done (a job FINISHED); 2 the job FAILED (its message on stderr) or a usage
error; 1 the server refused the request (its message on stderr) or could not be reached;
3 ``--wait`` gave up after ``--timeout`` seconds (the job goes on: ``pwscup status``).
"""

import argparse
import getpass
import json
import sys
import time
from pathlib import Path

from pwscup.client.config import config_dir, load_credentials, save_credentials
from pwscup.client.formatting import score_table, table, upload_label
from pwscup.client.transport import Api, ApiError

FINISHED, FAILED = "finished", "failed"
# Polling while a job runs: quick at first (small uploads score in well under a second),
# then every few seconds.
POLL_START, POLL_MAX = 0.5, 5.0


class UsageError(Exception):
    pass


class WaitTimeout(Exception):
    pass


def split_round(value: str) -> tuple[str, str]:
    competition, _, round_slug = value.strip("/").partition("/")
    if not competition or not round_slug or "/" in round_slug:
        raise argparse.ArgumentTypeError(
            f"{value!r}: give the round as COMPETITION/ROUND (its slugs, as in its page's URL)"
        )
    return competition, round_slug


def round_path(round_ref: tuple[str, str], suffix: str = "") -> str:
    competition, round_slug = round_ref
    return f"api/v1/competitions/{competition}/rounds/{round_slug}/{suffix}"


def connect() -> Api:
    credentials = load_credentials()
    if not credentials:
        raise UsageError("not logged in: run `pwscup login URL` first")
    return Api(credentials["url"], credentials["token"])


def cmd_login(args) -> int:
    url = args.url.rstrip("/")
    if args.token_stdin:
        token = sys.stdin.readline().strip()
    else:
        print(f"Create a token on your profile page: {url}/accounts/profile/", file=sys.stderr)
        token = getpass.getpass("API token: ").strip()
    if not token:
        raise UsageError("no token given")
    me = Api(url, token).get("api/v1/me/")
    path = save_credentials(url=url, token=token)
    print(f"Logged in to {url} as {me['username']} (token kept in {path}).")
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
                f"still {upload['status']} after {timeout:.0f} s; see `pwscup status`"
            )
        time.sleep(delay)
        delay = min(POLL_MAX, delay * 1.5)


def _failed(upload: dict) -> int:
    print(f"failed: {upload['message']}", file=sys.stderr)
    return 2


def cmd_submit(args) -> int:
    api = connect()
    accepted = api.post_multipart(
        round_path(args.round, "submissions/"),
        fields={"note": args.note},
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
    round_ = api.get(round_path(args.round))
    print(
        score_table(
            upload["scores"],
            upload["scores_text"],
            metrics=round_["metrics"],
            names=round_["metric_names"],
            notes=round_["metric_notes"],
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
    if upload["rate"] is None:
        print("re-identification rate hidden until the organizer's rule shows it")
    else:
        print(
            f"re-identification rate {upload['rate_text']} "
            f"({upload['correct']} of {upload['rows']} rows)"
        )
    return 0


def cmd_status(args) -> int:
    api = connect()
    if args.round is None:
        me = api.get("api/v1/me/")
        print(f"{me['username']} on {api.base}")
        rows = []
        for membership in me["teams"]:
            competition = api.get(f"api/v1/competitions/{membership['competition']}/")
            for round_ in competition["rounds"]:
                rows.append([f"{competition['slug']}/{round_['slug']}", membership["team"]["name"]])
        print(table(["round", "team"], rows) if rows else "You are in no team yet.")
        return 0
    round_ = api.get(round_path(args.round))
    phases = [
        [
            p["kind"],
            p["state"],
            p["closes_at"],
            "" if p["quota"] is None else f"{p['quota']['used_today']} today",
            "" if p["daily_limit"] is None else p["daily_limit"],
        ]
        for p in round_["phases"]
    ]
    print(f"{round_['name']} ({round_['competition']}/{round_['slug']})")
    print(table(["phase", "state", "closes at", "used", "per day"], phases))
    submissions = api.get(round_path(args.round, "submissions/"))
    headline = [m for m in round_["metrics"] if m in ("U1", "U4", "E3", "S1")]
    rows = [
        [
            upload_label(s),
            s["id"],
            s["status"] + (" (final)" if s["is_selected"] else ""),
            s["created_at"][:16],
            *[(s["scores_text"] or {}).get(m, "") for m in headline],
            s["note"] or (s["message"][:60] if s["status"] == FAILED else ""),
        ]
        for s in submissions
    ]
    print()
    print(table(["#", "id", "status", "uploaded", *headline, "note"], rows))
    return 0


def cmd_data(args) -> int:
    """The table to anonymize (the team's sample in the per-team mode) and the scoring
    configuration, as the round page's downloads."""
    api = connect()
    folder = Path(args.output)
    folder.mkdir(parents=True, exist_ok=True)
    round_ = api.get(round_path(args.round))
    original = api.download_into(round_path(args.round, "original.csv"), folder)
    print(original)
    if round_["config"] is not None:
        config = folder / f"{round_['slug']}_config.json"
        config.write_text(json.dumps(round_["config"], indent=2), encoding="utf-8")
        print(config)
    return 0


def cmd_leaderboard(args) -> int:
    api = connect()
    board = api.get(round_path(args.round, "leaderboard/"))
    print(board["rule"])
    rows = [
        [
            "-" if r["rank"] is None else r["rank"],
            r["team"]["name"],
            r["safety_text"],
            *[r["scores_text"].get(m, "–") for m in board["metrics"]],
        ]
        for r in board["rows"]
    ]
    print(table(["rank", "team", board["safety_measure"], *board["metrics"]], rows))
    return 0


def cmd_targets(args) -> int:
    api = connect()
    targets = api.get(round_path(args.round, "targets/"))
    rows = [[t["team"]["slug"], t["team"]["name"], t["rows"], t["version"]] for t in targets]
    print(table(["target", "team", "rows", "version"], rows) if rows else "No target yet.")
    if args.download:
        folder = Path(args.download)
        folder.mkdir(parents=True, exist_ok=True)
        for target in targets:
            slug = target["team"]["slug"]
            path = api.download(target["anonymized_url"], folder / f"{slug}_anonymized.csv")
            print(f"saved {path}", file=sys.stderr)
            if target["candidate_url"]:
                path = api.download(target["candidate_url"], folder / f"{slug}_candidate.csv")
                print(f"saved {path}", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pwscup",
        description="Command-line client of the PWSCup platform (REST API, personal token).",
        epilog=f"Credentials are kept in {config_dir()} (readable by you only).",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    login = commands.add_parser("login", help="store the server's URL and your API token")
    login.add_argument("url", help="the platform's address, e.g. https://pwscup.example.org")
    login.add_argument(
        "--token-stdin", action="store_true", help="read the token from standard input"
    )
    login.set_defaults(run=cmd_login)

    def round_argument(command):
        command.add_argument("round", type=split_round, help="COMPETITION/ROUND (slugs)")

    def wait_arguments(command):
        command.add_argument("--note", default="", help="a note for your team (200 characters)")
        command.add_argument("--wait", action="store_true", help="wait until it is scored")
        command.add_argument(
            "--timeout", type=float, default=1800, help="seconds to wait (default 1800)"
        )
        command.add_argument("--quiet", action="store_true", help="no progress lines")

    submit = commands.add_parser("submit", help="upload an anonymized CSV")
    round_argument(submit)
    submit.add_argument("file", type=Path, help="the anonymized CSV")
    wait_arguments(submit)
    submit.set_defaults(run=cmd_submit)

    status = commands.add_parser("status", help="your rounds, or a round's phases and uploads")
    status.add_argument("round", type=split_round, nargs="?", help="COMPETITION/ROUND")
    status.set_defaults(run=cmd_status)

    data = commands.add_parser(
        "data", help="download the table to anonymize and the scoring configuration"
    )
    round_argument(data)
    data.add_argument("-o", "--output", default=".", metavar="DIR", help="folder (default .)")
    data.set_defaults(run=cmd_data)

    leaderboard = commands.add_parser("leaderboard", help="the round's leaderboard")
    round_argument(leaderboard)
    leaderboard.set_defaults(run=cmd_leaderboard)

    targets = commands.add_parser("targets", help="list (and download) the published targets")
    round_argument(targets)
    targets.add_argument("--download", metavar="DIR", help="save the files into DIR")
    targets.set_defaults(run=cmd_targets)

    attack = commands.add_parser("attack", help="upload a correspondence table against a target")
    round_argument(attack)
    attack.add_argument("target", help="the target team's slug (see `pwscup targets`)")
    attack.add_argument("file", type=Path, help="the correspondence table (CSV)")
    wait_arguments(attack)
    attack.set_defaults(run=cmd_attack)
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except WaitTimeout as error:
        print(f"error: {error}", file=sys.stderr)
        return 3
    except ApiError as error:
        print(f"error: {error.message} [{error.code}]", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
