"""Per-person identification risk over a release sequence (spec §7, with §8's remedies).

For each person ``p`` and release ``j`` of its lifespan (up to the current step ``n``),
the candidate groups ``G_j(p)`` are the groups whose region contains ``p``'s QI,
restricted by ``last`` when the round discloses it (§8.1, forward in time). With
``c_j(g, v)`` the rows of group ``g`` holding ``v`` (counterfeits included):

* attacker **N** (§7.2): ``Score_N(p, v) = Π_{j∈L(p)} Σ_{g∈G̃_j(p)} c_j(g, v)``;
* attacker **A** (§7.3): ``Score_A(p, v) = Σ_{σ∈Σ(p)} Π_j Σ_{g: sig(g)=σ} c_j(g, v)``, with
  ``Σ(p)`` the signatures met in every release of ``L(p)``; N's scores when it is empty.

Posteriors are the normalised scores; ``Risk_X(p) = P_X(p, s_p)``.

How it is computed: candidate pairs (person, group) per release come from the QI giving
the fewest pairs — a sorted window over a numeric QI (wide groups, such as ``*``, as
their own class) or the groups holding each value of a categorical QI — and are then
filtered by every QI. Scores are
products of counts, so they are sums of logarithms over (person, value) keys: a value
scores 0 when it is missing from one release of ``L(p)``, which is a count of
releases, not a product. Every step is a numpy/pandas array operation; the only Python
loop is over releases. Floating point agrees with the exact rational oracle to about
1e-15 relative (spec: 1e-9). ``benchmarks/bench_sequential.py`` times it against the
target (figures in ``docs/sequential.md``).

Examples
--------
>>> from scoring.sequential._examples import headline
>>> result = risk(*headline())
>>> result.posterior("Bob", "N")
{'bronchitis': 0.3333333333333333, 'dyspepsia': 0.6666666666666666}
>>> round(result.summary["RN_max"], 6), result.summary["RA_max"], result.summary["RN_over"]
(0.666667, 0.5, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.sequential.cover import cover_pairs, expand, restrict_by_last
from scoring.sequential.master import Master
from scoring.sequential.release import Release

TIE = 1e-9
"""Argmax ties (``metrics.md``): ``d2 − d1 ≤ 1e-9·max(1, d2)``."""


@dataclass(frozen=True, eq=False)
class Risk:
    """Risk of every person of ``U(n)`` under attackers N and A.

    Attributes
    ----------
    n : int
        The releases used, ``1..n``.
    persons : numpy.ndarray
        Master rows of ``P_n`` (``lsf ≤ n``), in master order.
    posterior_n, posterior_a : pandas.DataFrame
        Long posteriors ``person, value, p`` (values with probability 0 left out).
    per_person : pandas.DataFrame
        ``pid, lsf, lsb, sa, groups_per_release, P_N_true, P_A_true, MAP_N, MAP_A``:
        ``groups_per_release`` lists ``|G̃_j(p)|`` for ``j = lsf..min(lsb, n)`` joined by
        ``;``; ``MAP_X`` is the expected accuracy of the MAP attacker on that person,
        ``[s_p ∈ M_p] / |M_p|``.
    summary : dict
        ``RN_max, RN_mean, RA_max, RA_mean, RN_over, MAP_N, MAP_A, persons``.
    """

    n: int
    persons: np.ndarray
    posterior_n: pd.DataFrame
    posterior_a: pd.DataFrame
    per_person: pd.DataFrame
    summary: dict
    _master: Master

    def posterior(self, pid: str, attacker: str = "N") -> dict[str, float]:
        """``P_X(p, ·)`` of one person, as ``{value: probability}`` (sorted by value)."""
        person = int(self._master.pids.get_loc(pid))
        frame = self.posterior_n if attacker == "N" else self.posterior_a
        rows = frame.loc[frame["person"] == person]
        domain = self._master.sa_domain
        return {domain[v]: float(p) for v, p in zip(rows["value"], rows["p"], strict=True)}


def _value_counts(release: Release, domain: pd.Index):
    """CSR of the group value counts: ``indptr`` over group positions, ``values``, ``counts``."""
    positions = release.groups.index.get_indexer(release.rows["gid"])
    codes = domain.get_indexer(release.rows["sa"])
    key = positions * len(domain) + codes
    unique, counts = np.unique(key, return_counts=True)
    gpos, values = np.divmod(unique, len(domain))
    indptr = np.searchsorted(gpos, np.arange(len(release.groups) + 1))
    return indptr, values, counts


def _scores(keys: list[np.ndarray], logs: list[np.ndarray]):
    """Per key over all releases: the sum of the logs and the number of releases met."""
    unique, inverse = np.unique(np.concatenate(keys), return_inverse=True)
    total = np.bincount(inverse, weights=np.concatenate(logs), minlength=unique.size)
    count = np.bincount(inverse, minlength=unique.size)
    return unique, total, count


def _normalise(person: np.ndarray, value: np.ndarray, log_score: np.ndarray) -> pd.DataFrame:
    frame = pd.DataFrame({"person": person, "value": value, "log": log_score})
    top = frame.groupby("person")["log"].transform("max")
    frame["w"] = np.exp(frame["log"] - top)
    frame["p"] = frame["w"] / frame.groupby("person")["w"].transform("sum")
    return frame[["person", "value", "p"]].sort_values(["person", "value"]).reset_index(drop=True)


def risk(master: Master, releases: list[Release], *, n: int | None = None) -> Risk:
    """Risk of every person of ``U(n)`` under attackers N and A (spec §7–§8).

    Parameters
    ----------
    master : Master
        The team's master (the adversary's background: QIs and lifespans).
    releases : list of Release
        ``T*(1) … T*(n)`` in order (``n = len(releases)`` unless given).
    n : int, optional
        The current step; the releases after it are ignored.

    Returns
    -------
    Risk
    """
    releases = list(releases)[: (n if n is not None else len(releases))]
    n = len(releases)
    persons = np.flatnonzero(master.lsf <= n)
    evidence = _Evidence.of(master, releases)
    if releases:
        post_n = evidence.posterior_n()
        post_a = evidence.posterior_a(post_n)
    else:
        post_n = post_a = pd.DataFrame({"person": [], "value": [], "p": []})
    truth = pd.Index(master.sa_domain).get_indexer(master.sa_values)
    columns = {name: _truth_columns(truth, post) for name, post in (("N", post_n), ("A", post_a))}
    per_person = _per_person(master, persons, evidence.group_counts, columns)
    summary = _summary(per_person, persons, master.config.m)
    return Risk(n, persons, post_n, post_a, per_person, summary, master)


@dataclass
class _Evidence:
    """What the releases tell of each person (spec §7): per release, the log of ``n_j(p, v)``
    (attacker N) and of ``n_j^σ(p, v)`` (attacker A, per group signature σ), keyed by person
    and value; how many releases cover each person (``|L(p)|``) and in how many groups."""

    n_values: int
    n_sig: int
    n_keys: list
    n_logs: list
    a_keys: list
    a_logs: list
    covered: np.ndarray  # |L(p)|
    group_counts: np.ndarray  # (person, release): |G̃_j(p)|

    @classmethod
    def of(cls, master: Master, releases: list[Release]) -> _Evidence:
        domain = pd.Index(master.sa_domain)
        n_people, lsf, lsb = len(master.frame), master.lsf, master.lsb
        # signatures get one id over all releases
        all_signatures = pd.Index(
            pd.unique(
                np.concatenate([r.groups["signature"].to_numpy(dtype=object) for r in releases])
            )
            if releases
            else []
        )
        evidence = cls(
            n_values=len(domain),
            n_sig=max(len(all_signatures), 1),
            n_keys=[],
            n_logs=[],
            a_keys=[],
            a_logs=[],
            covered=np.zeros(n_people, dtype=np.int64),
            group_counts=np.zeros((n_people, len(releases)), dtype=np.int64),
        )
        previous_pairs = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
        for j, release in enumerate(releases, start=1):
            people = np.flatnonzero((lsf <= j) & (j <= lsb))
            person, gpos = cover_pairs(master, release, people)
            if master.config.last_disclosure and j >= 2:
                person, gpos = restrict_by_last((person, gpos), previous_pairs, release)
            previous_pairs = (person, release.groups.index.to_numpy()[gpos])
            signatures = all_signatures.get_indexer(
                release.groups["signature"].to_numpy(dtype=object)
            )
            evidence._add(j, release, domain, person, gpos, signatures)
        return evidence

    def _add(self, j, release, domain, person, gpos, signatures) -> None:
        np.add.at(self.group_counts[:, j - 1], person, 1)
        self.covered[np.unique(person)] += 1
        indptr, values, counts = _value_counts(release, domain)
        per_pair = indptr[gpos + 1] - indptr[gpos]
        entry = expand(indptr[gpos], per_pair)
        pair_person = np.repeat(person, per_pair)
        pair_sig = np.repeat(signatures[gpos], per_pair)
        v, c = values[entry], counts[entry]
        # attacker N: n_j(p, v)
        keys, inverse = np.unique(pair_person * self.n_values + v, return_inverse=True)
        self.n_keys.append(keys)
        self.n_logs.append(np.log(np.bincount(inverse, weights=c)))
        # attacker A: n_j^σ(p, v)
        keys, inverse = np.unique(
            (pair_person * self.n_sig + pair_sig) * self.n_values + v, return_inverse=True
        )
        self.a_keys.append(keys)
        self.a_logs.append(np.log(np.bincount(inverse, weights=c)))

    def posterior_n(self) -> pd.DataFrame:
        """Attacker N's posterior: the product over the releases covering the person."""
        keys, total, count = _scores(self.n_keys, self.n_logs)
        person, value = np.divmod(keys, self.n_values)
        full = count == self.covered[person]
        return _normalise(person[full], value[full], total[full])

    def posterior_a(self, post_n: pd.DataFrame) -> pd.DataFrame:
        """Attacker A's posterior: Σ_σ Π_j, the products of the signatures added in a common
        scale per person; a person A has no full signature for keeps N's (``post_n``)."""
        keys, total, count = _scores(self.a_keys, self.a_logs)
        person_sig, value = np.divmod(keys, self.n_values)
        person, _sig = np.divmod(person_sig, self.n_sig)
        full = count == self.covered[person]
        frame = pd.DataFrame({"person": person[full], "value": value[full], "log": total[full]})
        frame["log"] -= frame.groupby("person")["log"].transform("max")
        frame["w"] = np.exp(frame["log"])
        summed = frame.groupby(["person", "value"], as_index=False)["w"].sum()
        post_a = _normalise(
            summed["person"].to_numpy(), summed["value"].to_numpy(), np.log(summed["w"].to_numpy())
        )
        fallback = np.setdiff1d(post_n["person"].unique(), post_a["person"].unique())
        return (
            pd.concat([post_a, post_n.loc[post_n["person"].isin(fallback)]])
            .sort_values(["person", "value"])
            .reset_index(drop=True)
        )


def _truth_columns(truth: np.ndarray, post: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per person of the master: the posterior of its true value, and the chance a MAP guess
    (a uniform pick among the values tied at the top) is that value."""
    n_people = len(truth)
    p_true = np.zeros(n_people)
    hit = post["value"].to_numpy() == truth[post["person"].to_numpy().astype(np.int64)]
    p_true[post["person"].to_numpy()[hit].astype(np.int64)] = post["p"].to_numpy()[hit]
    top = post.groupby("person")["p"].transform("max").to_numpy()
    tied = post["p"].to_numpy() >= top - TIE * np.maximum(1.0, top)
    size = pd.Series(tied).groupby(post["person"].to_numpy()).sum()
    expected = np.zeros(n_people)
    winners = tied & hit
    who = post["person"].to_numpy()[winners].astype(np.int64)
    expected[who] = 1.0 / size.reindex(who).to_numpy()
    return p_true, expected


def _per_person(master: Master, persons, group_counts, columns) -> pd.DataFrame:
    lsf, lsb = master.lsf, master.lsb
    per_release = np.full(persons.size, "", dtype=object)
    for j in range(1, group_counts.shape[1] + 1):  # "|G̃_j(p)|" for j = lsf..min(lsb, n), ";"
        inside = (lsf[persons] <= j) & (j <= lsb[persons])
        piece = group_counts[persons, j - 1].astype(str).astype(object)
        joint = np.where(per_release != "", ";", "")
        per_release = np.where(inside, per_release + joint + piece, per_release)
    return pd.DataFrame(
        {
            "pid": master.frame["pid"].to_numpy()[persons],
            "lsf": lsf[persons],
            "lsb": lsb[persons],
            "sa": master.sa_values[persons],
            "groups_per_release": per_release,
            "P_N_true": columns["N"][0][persons],
            "P_A_true": columns["A"][0][persons],
            "MAP_N": columns["N"][1][persons],
            "MAP_A": columns["A"][1][persons],
        }
    )


def _summary(per_person: pd.DataFrame, persons, m: int) -> dict:
    rn, ra = per_person["P_N_true"], per_person["P_A_true"]
    return {
        "persons": int(len(persons)),
        "RN_max": float(rn.max()) if len(rn) else 0.0,
        "RN_mean": float(rn.mean()) if len(rn) else 0.0,
        "RA_max": float(ra.max()) if len(ra) else 0.0,
        "RA_mean": float(ra.mean()) if len(ra) else 0.0,
        "RN_over": int((rn > 1 / m + TIE).sum()),
        "MAP_N": float(per_person["MAP_N"].mean()) if len(rn) else 0.0,
        "MAP_A": float(per_person["MAP_A"].mean()) if len(rn) else 0.0,
    }
