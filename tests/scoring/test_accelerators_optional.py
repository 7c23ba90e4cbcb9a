"""The toolkit's extras change speed, never a number (pwscup/core/toolkit.py, ``EXTRAS``):
without numba the nearest-row search compares every candidate in numpy blocks, without
pyarrow the checking reader reads every file, and both give exactly what the accelerated
paths give (compared with ``==``, not a tolerance). The slow paths run in a fresh interpreter
where importing numba or pyarrow fails, as on a participant's machine without the extra."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from scoring.nearest import nearest_hits
from scoring.tables import load_table, read_table

ROOT = Path(__file__).resolve().parents[2]


def without(modules: list[str], code: str) -> object:
    """Run ``code`` where importing ``modules`` fails; its last printed line, as JSON."""
    blocked = "".join(f"sys.modules[{name!r}] = None\n" for name in modules)
    result = subprocess.run(
        [sys.executable, "-c", f"import sys\n{blocked}{code}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def cases(seed: int):
    """Reference and released rows on a coarse grid (many exact ties and duplicates), each
    released row its true row moved by a small step, with classes of every size."""
    rng = np.random.default_rng(seed)
    ref = rng.integers(0, 6, size=(900, 3)).astype(float)
    truth = rng.integers(0, 900, size=700)
    truth[::11] = -1
    rel = ref[np.maximum(truth, 0)] + rng.integers(-1, 2, size=(700, 3))
    ref_class = rng.integers(0, 40, size=900)
    ref_class[:300] = 0  # one large class beside small ones
    rel_class = ref_class[np.maximum(truth, 0)]
    return ref, rel, truth, ref_class, rel_class


CODE = """
import json, numpy as np
from scoring.nearest import nearest_hits
from tests.scoring.test_accelerators_optional import cases
out = []
for seed in (1, 2):
    ref, rel, truth, ref_class, rel_class = cases(seed)
    out.append(nearest_hits(ref, rel, truth).tolist())
    out.append(nearest_hits(ref, rel, truth, ref_class=ref_class, rel_class=rel_class).tolist())
print(json.dumps(out))
"""


def test_the_nearest_row_search_without_numba_gives_the_same_hits():
    slow = without(["numba"], CODE)
    fast = []
    for seed in (1, 2):
        ref, rel, truth, ref_class, rel_class = cases(seed)
        fast.append(nearest_hits(ref, rel, truth).tolist())
        fast.append(
            nearest_hits(ref, rel, truth, ref_class=ref_class, rel_class=rel_class).tolist()
        )
    assert slow == fast
    assert any(0 < hit < 1 for hits in fast for hit in hits)  # ties were shared
    assert any(hit == 0 for hits in fast for hit in hits)  # and misses


def test_a_plain_file_read_without_pyarrow_is_the_same_table(tmp_path):
    path = tmp_path / "plain.csv"
    rows = [f"{k},{k % 7}.5,{'ab'[k % 2]}x,{k * 3}" for k in range(2000)]
    path.write_text("id,score,tag,n\n" + "\n".join(rows) + "\n", encoding="utf-8")
    code = (
        "import json\nfrom scoring.tables import load_table, read_table\n"
        f"frame, table = read_table({str(path)!r}), load_table({str(path)!r})\n"
        "print(json.dumps([list(frame.columns), frame.values.tolist(),"
        " [table.column(c).numbers().tolist() for c in ('id', 'score', 'n')]]))"
    )
    frame, table = read_table(path), load_table(path)
    fast = [
        list(frame.columns),
        frame.values.tolist(),
        [table.column(c).numbers().tolist() for c in ("id", "score", "n")],
    ]
    assert type(table.column("id")).__name__ == "ArrowColumn"  # the fast reader ran here
    assert without(["pyarrow", "pyarrow.csv"], code) == fast
