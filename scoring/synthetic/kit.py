"""The toolkit's sample release and sample attack (spec synthetic-round.md §7).

Both are uploadable as they are: :func:`independent_marginals` writes a release that keeps
each column's distribution of the team's members and nothing of their joint (every cell
drawn on its own), and :func:`dcr_answer` is the built-in DCR attack as an answer file.
:func:`density_answer` is the built-in density attack as one, with the round's
``density_bandwidth`` read from the population's configuration (``population.json``), so a
team's local run gives the server's scores.

Examples
--------
>>> from scoring.synthetic.config import parse_config
>>> from scoring.synthetic.population import read_population
>>> config = parse_config({"columns": {"x": "numeric", "y": "categorical"}, "label": "y"})
>>> p = read_population(b"x,y\\n0,a\\n10,a\\n20,b\\n30,b\\n", config)
>>> release = independent_marginals(p.frame, rows=6, seed=1)
>>> len(release), set(release["y"]) <= {"a", "b"}
(6, True)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scoring.synthetic.attack import dcr_attack, density_attack
from scoring.synthetic.population import Population


def independent_marginals(members: pd.DataFrame, *, rows: int, seed: int) -> pd.DataFrame:
    """A release of ``rows`` rows whose every cell is drawn, on its own, from the members'
    values of its column: the marginals survive, the links between columns do not."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {column: rng.choice(members[column].to_numpy(), size=rows) for column in members.columns}
    )


def dcr_answer(
    release: pd.DataFrame, challenge: pd.DataFrame, population: Population
) -> pd.DataFrame:
    """The DCR attack's answer (``id,score``) on a challenge set given in id order."""
    scores = dcr_attack(release, challenge, population)
    return pd.DataFrame({"id": np.arange(1, len(challenge) + 1), "score": scores})


def density_answer(
    release: pd.DataFrame, aux: pd.DataFrame, challenge: pd.DataFrame, population: Population
) -> pd.DataFrame:
    """The density attack's answer (``id,score``) on a challenge set given in id order, with
    the auxiliary table as the reference population and the round's bandwidth."""
    scores = density_attack(release, aux, challenge, population)
    return pd.DataFrame({"id": np.arange(1, len(challenge) + 1), "score": scores})


def table_text(frame: pd.DataFrame) -> str:
    """A typed table as CSV text; whole numbers are written without ``.0`` (``39``), so a
    release the kit writes reads back to the same numbers with the same text as ``P``."""
    out = frame.copy()
    for column in out.columns:
        values = out[column]
        if values.dtype.kind == "f":
            whole = np.isfinite(values) & (values == np.round(values))
            out[column] = [
                str(int(v)) if w else repr(float(v)) for v, w in zip(values, whole, strict=True)
            ]
    return out.to_csv(index=False, lineterminator="\n")


def challenge_text(frame: pd.DataFrame) -> str:
    """A challenge set as published: ``id`` (1 … n) then ``P``'s columns, no label (the
    round's, and the practice split's of ``synth practice``)."""
    out = frame.copy()
    out.insert(0, "id", np.arange(1, len(out) + 1))
    return table_text(out)
