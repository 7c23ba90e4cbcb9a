"""Attack phase of a sequential round (spec §10): published files and guess scoring.

A target sequence is published without ``pid``: groups renumbered ``1..G`` in
ascending order of their regions (ties by the team's gid), ``last`` mapped to the new
ids, rows sorted by new gid then sensitive value with equal keys in a seeded random
order; with it the background ``U(n)`` (``pid, QI…, lsf, lsb``) and the counterfeit
counts. Teams answer ``pid,guess``; accuracy counts the correct guesses over ``U(n)``.

Examples
--------
>>> from scoring.sequential._examples import headline
>>> master, releases = headline()
>>> published = publish_for_attack(master, releases, seed=1)
>>> published.releases[1].values.tolist()
[[1, '[21,22]', '[12000,14000]', 'bronchitis'], [1, '[21,22]', '[12000,14000]', 'dyspepsia'], [2, '[21,23]', '[12000,25000]', 'dyspepsia'], [2, '[21,23]', '[12000,25000]', 'gastritis']]
>>> published.counterfeits.values.tolist()
[[1, 0], [2, 1]]
>>> sorted(published.files(prefix="teamY_"))
['teamY_background.csv', 'teamY_counterfeits.csv', 'teamY_release_1.csv', 'teamY_release_2.csv']
>>> guesses = read_guesses(b"pid,guess\\nBob,dyspepsia\\nAlice,dyspepsia\\nAndy,dyspepsia\\n"
...                        b"David,\\nEmily,dyspepsia\\n", master=master)
>>> score_guesses(guesses, master, n=2)
0.6
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from scoring.encodings import fold_lookalikes
from scoring.errors import ValidationError
from scoring.numbers import number_texts
from scoring.sequential.master import Master
from scoring.sequential.messages import q
from scoring.sequential.release import Release
from scoring.tables import read_table


@dataclass(frozen=True, eq=False)
class PublishedSequence:
    """The files of one target: ``teamY_release_<j>.csv`` frames, background, counterfeits.

    ``counterfeits`` is None when ``counterfeit_disclosure`` is ``"none"``; with
    ``"per-group"`` each release has an ``n_counterfeit`` column instead.
    """

    releases: list[pd.DataFrame]
    background: pd.DataFrame
    counterfeits: pd.DataFrame | None

    def files(self, *, prefix: str = "") -> dict[str, str]:
        """The target's files as published: ``<prefix>release_<j>.csv`` for each release,
        ``<prefix>background.csv`` and (when disclosed) ``<prefix>counterfeits.csv``, each
        name to its CSV text."""
        frames = {f"release_{j}.csv": frame for j, frame in enumerate(self.releases, start=1)}
        frames["background.csv"] = self.background
        if self.counterfeits is not None:
            frames["counterfeits.csv"] = self.counterfeits
        return {
            prefix + name: frame.to_csv(index=False, lineterminator="\n")
            for name, frame in frames.items()
        }


def region_text(groups: pd.DataFrame, qi: dict[str, str]) -> pd.DataFrame:
    """Each group's region as release cells: ``[lo,hi]`` or ``{a|b}`` (a single value as is)."""
    out = pd.DataFrame(index=groups.index)
    for column, kind in qi.items():
        if kind == "num":
            lo = number_texts(groups[f"{column}.lo"].to_numpy())
            hi = number_texts(groups[f"{column}.hi"].to_numpy())
            out[column] = [f"[{a},{b}]" for a, b in zip(lo, hi, strict=True)]
        else:
            sets = groups[f"{column}.set"].astype(str)
            out[column] = np.where(sets.str.contains("|", regex=False), "{" + sets + "}", sets)
    return out


def _renumber(groups: pd.DataFrame, qi: dict[str, str]) -> pd.Series:
    keys = []
    for column, kind in qi.items():
        keys += [f"{column}.lo", f"{column}.hi"] if kind == "num" else [f"{column}.set"]
    order = groups.reset_index().sort_values([*keys, "gid"], kind="stable")["gid"]
    return pd.Series(np.arange(1, len(order) + 1), index=order.to_numpy())


def publish_for_attack(master: Master, releases: list[Release], *, seed: int) -> PublishedSequence:
    """The published files of a target sequence (spec §10); ``seed`` is secret."""
    config = master.config
    rng = np.random.default_rng(seed)
    frames, previous_ids = [], None
    for release in releases:
        groups = release.groups
        new_id = _renumber(groups, config.qi)
        cells = region_text(groups, config.qi)
        rows = release.rows
        frame = pd.DataFrame({"gid": new_id.reindex(rows["gid"]).to_numpy()})
        for column in config.qi:
            frame[column] = cells[column].reindex(rows["gid"]).to_numpy()
        frame[config.sa] = rows["sa"].to_numpy()
        if config.last_disclosure and release.index >= 2:
            last = groups["last"].reindex(rows["gid"]).to_numpy()
            mapped = previous_ids.reindex(last).to_numpy() if previous_ids is not None else last
            frame["last"] = np.where(last > 0, pd.Series(mapped).fillna(0).astype(int), 0)
            frame["last"] = frame["last"].map(lambda v: str(v) if v else "-")
        if config.allow_tampering:
            frame["tampered"] = groups["tampered"].reindex(rows["gid"]).astype(int).to_numpy()
        if config.counterfeit_disclosure == "per-group":
            frame["n_counterfeit"] = groups["counterfeit"].reindex(rows["gid"]).to_numpy()
        frame = frame.iloc[rng.permutation(len(frame))]
        frame = frame.sort_values(["gid", config.sa], kind="stable").reset_index(drop=True)
        frames.append(frame)
        previous_ids = new_id
    n = len(releases)
    union = master.union(n)
    background = master.frame.loc[union, ["pid", *config.qi, "lsf", "lsb"]].reset_index(drop=True)
    for column, kind in config.qi.items():
        if kind == "num":  # written as the release cells are: 72, not 72.0
            background[column] = number_texts(background[column].to_numpy())
    counterfeits = None
    if config.counterfeit_disclosure == "per-release":
        counterfeits = pd.DataFrame(
            {"release": [r.index for r in releases], "count": [r.counterfeits for r in releases]}
        )
    return PublishedSequence(frames, background, counterfeits)


def read_guesses(
    source: Any, *, master: Master, n: int | None = None, name: str = "the guesses"
) -> pd.Series:
    """Read a ``pid,guess`` file against a target (spec §10); ``name``: how a message about
    the file itself (its encoding, its fields) names it (the team's own file name).

    Returns the guesses as a Series ``pid -> guess`` (empty guesses left out).
    Rejected with the line number (the header is line 1): an unknown pid, a pid given
    twice, a guess outside the sensitive domain.
    """
    frame = source if isinstance(source, pd.DataFrame) else read_table(source, name=name)
    if list(frame.columns) != ["pid", "guess"]:
        raise ValidationError("seq.guess.header", got=",".join(map(str, frame.columns)))
    n = master.config.n_releases if n is None else n
    targets = master.pids[master.union(n)]
    pid, guess = frame["pid"].astype(str), frame["guess"].astype(str).map(fold_lookalikes)
    line = np.arange(2, len(frame) + 2)
    unknown = ~pid.isin(targets).to_numpy()
    if unknown.any():
        k = int(np.flatnonzero(unknown)[0])
        raise ValidationError("seq.guess.unknown", line=int(line[k]), pid=q(pid.iloc[k]))
    twice = pid.duplicated().to_numpy()
    if twice.any():
        k = int(np.flatnonzero(twice)[0])
        first = int(line[int(np.flatnonzero((pid == pid.iloc[k]).to_numpy())[0])])
        raise ValidationError("seq.guess.twice", line=int(line[k]), pid=q(pid.iloc[k]), first=first)
    outside = ((guess != "") & ~guess.isin(master.sa_domain)).to_numpy()
    if outside.any():
        k = int(np.flatnonzero(outside)[0])
        raise ValidationError(
            "seq.guess.domain", line=int(line[k]), value=q(guess.iloc[k]), pid=q(pid.iloc[k])
        )
    given = (guess != "").to_numpy()
    return pd.Series(guess.to_numpy()[given], index=pid.to_numpy()[given], name="guess")


def score_guesses(guesses: pd.Series, master: Master, *, n: int | None = None) -> float:
    """Accuracy ``#{p ∈ P_n : guess_p = s_p} / |P_n|`` (a missing guess is wrong)."""
    n = master.config.n_releases if n is None else n
    union = master.union(n)
    truth = pd.Series(master.sa_values[union], index=master.pids[union])
    correct = guesses.reindex(truth.index).to_numpy(dtype=object) == truth.to_numpy(dtype=object)
    return float(correct.sum() / len(truth)) if len(truth) else 0.0
