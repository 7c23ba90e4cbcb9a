"""The round's draws (spec synthetic-round.md §1): holdout, auxiliary table, and per team
its members, non-members and challenge set with its dev and final halves.

Every draw is a function of the round's secret seed and a tag (``"shared"``, or the team's
key), so it is the same whenever it is computed; the platform still stores each draw once
made (so a change of the rule below changes no team already drawn), and a team that joins
late draws from what the others left (``taken``) while that is enough for a team.

Two choices where the spec is silent or, read literally, leaks:

* ``A`` is drawn first, from ``P \\ H``, and no team's members or non-members are drawn from
  it. The spec draws ``A`` from ``P \\ H \\ ⋃ T_X`` and ``N_X`` from ``P \\ H \\ T_X``: a
  non-member that is also a row of the public ``A`` would be recognised as a non-member by
  every attacker who looks it up in ``A``.
* A team's members and its non-members come from one pool, by one rule, so that which rows of
  its challenge set are members owes nothing to what the other teams hold. While the rows no
  team holds yet can take a whole team (``n_train + n_challenge/2`` rows), both are drawn from
  them (``disjoint``): no team drawn before it, nor disjointly after it, holds one of its
  challenge rows (a later independent team may, a member or a non-member alike). Once they
  cannot (also when the members alone would still fit), both are drawn from all of
  ``P \\ H \\ A``, independently of the other teams (``disjoint`` is False). The spec
  (rev. 2) keeps the non-members, and not the members, off other teams' rows "while the pool
  lasts": in the independent regime that made a challenge row held by another team a member,
  nearly always (Adult at the spec's sizes, teams 12-16, seed 1: 905 of the 1,032 such rows;
  the 16th team 182 of 182). Now 905 of 1,818 (``tests/scoring/test_syn_draws_membership.py``;
  ``docs/synthetic.md``). :func:`disjoint_teams` says how many teams a table holds disjointly.

Examples
--------
>>> from scoring.synthetic.config import parse_config
>>> config = parse_config({"columns": {"a": "numeric", "y": "categorical"}, "label": "y",
...     "n_holdout": 10, "n_aux": 10, "n_train": 20, "n_challenge": 8})
>>> shared = draw_shared(100, config, seed=7)
>>> team = draw_team(100, config, seed=7, team="teamA", shared=shared)
>>> len(team.members), team.labels.sum(), (team.labels & team.dev).sum(), team.disjoint
(20, np.int64(4), np.int64(2), True)
>>> team == draw_team(100, config, seed=7, team="teamA", shared=shared)
True
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from scoring.messages import expect
from scoring.synthetic.config import SynthConfig, bad_value
from scoring.synthetic.errors import SynthError
from scoring.synthetic.messages import ORIGINAL_TABLE


def _rng(seed: int, tag: str) -> np.random.Generator:
    """A generator for ``tag`` under the round's seed: the tag's SHA-256 words, then the seed."""
    words = np.frombuffer(hashlib.sha256(tag.encode("utf-8")).digest(), dtype=np.uint32)
    return np.random.default_rng(np.random.SeedSequence([int(seed) % 2**64, *words.tolist()]))


def _choice(rng: np.random.Generator, pool: np.ndarray, count: int) -> np.ndarray:
    return np.sort(rng.choice(pool, size=count, replace=False))


def _equal(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.array_equal(a, b))


@dataclass(frozen=True, eq=False)
class SharedDraw:
    """Rows of ``P`` (0-based positions): the holdout ``H`` and the auxiliary table ``A``."""

    holdout: np.ndarray
    aux: np.ndarray

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, SharedDraw)
            and _equal(self.holdout, other.holdout)
            and _equal(self.aux, other.aux)
        )

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True, eq=False)
class TeamDraw:
    """One team's rows of ``P``: ``members`` (``T_X``), ``nonmembers`` (``N_X``), and the
    challenge set, whose id ``i`` (1-based) is row ``challenge[i - 1]`` with membership
    label ``labels[i - 1]`` (1 = member), in the dev half where ``dev[i - 1]``."""

    members: np.ndarray
    nonmembers: np.ndarray
    challenge: np.ndarray
    labels: np.ndarray
    dev: np.ndarray
    disjoint: bool

    def rows_taken(self) -> np.ndarray:
        """Every row of ``P`` this team holds or is challenged on."""
        return np.union1d(self.members, self.nonmembers)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TeamDraw)
            and all(
                _equal(getattr(self, name), getattr(other, name))
                for name in ("members", "nonmembers", "challenge", "labels", "dev")
            )
            and self.disjoint == other.disjoint
        )

    __hash__ = None  # type: ignore[assignment]


def needed_rows(config: SynthConfig) -> int:
    """The fewest rows ``P`` needs: holdout, auxiliary table, one team's members and non-members."""
    return config.n_holdout + config.n_aux + config.n_train + config.n_challenge // 2


def rows_check(size: int, config: SynthConfig, *, table: str = ORIGINAL_TABLE) -> None:
    """Refuse a ``P`` of ``size`` rows that cannot hold the holdout, the auxiliary table and
    one team (:func:`needed_rows`); ``table``: what the message calls it."""
    if size < needed_rows(config):
        raise SynthError("syn.config.too_small", rows=size, needed=needed_rows(config), table=table)


def disjoint_teams(size: int, *, n_holdout: int, n_aux: int, n_train: int, n_challenge: int) -> int:
    """How many teams a table of ``size`` rows gives rows of their own (the round's sizes as
    keywords, so a form can ask before a configuration exists): each takes
    ``n_train + n_challenge/2`` of the rows left once ``H`` and ``A`` are drawn; the next team
    and every later one are drawn independently (:func:`draw_team`).

    >>> disjoint_teams(32561, n_holdout=5000, n_aux=2000, n_train=2000, n_challenge=400)
    11

    (Adult at the spec's sizes: the 12th team is the first drawn independently.)
    """
    rows_left = max(size - n_holdout - n_aux, 0)
    return rows_left // max(n_train + n_challenge // 2, 1)


def draw_shared(size: int, config: SynthConfig, *, seed: int, tag: str = "shared") -> SharedDraw:
    """Draw ``H`` from ``P`` and ``A`` from ``P \\ H`` (``size`` = rows of ``P``); ``tag``
    tells apart the populations of one round (one per data pack: ``"shared:<pack>"``)."""
    rows_check(size, config)
    rng = _rng(seed, tag)
    everyone = np.arange(size)
    holdout = _choice(rng, everyone, config.n_holdout)
    aux = _choice(rng, np.setdiff1d(everyone, holdout), config.n_aux)
    return SharedDraw(holdout=holdout, aux=aux)


def draw_team(
    size: int,
    config: SynthConfig,
    *,
    seed: int,
    team: str,
    shared: SharedDraw,
    taken: np.ndarray | None = None,
) -> TeamDraw:
    """Draw team ``team``'s members, non-members and challenge set.

    ``taken`` are the rows the teams drawn before hold (:meth:`TeamDraw.rows_taken`).
    """
    rng = _rng(seed, f"team:{team}")
    base = np.setdiff1d(np.arange(size), np.union1d(shared.holdout, shared.aux))
    taken = np.asarray([] if taken is None else taken, dtype=np.int64)
    half = config.n_challenge // 2
    free = np.setdiff1d(base, taken)
    disjoint = len(free) >= config.n_train + half
    # Members and non-members from the same pool: keeping only the non-members off the
    # other teams' rows would make every challenge row another team holds a member.
    pool = free if disjoint else base
    members = _choice(rng, pool, config.n_train)
    nonmembers = _choice(rng, np.setdiff1d(pool, members), half)
    return _with_challenge(rng, members, nonmembers, disjoint=disjoint)


def _with_challenge(
    rng: np.random.Generator, members: np.ndarray, nonmembers: np.ndarray, *, disjoint: bool
) -> TeamDraw:
    """Half members, half ``nonmembers``, shuffled; the dev half takes a half of each."""
    half = len(nonmembers)
    challenged = rng.choice(members, size=half, replace=False)
    rows = np.concatenate([challenged, nonmembers])
    labels = np.concatenate([np.ones(half, dtype=np.int8), np.zeros(half, dtype=np.int8)])
    order = rng.permutation(len(rows))
    rows, labels = rows[order], labels[order]
    dev = np.zeros(len(rows), dtype=bool)
    for label in (1, 0):
        positions = np.flatnonzero(labels == label)
        dev[rng.choice(positions, size=half // 2, replace=False)] = True
    return TeamDraw(
        members=members,
        nonmembers=nonmembers,
        challenge=rows,
        labels=labels,
        dev=dev,
        disjoint=disjoint,
    )


def practice_draw(size: int, *, n_challenge: int, seed: int) -> TeamDraw:
    """The toolkit's labelled practice split of a table of ``size`` rows (the auxiliary
    table ``A``): half its rows play the members, and a challenge set of ``n_challenge``
    rows (half of them members) with dev and final halves, as a team's draw has."""
    rng = _rng(seed, "practice")
    half = n_challenge // 2
    if n_challenge % 4 or size < 2 * half or size // 2 < half:
        raise bad_value(
            "n_challenge", expect("challenge_size", most=size // 2 // 2 * 2), n_challenge
        )
    rows = np.arange(size)
    members = _choice(rng, rows, size // 2)
    nonmembers = _choice(rng, np.setdiff1d(rows, members), half)
    return _with_challenge(rng, members, nonmembers, disjoint=True)
