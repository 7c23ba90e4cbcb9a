"""The classes of a scored submission are those of :func:`scoring.prepare.class_ids`,
whichever codes the columns get (integers as codes, shared encodings, QI ids taken from
the match ids)."""

import numpy as np
import pytest

from scoring import load_config, load_table
from scoring.prepare import ScoringData, TableCache, class_ids


def _csv(rows):
    return ("q1,q2,q3,s\n" + "\n".join(",".join(r) for r in rows) + "\n").encode()


@pytest.mark.parametrize("seed", range(12))
def test_scoring_data_classes_are_class_ids(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 60))

    def row(text):
        q1 = str(int(rng.integers(-3, 4)) * [1, 1000][seed % 2])  # negative, wide spans
        q2 = text if text else str(int(rng.integers(0, 5)))
        q3 = str(int(rng.integers(0, 3)))
        return [q1, q2, q3, str(int(rng.integers(0, 100)))]

    x_rows = [row(None) for _ in range(n)]
    a_rows = [row("x" if seed % 3 == 0 and k == 1 else None) for k in range(n)]
    for k in rng.choice(n, size=min(3, n - 1), replace=False):
        if k != 0:
            a_rows[k] = [""] * 4 if k % 2 else a_rows[k][:2] + ["", a_rows[k][3]]
    x, a = load_table(_csv(x_rows)), load_table(_csv(a_rows))
    config = load_config(
        {
            "qi": ["q1", "q2", "q3"],
            "sa": ["s"],
            "cross": ["q1", "q3"],
            "e2_column": "s",
            "e4_column": "s",
            "match_qi": ["q1", "q2", "q3"] if seed % 2 else ["q2", "q1"],
        },
        x,
    )
    data = ScoringData(x, a, config)
    integral = {c: c in config.integer_columns for c in config.qi}
    caches = TableCache(x), TableCache(a)
    for columns, got in (
        (config.cross, data.cross_ids),
        (config.match_qi, data.match_ids),
    ):
        expected = class_ids(*caches, columns, integral, released_rows=data.kept)
        assert got[0].tolist() == expected[0].tolist()
        assert got[1].tolist() == expected[1].tolist()
    # the QI classes of the kept rows alone: numbered in order of first appearance
    no_rows = TableCache(load_table(b"q1,q2,q3,s\n1,1,1,1\n").to_frame().iloc[:0])
    _, expected = class_ids(no_rows, caches[1], config.qi, integral, released_rows=data.kept)
    assert data.qi_ids.tolist() == expected.tolist()
    assert data.qi_ids.max() + 1 == np.unique(data.qi_ids[data.qi_ids >= 0]).size
