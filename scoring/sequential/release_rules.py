"""The rules of a release between its rows and against the master (spec §5): stages 1, 3–6.

Stage 1 checks the header; then, on the parsed cells
(:mod:`scoring.sequential.release_cells`), stage 3 matches each row to its person (rules
4, 5), stage 4 checks the sensitive values (rules 6, 10), stage 5 the groups and their
regions (rules 7, 8, 9) and stage 6 the ``last`` column against ``T*(j−1)`` (rule 11,
§8.1). Each stage lists every offending row it finds (the first ten and the total) in one
error; :func:`scoring.sequential.release.read_release` runs them in this order and stops
at the first that fails.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scoring.errors import ValidationError
from scoring.numbers import number_texts
from scoring.sequential.cells import set_contains
from scoring.sequential.master import Master
from scoring.sequential.messages import issue, q, raise_issues


def check_header(columns: list[str], release: int, master: Master) -> None:
    """Stage 1, rule 1: the round's header (``tampered`` optional where allowed, ``last``
    only where disclosed and from release 2)."""
    config = master.config
    if "tampered" in columns and not config.allow_tampering:
        raise ValidationError("seq.release.column_disabled", release=release, column=q("tampered"))
    if "last" in columns:
        if not config.last_disclosure:
            raise ValidationError("seq.release.column_disabled", release=release, column=q("last"))
        if release == 1:
            raise ValidationError("seq.release.last_first", release=release)
    expected = config.release_columns(release)
    if "tampered" in expected and "tampered" not in columns:
        expected_optional = [c for c in expected if c != "tampered"]
        if columns == expected_optional:  # the column is optional: no row tampered
            return
    if columns != expected:
        raise ValidationError(
            "seq.release.header",
            release=release,
            expected=",".join(expected),
            got=",".join(columns),
        )


def match_persons(pid: pd.Series, real: np.ndarray, master: Master, ctx: dict) -> np.ndarray:
    """Stage 3, rule 4: the master row of each row's pid (-1 for a counterfeit).

    A pid must be in the master, alive at this release, and on one row only.
    """
    person = master.pids.get_indexer(pid)
    person[~real] = -1
    unknown = real & (person < 0)
    alive = master.alive(ctx["release"])
    not_alive = real & (person >= 0) & ~alive[np.maximum(person, 0)]
    twice = real & pid.duplicated().to_numpy()
    first_row = pd.Series(np.arange(1, len(pid) + 1), index=pid).groupby(level=0).first()
    problems = []
    for k in np.flatnonzero(unknown | not_alive | twice)[:10]:
        params = {**ctx, "row": k + 1, "pid": q(pid.iloc[k])}
        if unknown[k]:
            problems.append(issue("seq.row.pid_unknown", **params))
        elif not_alive[k]:
            p = person[k]
            lifespan = {"lsf": int(master.lsf[p]), "lsb": int(master.lsb[p])}
            problems.append(issue("seq.row.pid_not_alive", **params, **lifespan))
        else:
            problems.append(issue("seq.row.pid_twice", **params, first=int(first_row[pid.iloc[k]])))
    raise_issues(problems, int((unknown | not_alive | twice).sum()))
    return person


def check_no_person_missing(
    person: np.ndarray, real: np.ndarray, master: Master, ctx: dict
) -> None:
    """Stage 3, rule 5 (without suppression): every person alive at this release is published."""
    published = np.zeros(len(master.frame), dtype=bool)
    published[person[real]] = True
    missing = np.flatnonzero(master.alive(ctx["release"]) & ~published)
    if missing.size:
        raise ValidationError(
            "seq.release.missing",
            **ctx,
            pids=repr([str(p) for p in master.pids[missing[:10]]]),
            total=int(missing.size),
        )


def check_sensitive_values(
    frame: pd.DataFrame, rows: pd.DataFrame, real: np.ndarray, master: Master, ctx: dict
) -> None:
    """Stage 4 (rules 6, 10): a person's true sensitive value; a counterfeit's from the
    domain, and never tampered."""
    config = master.config
    sa = frame[config.sa]
    pid = frame["pid"]
    truth = np.where(real, master.sa_values[np.maximum(rows["person"].to_numpy(), 0)], "")
    wrong = real & (sa.to_numpy(dtype=object) != truth)
    fake = ~real
    cf_domain = fake & ~sa.isin(master.sa_domain).to_numpy()
    cf_tampered = fake & rows["tampered"].to_numpy()
    problems = []
    for k in np.flatnonzero(wrong | cf_domain | cf_tampered)[:10]:
        params = {**ctx, "row": k + 1}
        if wrong[k]:
            problems.append(
                issue(
                    "seq.row.sa",
                    **params,
                    pid=q(pid.iloc[k]),
                    column=config.sa,
                    truth=q(truth[k]),
                    value=q(sa.iloc[k]),
                )
            )
        elif cf_domain[k]:
            problems.append(
                issue("seq.row.cf_sa", **params, column=q(config.sa), value=q(sa.iloc[k]))
            )
        else:
            problems.append(issue("seq.row.cf_tampered", **params))
    raise_issues(problems, int((wrong | cf_domain | cf_tampered).sum()))


def check_groups(
    frame: pd.DataFrame,
    rows: pd.DataFrame,
    first: pd.DataFrame,
    real: np.ndarray,
    master: Master,
    ctx: dict,
) -> None:
    """Stage 5, rules 8 and 9: the rows of a group share one region, and one of them is real.

    ``first`` holds, on each row, the row number, regions and ``last`` of its group's first row.
    """
    problems = []
    total = 0
    for column, kind in master.config.qi.items():
        names = [f"{column}.lo", f"{column}.hi"] if kind == "num" else [f"{column}.set"]
        differs = (rows[names].to_numpy() != first[names].to_numpy()).any(axis=1)
        total += int(differs.sum())
        for k in np.flatnonzero(differs)[:10]:
            problems.append(
                issue(
                    "seq.row.region",
                    **ctx,
                    row=k + 1,
                    gid=int(rows["gid"].iloc[k]),
                    column=q(column),
                    value=q(frame[column].iloc[k]),
                    first=q(frame[column].iloc[int(first["row"].iloc[k]) - 1]),
                    first_row=int(first["row"].iloc[k]),
                )
            )
    real_per_group = rows.assign(real=real).groupby("gid")["real"].transform("any").to_numpy()
    only_fake = ~real_per_group & (rows["row"] == first["row"]).to_numpy()
    total += int(only_fake.sum())
    for k in np.flatnonzero(only_fake)[:10]:
        problems.append(issue("seq.row.no_real", **ctx, row=k + 1, gid=int(rows["gid"].iloc[k])))
    raise_issues(problems, total)


def check_regions_hold_their_rows(
    frame: pd.DataFrame, rows: pd.DataFrame, real: np.ndarray, master: Master, ctx: dict
) -> None:
    """Stage 5, rule 7: a real, untampered row's true QI values lie in its group's region.

    A row outside in several QIs is named once, by the first of them.
    """
    tampered = rows["tampered"].to_numpy()
    pid = frame["pid"]
    outside = np.zeros(len(rows), dtype=bool)
    where = {}
    truth_qi = master.frame.iloc[np.maximum(rows["person"].to_numpy(), 0)]
    for column, kind in master.config.qi.items():
        value = truth_qi[column].to_numpy()
        if kind == "num":
            inside = (rows[f"{column}.lo"].to_numpy() <= value) & (
                value <= rows[f"{column}.hi"].to_numpy()
            )
        else:
            inside = set_contains(rows[f"{column}.set"], pd.Series(value, index=rows.index))
        out = real & ~tampered & ~inside
        for k in np.flatnonzero(out & ~outside):
            where[k] = (column, value[k])
        outside |= out
    problems = []
    for k in np.flatnonzero(outside)[:10]:
        column, value = where[k]
        problems.append(
            issue(
                "seq.row.outside",
                **ctx,
                row=k + 1,
                pid=q(pid.iloc[k]),
                column=column,
                value=q(value) if isinstance(value, str) else number_texts([value])[0],
                gid=int(rows["gid"].iloc[k]),
                region=q(frame[column].iloc[k]),
            )
        )
    raise_issues(problems, int(outside.sum()))


def check_one_last_per_group(
    frame: pd.DataFrame, rows: pd.DataFrame, first: pd.DataFrame, ctx: dict
) -> None:
    """Stage 6, rule 11 (§8.1): the rows of a group carry one ``last``."""
    mixed = rows["last"].to_numpy() != first["last"].to_numpy()
    problems = []
    for k in np.flatnonzero(mixed)[:10]:
        first_k = int(first["row"].iloc[k]) - 1
        problems.append(
            issue(
                "seq.row.last_mixed",
                **ctx,
                row=k + 1,
                gid=int(rows["gid"].iloc[k]),
                value=q(frame["last"].iloc[k]),
                first=q(frame["last"].iloc[first_k]),
                first_row=first_k + 1,
            )
        )
    raise_issues(problems, int(mixed.sum()))


def check_last_truthful(
    rows: pd.DataFrame,
    frame: pd.DataFrame,
    previous_gids: np.ndarray,
    previous_real: pd.DataFrame,
    ctx: dict,
) -> None:
    """Stage 6, rule 11 (§8.1): each ``last`` names a group of ``T*(j−1)``; (a) a real row's
    ``last`` is its person's group there, and (b) a person whose group there is named by a
    ``last`` carries that ``last``.

    ``previous_gids`` are the groups of ``T*(j−1)``, ``previous_real`` its real rows
    (``gid``, ``person``).
    """
    release = ctx["release"]
    problems = []
    known = np.isin(rows["last"].to_numpy(), previous_gids)
    bad = (rows["last"].to_numpy() > 0) & ~known
    for k in np.flatnonzero(bad)[:10]:
        problems.append(
            issue(
                "seq.row.last_value",
                **ctx,
                row=k + 1,
                value=q(frame["last"].iloc[k]),
                previous=release - 1,
            )
        )
    raise_issues(problems, int(bad.sum()))
    before = pd.Series(previous_real["gid"].to_numpy(), index=previous_real["person"].to_numpy())
    person = rows["person"].to_numpy()
    prev_gid = before.reindex(person).fillna(0).to_numpy(dtype=np.int64)
    prev_gid = np.where(person < 0, 0, prev_gid)
    last = rows["last"].to_numpy()
    wrong_a = (last > 0) & (prev_gid > 0) & (prev_gid != last)
    asserted = np.isin(prev_gid, np.unique(last[last > 0]))
    wrong_b = (prev_gid > 0) & asserted & (last != prev_gid) & ~wrong_a
    for k in np.flatnonzero(wrong_a | wrong_b)[:10]:
        params = {
            **ctx,
            "row": k + 1,
            "gid": int(rows["gid"].iloc[k]),
            "pid": q(rows["pid"].iloc[k]),
        }
        params["previous"] = release - 1
        if wrong_a[k]:
            problems.append(
                issue("seq.row.last_a", **params, last=int(last[k]), actual=int(prev_gid[k]))
            )
        else:
            problems.append(issue("seq.row.last_b", **params, last=int(prev_gid[k])))
    raise_issues(problems, int((wrong_a | wrong_b).sum()))
