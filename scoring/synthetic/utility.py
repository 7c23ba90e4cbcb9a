"""The scores of a release ``S`` of team X (spec synthetic-round.md §2).

``U_ML`` (train on synthetic, test on real), the marginal fidelities ``U_1`` and ``U_2``,
the share of copies ``R_copy`` of the members and of as many holdout rows (the copies chance
makes), and the distance to closest record ``DCR_5`` of the members and of the holdout. Every function takes typed frames (:mod:`scoring.synthetic.population`)
and the population they come from.

Examples
--------
>>> from scoring.synthetic.config import parse_config
>>> from scoring.synthetic.population import read_population
>>> config = parse_config({"columns": {"x": "numeric", "y": "categorical"}, "label": "y"})
>>> p = read_population(b"x,y\\n0,a\\n10,a\\n20,b\\n30,b\\n", config)
>>> members = p.rows([0, 1, 2, 3])
>>> release = p.rows([0, 0, 3, 3])
>>> u_1(release, members, p), r_copy(release, members, p)
(0.25, 1.0)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from scoring.display import format_number
from scoring.extras import optional
from scoring.synthetic.errors import SynthError
from scoring.synthetic.population import Population

if TYPE_CHECKING:
    from sklearn.pipeline import Pipeline

DCR_PERCENTILE = 5
# The copy gate's reference rows of the holdout: a fixed, public draw of positions, so the
# kit's ``score-release`` given the round's holdout picks the server's rows (the holdout
# itself is the round's secret random draw, so any choice of positions blind to its rows is a
# uniform sample of the table).
COPY_REFERENCE_SEED = 20151


def utility_model(population: Population) -> Pipeline:
    """The spec's model: one-hot categorical features, numeric ones as they are, a random
    forest of 100 trees (``random_state=0``, one job, so every run gives the same numbers)."""
    compose = optional("sklearn.compose", extra="synthetic")
    ensemble = optional("sklearn.ensemble", extra="synthetic")
    pipeline = optional("sklearn.pipeline", extra="synthetic")
    preprocessing = optional("sklearn.preprocessing", extra="synthetic")
    config = population.config
    categorical = [c for c in config.features if config.roles[c] == "categorical"]
    encode = compose.ColumnTransformer(
        [("categorical", preprocessing.OneHotEncoder(handle_unknown="ignore"), categorical)],
        remainder="passthrough",
    )
    forest = ensemble.RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=1)
    return pipeline.Pipeline([("encode", encode), ("forest", forest)])


def model_auc(train: pd.DataFrame, test: pd.DataFrame, population: Population) -> float:
    """ROC AUC on ``test`` of the model trained on ``train``; 0.0 when ``train`` holds one
    label value only.

    Two label values: the positive class is the last of ``P``'s sorted label values and
    its probability is scored with :func:`sklearn.metrics.roc_auc_score` (0 for a class the
    model never saw). More: the macro one-vs-rest mean over the classes present in
    ``test``, which is what ``roc_auc_score(multi_class="ovr", average="macro")`` gives
    whenever that is defined (it refuses a class absent from ``test``).
    """
    roc_auc_score = optional("sklearn.metrics", extra="synthetic").roc_auc_score
    config = population.config
    label = config.label
    if train[label].nunique() < 2:
        return 0.0
    model = utility_model(population).fit(train[list(config.features)], train[label])
    proba = model.predict_proba(test[list(config.features)])
    seen = list(model.classes_)
    classes = population.domains[label]

    def probability(value: str) -> np.ndarray:
        return proba[:, seen.index(value)] if value in seen else np.zeros(len(test))

    truth = test[label].to_numpy()
    if len(classes) == 2:
        return float(roc_auc_score(truth == classes[-1], probability(classes[-1])))
    present = [c for c in classes if 0 < (truth == c).sum() < len(truth)]
    return float(np.mean([roc_auc_score(truth == c, probability(c)) for c in present]))


def _distribution(codes: np.ndarray, size: int) -> np.ndarray:
    return np.bincount(codes, minlength=size) / len(codes)


def _tvd(a: np.ndarray, b: np.ndarray, size: int) -> float:
    return 0.5 * float(np.abs(_distribution(a, size) - _distribution(b, size)).sum())


def u_1(release: pd.DataFrame, members: pd.DataFrame, population: Population) -> float:
    """Mean over every column of the total variation distance between its distribution in
    the release and in the members (numeric columns by decile bin of ``P``)."""
    s, t = population.codes(release), population.codes(members)
    sizes = [population.cardinality(c) for c in population.config.columns]
    return float(np.mean([_tvd(s[:, k], t[:, k], n) for k, n in enumerate(sizes)]))


def u_2(release: pd.DataFrame, members: pd.DataFrame, population: Population) -> float:
    """The same over every unordered pair of columns, on the joint (bin, bin) cells
    (0.0 for a one-column table, which has no pair)."""
    s, t = population.codes(release), population.codes(members)
    sizes = [population.cardinality(c) for c in population.config.columns]
    distances = [
        _tvd(s[:, i] * sizes[j] + s[:, j], t[:, i] * sizes[j] + t[:, j], sizes[i] * sizes[j])
        for i, j in combinations(range(len(sizes)), 2)
    ]
    return float(np.mean(distances)) if distances else 0.0


def r_copy(release: pd.DataFrame, members: pd.DataFrame, population: Population) -> float:
    """The share of the release's rows equal to some member on every column (numbers by
    value: ``39`` and ``39.0`` are one number)."""
    columns = list(population.config.columns)
    known = pd.MultiIndex.from_frame(members[columns])
    return float(pd.MultiIndex.from_frame(release[columns]).isin(known).mean())


def copy_reference(holdout: pd.DataFrame, size: int) -> pd.DataFrame:
    """``size`` rows of the holdout (all of it when it is smaller), drawn by a fixed generator
    (``COPY_REFERENCE_SEED``) from the holdout's positions: the same rows for the same
    holdout in the same order, on the server and in the kit.

    A release's ``R_copy`` against them is what an honest release copies by chance: the
    members and these rows are samples of the same table of the same size, and the team
    never saw these.

    >>> frame = pd.DataFrame({"y": list("abcdef")})
    >>> len(copy_reference(frame, 4)), copy_reference(frame, 4).equals(copy_reference(frame, 4))
    (4, True)
    >>> len(copy_reference(frame, 10))
    6
    """
    if size >= len(holdout):
        return holdout
    rng = np.random.default_rng(COPY_REFERENCE_SEED)
    return holdout.iloc[np.sort(rng.choice(len(holdout), size=size, replace=False))]


def nearest_distances(
    queries: pd.DataFrame, base: pd.DataFrame, population: Population
) -> np.ndarray:
    """The L1 distance, in the DCR embedding, from each row of ``queries`` to its nearest
    row of ``base`` (:class:`sklearn.neighbors.NearestNeighbors`, exact)."""
    neighbors = optional("sklearn.neighbors", extra="synthetic")
    search = neighbors.NearestNeighbors(n_neighbors=1, metric="manhattan").fit(
        population.embed(base)
    )
    distances, _ = search.kneighbors(population.embed(queries))
    return distances[:, 0]


def dcr_5(reference: pd.DataFrame, release: pd.DataFrame, population: Population) -> float:
    """The 5th percentile (linear interpolation) of the distances from each row of
    ``reference`` (the members, or the holdout) to its nearest row of the release."""
    return float(np.percentile(nearest_distances(reference, release, population), DCR_PERCENTILE))


# The scores a release shows, in this order (pages, API, archive); the two AUCs behind u_ml
# are kept on the release but not shown.
SHOWN_RELEASE_SCORES = (
    "u_ml",
    "u_1",
    "u_2",
    "r_copy",
    "r_copy_holdout",
    "dcr_5_train",
    "dcr_5_holdout",
)


@dataclass(frozen=True)
class ReleaseScores:
    """Every score of a release; ``u_ml = auc_release / auc_train``; ``r_copy_holdout`` is
    ``R_copy`` against :func:`copy_reference` (as many holdout rows as members)."""

    u_ml: float
    u_1: float
    u_2: float
    r_copy: float
    r_copy_holdout: float
    dcr_5_train: float
    dcr_5_holdout: float
    auc_release: float
    auc_train: float

    def as_dict(self) -> dict[str, float]:
        return asdict(self)

    def passes(self, *, u_ml_min: float, u_1_max: float, r_copy_excess_max: float) -> bool:
        """Whether the release passes the round's gates: the utility gates of spec §5 and
        the copy gate (:func:`copy_gate_failure`)."""
        return (
            self.u_ml >= u_ml_min
            and self.u_1 <= u_1_max
            and copy_gate_failure(
                self.r_copy, self.r_copy_holdout, r_copy_excess_max=r_copy_excess_max
            )
            is None
        )


def copy_gate_failure(
    r_copy: float, r_copy_holdout: float, *, r_copy_excess_max: float
) -> SynthError | None:
    """Why a release fails the copy gate, else None: it does when it copies its members
    beyond chance, ``r_copy − r_copy_holdout`` (its share of rows equal to a member, less its
    share equal to a row of as many holdout rows, which the team never saw) above
    ``r_copy_excess_max``.

    An absolute limit on ``r_copy`` refused honest releases of a table whose rows repeat by
    chance (Adult's categorical columns alone: a fresh sample of the table copies half its
    rows from 2,000 members, and as many from 2,000 holdout rows). Unlike the utility gates,
    which only rank a release last, this one guards the members: a release failing it is
    kept and scored, but never published to the other teams.

    Examples
    --------
    >>> copy_gate_failure(1.0, 0.0, r_copy_excess_max=0.1).params
    {'value': '1.0000', 'reference': '0.0000', 'excess': '1.0000', 'limit': '0.1'}
    >>> copy_gate_failure(0.52, 0.51, r_copy_excess_max=0.1) is None
    True
    """
    excess = r_copy - r_copy_holdout
    if excess <= r_copy_excess_max:
        return None
    return SynthError(
        "syn.gate.r_copy",
        # Written as the tables write them (scoring.display): the row shows both.
        value=format_number(r_copy),
        reference=format_number(r_copy_holdout),
        excess=format_number(excess),
        limit=f"{r_copy_excess_max:g}",
    )


def release_scores(
    release: pd.DataFrame,
    members: pd.DataFrame,
    holdout: pd.DataFrame,
    population: Population,
    *,
    auc_train: float | None = None,
) -> ReleaseScores:
    """Score a checked release of the team whose members are ``members``.

    ``auc_train`` (the members' own model's AUC on the holdout) may be passed when known:
    it depends on the team's draw only, not on the release.
    """
    if auc_train is None:
        auc_train = model_auc(members, holdout, population)
    auc_release = model_auc(release, holdout, population)
    return ReleaseScores(
        u_ml=auc_release / auc_train if auc_train > 0 else 0.0,
        u_1=u_1(release, members, population),
        u_2=u_2(release, members, population),
        r_copy=r_copy(release, members, population),
        r_copy_holdout=r_copy(release, copy_reference(holdout, len(members)), population),
        dcr_5_train=dcr_5(members, release, population),
        dcr_5_holdout=dcr_5(holdout, release, population),
        auc_release=auc_release,
        auc_train=auc_train,
    )
