"""``pwscup``: log in once, then submit, wait for the scores, read the leaderboard, download
the data, from a terminal or a script, in a round of any kind.

The client asks the API what the round is (``…/rounds/{r}/status/``: what the team may upload
and to which address, with which fields; what it may download now; its uploads) and shows
its leaderboard as the API gives it (``…/standings/``): it knows no kind. ``attack ROUND [TARGET] FILE``
is ``submit --type attack --field target=TARGET`` in a round of any kind that declares such an
upload (no TARGET where one attack covers every target: its status declares no ``target``); only ``targets`` reads a first-game endpoint (a round without it says so).

Messages in the user's language (``messages.py``: ``$PWSCUP_LANG``, else the locale).

Exit status: 0 done (a job FINISHED); 2 the job FAILED (its message on stderr) or a usage
error; 1 the server refused the request (its message on stderr) or could not be reached;
3 ``--wait`` gave up after ``--timeout`` seconds (the job goes on: ``pwscup status``); 130
stopped by Ctrl-C (one line, no traceback); 141 the output's reader stopped reading (no line).

This module reads the command line and runs a command; the commands are in ``uploads.py``
(``submit``, ``attack``, ``select``) and ``reading.py`` (``status``, ``download``, ``leaderboard``,
``targets``), what they share in ``session.py``.
"""

import argparse
import errno
import getpass
import os
import sys
import urllib.parse
from pathlib import Path

from pwscup.client.choosing import cmd_choose
from pwscup.client.config import config_dir, save_credentials
from pwscup.client.messages import tr
from pwscup.client.parser import Parser, seconds
from pwscup.client.reading import cmd_download, cmd_leaderboard, cmd_status
from pwscup.client.session import UsageError, WaitTimeout, connect
from pwscup.client.targets import cmd_targets
from pwscup.client.transport import Api, ApiError
from pwscup.client.uploads import cmd_attack, cmd_select, cmd_submit, upload_number
from pwscup.client.withdrawing import cmd_withdraw


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


def site_address(value: str) -> str:
    """The platform's address as ``login`` takes it: ``http(s)://host[:port][/path]``."""
    parts = urllib.parse.urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(
            tr(
                "{value!r}: give the site's address with http:// or https://, e.g. {example}"
            ).format(value=value, example="https://pwscup.example.org")
        )
    return value.strip().rstrip("/")


def whoami(url: str, token: str) -> dict:
    """The token's user (``GET api/v1/me/``); an address that answers no API there (an HTML
    "not found": a round page's address, a mistyped path) is said so, not as a bare 404."""
    try:
        return Api(url, token).get("api/v1/me/")
    except ApiError as error:
        if error.status == 404 and error.code == "http_error":
            message = tr("{url}: no PWSCup API at this address; give the site's address")
            raise ApiError(404, "no_api", message.format(url=url)) from None
        raise


def cmd_login(args) -> int:
    url = site_address(args.url)
    if args.token_stdin:
        token = sys.stdin.readline().strip()
    else:
        profile = f"{url}/accounts/profile/"
        print(tr("Create a token on your profile page: {url}").format(url=profile), file=sys.stderr)
        token = getpass.getpass(tr("API token: ")).strip()
    if not token:
        raise UsageError(tr("no token given"))
    me = whoami(url, token)
    path = save_credentials(url=url, token=token)
    print(
        tr("Logged in to {url} as {user} (token kept in {path}).").format(
            url=url, user=me["username"], path=path
        )
    )
    return 0


def _round_argument(command) -> None:
    command.add_argument("round", type=split_round, help=tr("COMPETITION/ROUND (slugs)"))


def _wait_arguments(command) -> None:
    command.add_argument("--note", default="", help=tr("a note for your team (200 characters)"))
    command.add_argument("--wait", action="store_true", help=tr("wait until it is scored"))
    command.add_argument(
        "--timeout", type=seconds, default=1800, help=tr("seconds to wait (default 1800)")
    )
    command.add_argument("--quiet", action="store_true", help=tr("no progress lines"))


def _reading_commands(commands) -> None:
    """``status``, ``download``, ``leaderboard`` and ``targets``: the commands that read."""
    status = commands.add_parser(
        "status", help=tr("your rounds, or a round's schedule and your uploads")
    )
    status.add_argument("round", type=split_round, nargs="?", help=tr("COMPETITION/ROUND (slugs)"))
    status.set_defaults(run=cmd_status)

    download = commands.add_parser(
        "download",
        aliases=["data"],
        help=tr("download what your team may download now (data, configuration)"),
    )
    _round_argument(download)
    download.add_argument(
        "-o", "--output", default=".", metavar="DIR", help=tr("folder (default .)")
    )
    download.set_defaults(run=cmd_download)

    leaderboard = commands.add_parser("leaderboard", help=tr("the round's leaderboard"))
    _round_argument(leaderboard)
    leaderboard.set_defaults(run=cmd_leaderboard)

    targets = commands.add_parser("targets", help=tr("list (and download) the published targets"))
    _round_argument(targets)
    targets.add_argument("--download", metavar="DIR", help=tr("save the files into DIR"))
    targets.set_defaults(run=cmd_targets)


def _choice_commands(commands) -> None:
    """The commands that change what counts of a team's: its data pack, its final upload, a
    withdrawal."""
    choose = commands.add_parser(
        "choose", help=tr("pick your team's data pack in a round that offers several")
    )
    _round_argument(choose)
    choose.add_argument("key", help=tr("the pack's key (see `pwscup status ROUND`)"))
    choose.set_defaults(run=cmd_choose)

    select = commands.add_parser("select", help=tr("make one of your team's uploads its final one"))
    _round_argument(select)
    select.add_argument(
        "number", type=upload_number, help=tr("the upload's number (#n in `pwscup status ROUND`)")
    )
    select.add_argument("--type", help=tr("which upload type, when the round takes several"))
    select.set_defaults(run=cmd_select)

    withdraw = commands.add_parser(
        "withdraw", help=tr("withdraw one of your team's uploads, where the round allows it")
    )
    _round_argument(withdraw)
    withdraw.add_argument(
        "number", type=upload_number, help=tr("the upload's number (#n in `pwscup status ROUND`)")
    )
    withdraw.add_argument("--type", help=tr("which upload type, when the round takes several"))
    withdraw.add_argument("--reason", default="", help=tr("why (optional; the organizers read it)"))
    withdraw.set_defaults(run=cmd_withdraw)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="pwscup",
        description=tr("Command-line client of the PWSCup platform (REST API, personal token)."),
        epilog=tr("Credentials are kept in {path} (readable by you only).").format(
            path=config_dir()
        ),
    )
    # A name, not the list of commands, in the usage line: the list (84 columns) would run
    # past an 80-column terminal; the commands are listed under it with their help.
    commands = parser.add_subparsers(required=True, metavar=tr("COMMAND"))

    login = commands.add_parser("login", help=tr("store the server's URL and your API token"))
    login.add_argument("url", help=tr("the platform's address, e.g. https://pwscup.example.org"))
    login.add_argument(
        "--token-stdin", action="store_true", help=tr("read the token from standard input")
    )
    login.set_defaults(run=cmd_login)

    submit = commands.add_parser(
        "submit", help=tr("upload a file to the round (the kind of upload the round takes)")
    )
    _round_argument(submit)
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
    _wait_arguments(submit)
    submit.set_defaults(run=cmd_submit)

    _reading_commands(commands)

    attack = commands.add_parser(
        "attack", help=tr("upload an attack on a target team (the round's attack file)")
    )
    _round_argument(attack)
    attack.add_argument(
        "target",
        nargs="?",
        help=tr(
            "the target team's slug (see `pwscup status ROUND`); none in a round whose "
            "attack covers every target"
        ),
    )
    attack.add_argument(
        "file", type=Path, help=tr("the attack file (CSV), as the round asks for it")
    )
    _wait_arguments(attack)
    attack.set_defaults(field=[], run=cmd_attack)

    _choice_commands(commands)
    return parser


# The shell's status of a command stopped by a closed pipe (128 + SIGPIPE): the output was cut
# short by its reader, which is neither the server's refusal (1) nor a usage error (2).
CLOSED_PIPE = 141


def _output_gone() -> None:
    """Nothing more to say once the output's reader has gone (the server's connection errors
    are the transport's, never this): standard output goes to the null device, so that the
    interpreter's last flush at exit does not fail again with a traceback."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (a test's stream): nothing to flush
        pass


def os_error_text(error: OSError) -> str:
    """A file or folder the command could not write or read: its name and why, in the
    client's language for the usual reasons (the system's own words for another)."""
    reasons = {
        errno.EACCES: tr("permission denied"),
        errno.EEXIST: tr("a file of that name is in the way"),
        errno.ENOENT: tr("no such file or folder"),
        errno.ENOTDIR: tr("not a folder"),
        errno.ENOSPC: tr("no space left on the disk"),
        errno.EROFS: tr("the disk is read-only"),
    }
    reason = reasons.get(error.errno) or error.strerror or str(error)
    return f"{error.filename}: {reason}" if error.filename else reason


def field_words(name: str) -> str:
    """An upload's field as the user gave it, in the client's language: the file, the note,
    the attacked team, or ``--field NAME``."""
    words = {"file": tr("the file"), "note": tr("the note (--note)"), "target": tr("the target")}
    return words.get(name) or tr("--field {name}").format(name=name)


def api_error_lines(error: ApiError) -> list[str]:
    """What the client prints of a refusal: an invalid request's messages, each after the
    field it is about in the user's words (the API's field name and ``invalid`` code are the
    program's, not the user's); any other refusal, its message and code."""
    if not error.fields:
        return [f"{error.message} [{error.code}]"]
    return [
        message if name == "non_field_errors" else f"{field_words(name)}: {message}"
        for name, messages in error.fields.items()
        for message in messages
    ]


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.run is cmd_login:  # the one command that needs no stored credentials
            return cmd_login(args)
        return args.run(connect(), args)
    except UsageError as error:
        print(tr("error: {error}").format(error=error), file=sys.stderr)
        return 2
    except WaitTimeout as error:
        print(tr("error: {error}").format(error=error), file=sys.stderr)
        return 3
    except ApiError as error:
        for line in api_error_lines(error):
            print(tr("error: {error}").format(error=line), file=sys.stderr)
        if error.code == "authentication_failed":
            print(
                tr("Make a new token on your profile page and run `pwscup login URL` again."),
                file=sys.stderr,
            )
        return 1
    except BrokenPipeError:  # the reader of the output stopped (`pwscup status | head -1`)
        _output_gone()
        return CLOSED_PIPE
    except OSError as error:
        print(tr("error: {error}").format(error=os_error_text(error)), file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: a line, not a traceback (a job goes on)
        print("\n" + tr("interrupted"), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
