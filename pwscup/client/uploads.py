"""The commands that upload: ``submit`` (any submission type of the round, its fields from
the round's status) and ``attack`` (the round's attack upload against a target, in a round of
any kind); both can wait for the scores; ``select`` makes an upload the team's final one."""

import argparse
import sys
import time

from pwscup.client.formatting import REFERENCE, score_table, state_text, upload_label
from pwscup.client.messages import tr
from pwscup.client.session import FAILED, FINISHED, UsageError, WaitTimeout, round_path
from pwscup.client.transport import Api, ApiError

# Polling while a job runs: quick at first (small uploads score in well under a second),
# then every few seconds.
POLL_START, POLL_MAX = 0.5, 5.0


def with_id(upload: dict) -> str:
    """``#3 (id 57)``: the team's number of the upload, and the id its URLs use."""
    return f"{upload_label(upload)} (id {upload['id']})"


def _poll(api: Api, url: str, *, deadline: float) -> dict:
    """The upload's state. A poll the site throttles (429 ``throttled``: too many requests a
    minute, nothing wrong with the upload) is sent again after the wait it names, while that
    wait ends before ``deadline``; any other refusal is the caller's."""
    while True:
        try:
            return api.get(url)
        except ApiError as error:
            wait = error.retry_after
            if wait is None or time.monotonic() + wait > deadline:
                raise
            print(
                tr("The site asks to wait: asking again in {seconds} s.").format(seconds=wait),
                file=sys.stderr,
            )
            time.sleep(wait)


def wait_for(api: Api, url: str, *, timeout: float, quiet: bool) -> dict:
    """Poll an upload until it is finished or failed (a throttled poll waits as the site
    asks, ``_poll``); progress on stderr."""
    delay, started, last = POLL_START, time.monotonic(), None
    while True:
        upload = _poll(api, url, deadline=started + timeout)
        if upload["status"] != last and not quiet:
            print(f"{with_id(upload)}: {state_text(upload['status'])}", file=sys.stderr)
            last = upload["status"]
        if upload["status"] in (FINISHED, FAILED):
            return upload
        if time.monotonic() - started > timeout:
            raise WaitTimeout(
                tr("still {status} after {seconds} s; see `pwscup status`").format(
                    status=state_text(upload["status"]), seconds=f"{timeout:.0f}"
                )
            )
        time.sleep(delay)
        delay = min(POLL_MAX, delay * 1.5)


def _failed(upload: dict) -> int:
    print(tr("failed: {message}").format(message=upload["message"]), file=sys.stderr)
    return 2


def choose_type(status: dict, key: str | None) -> dict:
    """The submission type to upload: ``key`` if given; else the round's only one, or its
    first (its main upload: the anonymized table, a release) while that is the only one open,
    or when none is open (the server then says why). Another type is never guessed: a file
    meant for a closed window is not sent as the other upload open now (an attack)."""
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
    main, open_keys = types[0], [t["key"] for t in types if t["open"]]
    if len(types) == 1 or not open_keys or open_keys == [main["key"]]:
        return main
    if not main["open"]:
        raise UsageError(
            tr("{label}: not open now; to upload {keys}, give --type").format(
                label=main["label"], keys=", ".join(open_keys)
            )
        )
    raise UsageError(
        tr("this round takes several uploads; choose one with --type: {keys}").format(keys=keys)
    )


def upload_file(path) -> None:
    """Refuse, as a usage error (exit 2), a file the command cannot send: missing, a folder,
    unreadable. Checked before any request, so nothing reaches the server."""
    try:
        with open(path, "rb") as handle:
            handle.read(1)
    except FileNotFoundError:
        raise UsageError(tr("no such file: {path}").format(path=path)) from None
    except IsADirectoryError:
        raise UsageError(tr("{path} is a folder, not a file").format(path=path)) from None
    except OSError:
        raise UsageError(tr("cannot read the file {path}").format(path=path)) from None


def _undeclared(kind: dict, given: dict, note: str) -> None:
    """Refuse a ``--note`` or ``--field`` the submission type does not take: the server
    ignores a field it does not read, so it would be lost without a word (a DP estimate's
    note, a mistyped ``--field stpe=2`` sent as step 1)."""
    declared = [field["name"] for field in kind["fields"]]
    if note and "note" not in declared:
        raise UsageError(tr("{label} takes no note; leave out --note").format(label=kind["label"]))
    for name in given:
        if name in declared:
            continue
        if not declared:
            raise UsageError(tr("{label} takes no --field").format(label=kind["label"]))
        raise UsageError(
            tr("{label} takes no field {name!r}; its fields: {fields}").format(
                label=kind["label"], name=name, fields=", ".join(declared)
            )
        )


def upload_fields(kind: dict, given: dict, note: str) -> dict:
    """The fields the submission type takes: given ones, the note, a required field with a
    single choice filled in; a required one missing is a usage error naming its choices, a
    note or a field it does not take is one too (:func:`_undeclared`)."""
    _undeclared(kind, given, note)
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
            if not kind.get("open", True):
                # Nothing to choose from while the type is closed (no open release step):
                # say that, not which value to give.
                raise UsageError(tr("{label}: not open now").format(label=kind["label"]))
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
    named = [m["key"] for m in metrics]
    # None dropped for want of a name (the reference attack has its own line: score_table).
    keys = named + [key for key in texts if key not in named and key != REFERENCE]
    print(
        score_table(
            upload.get("scores") or {},
            texts,
            metrics=keys,
            names={m["key"]: m["name"] for m in metrics},
            notes={m["key"]: m["note"] for m in metrics if m["note"]},
        )
    )


def cmd_submit(api: Api, args, *, status: dict | None = None) -> int:
    upload_file(args.file)
    status = status or api.get(round_path(args.round, "status/"))
    kind = choose_type(status, args.type)
    accepted = api.post_multipart(
        kind["url"],
        fields=upload_fields(kind, dict(args.field), args.note),
        file_field="file",
        file_path=args.file,
    )
    if accepted.get("message"):
        print(accepted["message"], file=sys.stderr)

    def show(upload: dict) -> int:
        if "rate" in upload:  # an attack of the first game: its own line (``attack``)
            return _print_rate(upload)
        print_scores(upload, status)
        return 0

    return _after_upload(api, args, accepted, show)


def _after_upload(api: Api, args, accepted: dict, show) -> int:
    """The accepted upload's id, or with ``--wait`` its outcome: ``show(upload)`` once it is
    scored and the platform's remark on it after them (``remarks: fails the gate Information
    loss ≤ 6``, the round's pages' words), then on stderr the message a finished upload may
    carry (a warning the team must see: a release kept and scored that fails a gate); the
    reason when it failed."""
    if not args.wait:
        print(with_id(accepted))
        return 0
    upload = wait_for(api, accepted["url"], timeout=args.timeout, quiet=args.quiet)
    if upload["status"] == FAILED:
        return _failed(upload)
    shown = show(upload)
    if upload.get("remark"):
        print(f"{tr('remarks')}: {upload['remark']}")
    if upload.get("message"):
        sys.stdout.flush()  # after the scores in a terminal, where both streams meet
        print(upload["message"], file=sys.stderr)
    return shown


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


def cmd_attack(api: Api, args) -> int:
    """``submit --type attack --field target=TARGET``: the round's attack upload, in a round of
    any kind that declares one against a target; in a round whose attack covers every target
    (its status declares no ``target`` field) the same without a target, and a target given
    there is refused before anything is sent (the server would refuse it: 400)."""
    upload_file(args.file)
    status = api.get(round_path(args.round, "status/"))
    kind = choose_type(status, "attack")
    names_target = any(field["name"] == "target" for field in kind["fields"])
    if not names_target and args.target is not None:
        raise UsageError(
            tr(
                "this round's attack covers every target at once: give no target "
                "(`pwscup attack ROUND FILE`)"
            )
        )
    if names_target and args.target is None:
        raise UsageError(
            tr(
                "give the target team: `pwscup attack ROUND TARGET FILE` (see `pwscup status ROUND`)"
            )
        )
    args.type = "attack"
    if names_target:
        args.field = [*args.field, ("target", args.target)]
    return cmd_submit(api, args, status=status)


def upload_number(value: str) -> int:
    """An upload's number as the pages write it: ``3`` or ``#3``."""
    text = value.strip().removeprefix("#")
    if not (text.isascii() and text.isdigit() and len(text) <= 9 and int(text) > 0):
        raise argparse.ArgumentTypeError(
            tr("{value!r}: give the upload's number, e.g. 3 or #3").format(value=value)
        )
    return int(text)


def cmd_select(api: Api, args) -> int:
    """Make the team's upload ``#n`` (its number in the round status) its final one, for a
    submission type whose final upload the team chooses (``selectable``)."""
    status = api.get(round_path(args.round, "status/"))
    selectable = [t for t in status["submission_types"] if t["selectable"]]
    if not selectable:
        raise UsageError(tr("In this round your team does not choose its final upload."))
    keys = [t["key"] for t in selectable]
    if args.type is None and len(keys) > 1:
        raise UsageError(
            tr("choose the upload's type with --type: {keys}").format(keys=", ".join(keys))
        )
    key = args.type if args.type is not None else keys[0]
    if key not in keys:
        raise UsageError(
            tr("your team chooses no final upload of {key!r}; it chooses one of: {keys}").format(
                key=key, keys=", ".join(keys)
            )
        )
    found = [u for u in status["uploads"] if u["type"] == key and u["number"] == args.number]
    if not found:
        raise UsageError(
            tr("your team has no upload #{number} of {key!r} (see `pwscup status ROUND`)").format(
                number=args.number, key=key
            )
        )
    upload = api.get(found[0]["url"])
    answer = api.post(upload["select_url"])
    print(answer.get("message") or with_id(answer))
    return 0
