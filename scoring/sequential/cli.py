"""``python -m scoring seq …``: the sequential round on the command line.

seq check MASTER RELEASE_1 … RELEASE_n --config CFG [--format table|json] [--per-person FILE]
    What the server computes on a team's sequence (spec §4–§9): validation (exit 2 with
    the spec's message), MU(j), MINV with every signature change, IL, counterfeit /
    suppressed / tampered counts, RN/RA max and mean, RN_over, MAP_N, MAP_A; with
    ``--per-person FILE`` the per-person risk table (``risk_per_person.csv``). MASTER is
    the round page's ``master.csv`` (whole, or so far in online mode) and CFG its
    ``config.json``: the numbers are the server's for releases 1 … n.
seq baseline T_J.csv --config CFG --release J [--previous RELEASE_{J-1}.csv] -o OUT.csv
    The starter kit's baseline publisher (spec §16): ``T(j)`` (the step's download, or
    the master: rows outside ``[lsf, lsb]`` are dropped) and the team's own previous
    release in, an m-invariant ``release_<j>.csv`` out.
"""

from __future__ import annotations

import json
import os

from scoring.cli_usage import integer_option
from scoring.errors import ValidationError
from scoring.messages import render
from scoring.sequential.config import parse_config
from scoring.sequential.evaluate import evaluate_sequence, risk_per_person_csv
from scoring.sequential.master import Master, read_master
from scoring.sequential.release import Release, read_releases


def read_sequence(master_source, release_sources, config) -> tuple[Master, list[Release]]:
    """Read and validate a master and its releases ``1..n`` in order, exactly as the server
    checks an upload of release ``n`` (:func:`read_releases`).

    The master may be the whole master or a team's ``master.csv`` so far (online mode:
    persons up to the open release, lifespans cut there): only ``T(1..n)`` are checked, and
    the master returned is the one known at ``n`` (:meth:`Master.known_at`), which both
    files give alike. A release given as a path is named by its file name in the messages.
    """
    if not hasattr(config, "qi"):
        config = parse_config(config)
    master = read_master(master_source, config, upto=len(release_sources))
    names = [
        os.path.basename(source) if isinstance(source, str | os.PathLike) else None
        for source in release_sources
    ]
    return read_releases(release_sources, master=master, names=names)


def _load_config(path):
    with open(path, "rb") as handle:  # bytes: the JSON reader refuses a file not in UTF-8
        return parse_config(handle.read())


def cmd_seq_check(args) -> int:
    config = _load_config(args.config)
    if len(args.releases) > config.n_releases:
        raise ValidationError(
            "seq.cli.too_many_releases", given=len(args.releases), n=config.n_releases
        )
    master, releases = read_sequence(args.master, args.releases, config)
    result = evaluate_sequence(master, releases)
    if args.per_person:
        with open(args.per_person, "w", encoding="utf-8", newline="") as handle:
            handle.write(risk_per_person_csv(result))
    s = result.summary
    if args.format == "json":
        print(json.dumps(s, indent=2, ensure_ascii=False))
        return 0
    print(render("seq.cli.ok", {"releases": len(releases), "m": config.m}, args.lang))
    print(f"{'release':>7} {'rows':>6} {'groups':>6} {'counterfeits':>12} {'MU':>4} {'IL':>8}")
    for release, mu, il in zip(releases, s["MU"], s["IL_per_release"], strict=True):
        print(
            f"{release.index:>7} {len(release.rows):>6} {len(release.groups):>6} "
            f"{release.counterfeits:>12} {mu:>4} {il:>8.6f}"
        )
    verdict = "yes" if s["m_invariant"] else "no"
    print(f"\nMINV {s['MINV']} ({config.m}-invariant: {verdict}); MU_min {s['MU_min']}")
    for text in s["violations"]:
        print(f"  {text}")
    print(
        f"IL {s['IL']:.6f}  CF {s['CF']} (CF_ratio {s['CF_ratio']:.6f})  "
        f"SUP {s['SUP']}  TMP {s['TMP']}"
    )
    print(f"\nrisk over {s['persons']} persons of U({s['n']}):")
    for name in ("RN_max", "RN_mean", "RA_max", "RA_mean", "MAP_N", "MAP_A"):
        print(f"  {name:<8} {s[name]:.6f}")
    print(f"  {'RN_over':<8} {s['RN_over']} (persons with Risk_N > 1/{config.m})")
    return 0


def baseline_of(table, previous, config, *, release: int):
    """The starter kit's baseline ``release_<release>.csv`` (a DataFrame of text cells) from
    ``T(release)`` (the step's download, or the master: rows outside ``[lsf, lsb]`` are
    dropped) and the team's ``release_<release−1>.csv`` (``None`` for release 1), each a
    path or bytes, read as ``seq baseline`` reads them: the server's sample release and the
    command's file are the same. A release outside ``1 … n_releases`` is refused first."""
    from scoring.kit.sequential import baseline_release
    from scoring.tables import read_table

    if not 1 <= release <= config.n_releases:
        raise ValidationError("seq.cli.release_range", release=release, n=config.n_releases)
    current = read_table(table, name=f"T({release})")
    if "lsf" in current.columns:
        lsf = current["lsf"].astype(int)
        lsb = current["lsb"].astype(int) if "lsb" in current.columns else lsf * 0 + release
        current = current.loc[(lsf <= release) & (release <= lsb)]
    if previous is not None:
        previous = read_table(previous, name=f"release_{release - 1}.csv")
    elif release > 1:
        raise ValidationError("seq.cli.needs_previous", release=release, previous=release - 1)
    return baseline_release(current, previous, config, release=release)


def cmd_seq_baseline(args) -> int:
    from scoring.tables import write_csv

    config = _load_config(args.config)
    made = baseline_of(args.table, args.previous or None, config, release=args.release)
    write_csv(made, args.output)
    groups = made["gid"].nunique()
    fakes = int((made["pid"] == "").sum())
    wrote = {"output": args.output, "rows": len(made), "groups": groups, "counterfeits": fakes}
    print(render("seq.cli.wrote_baseline", wrote, args.lang))
    return 0


def check_command(last: int) -> str:
    """``seq check`` of releases ``1 … last`` on the files a team downloads (``master.csv``,
    ``config.json``): the command the round page and the kit print.

    >>> check_command(2)
    'python -m scoring seq check master.csv release_1.csv release_2.csv --config config.json'
    """
    releases = " ".join(f"release_{j}.csv" for j in range(1, last + 1))
    return f"python -m scoring seq check master.csv {releases} --config config.json"


def baseline_command(release: int) -> str:
    """``seq baseline`` of release ``release`` from the step's ``T<release>.csv`` and the
    team's previous release: the command the kit prints (spec §16)."""
    previous = f" --previous release_{release - 1}.csv" if release > 1 else ""
    return (
        f"python -m scoring seq baseline T{release}.csv --config config.json "
        f"--release {release}{previous} -o release_{release}.csv"
    )


def add_seq_commands(commands, lang: str = "en") -> None:
    """Add ``seq check`` and ``seq baseline`` to the subcommands of ``python -m scoring``,
    their help in ``lang``."""

    seq = commands.add_parser("seq", help=render("help.seq", lang=lang))
    sub = seq.add_subparsers(required=True)
    check = sub.add_parser("check", help=render("help.seq.check", lang=lang))
    check.add_argument("master", help=render("help.seq.master", lang=lang))
    check.add_argument(
        "releases", nargs="+", metavar="RELEASE", help=render("help.seq.releases", lang=lang)
    )
    check.add_argument("--config", required=True, help=render("help.config", lang=lang))
    check.add_argument("--format", choices=("table", "json"), default="table")
    check.add_argument(
        "--per-person", metavar="FILE", default=None, help=render("help.seq.per_person", lang=lang)
    )
    check.set_defaults(handler=cmd_seq_check)
    baseline = sub.add_parser("baseline", help=render("help.seq.baseline", lang=lang))
    baseline.add_argument("table", help=render("help.seq.table", lang=lang))
    baseline.add_argument("--config", required=True, help=render("help.config", lang=lang))
    baseline.add_argument(
        "--release",
        type=integer_option(lang),
        required=True,
        help=render("help.seq.release", lang=lang),
    )
    baseline.add_argument("--previous", default=None, help=render("help.seq.previous", lang=lang))
    baseline.add_argument(
        "-o", "--output", required=True, help=render("help.seq.output", lang=lang)
    )
    baseline.set_defaults(handler=cmd_seq_baseline)
