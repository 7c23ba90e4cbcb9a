"""The toolkit's optional dependencies, imported where a score or a baseline needs them.

The participants' wheel (``pwscup/core/toolkit.py``) requires only numpy, pandas and
charset-normalizer: the anonymize-and-attack game's 14 scores and the sequential round's
scores need nothing else. What only one game needs is an extra of the wheel, imported on
first use through :func:`optional` rather than at the top of a module, so that
``python -m scoring`` and every module import without it and a command that needs it says
which extra to install (in the reader's language), instead of a bare ``ModuleNotFoundError``:

* ``kit``: scipy, the starter kit's baseline attacks (the nearest-row search of
  ``scoring.kit.neighbors``, the matching of ``scoring.kit.matching``);
* ``dp``: scipy (the DP round's Spearman ranks and plausibility tests);
* ``synthetic``: scikit-learn (the synthetic round's model utility, nearest distances,
  attacks and ROC curves);
* ``opendp``: OpenDP's Laplace sampler, which only the platform's own answers use.

The server installs every extra; the numbers never depend on which are installed.
"""

from __future__ import annotations

import importlib
from importlib import metadata
from types import ModuleType

from scoring.errors import ScoringError

DISTRIBUTION = "pwscup-toolkit"


class MissingExtra(ScoringError):
    """A command needs a module of one of the wheel's extras, which is not installed."""


def install_hint(extra: str) -> str:
    """The ``pip install`` argument that adds ``extra`` to the installed toolkit: the
    wheel's name as ``pwscup.core.toolkit.install_argument`` writes it (``scoring`` cannot
    import the platform; tests/pwscup/test_toolkit_wheel.py compares the two)."""
    try:
        version = metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        version = "<version>"
    return f'"pwscup_toolkit-{version}-py3-none-any.whl[{extra}]"'


def optional(module: str, *, extra: str) -> ModuleType:
    """Import ``module`` (e.g. ``"scipy.stats"``), a dependency of the wheel's ``extra``; a
    :class:`MissingExtra` naming the extra when its distribution is not installed. A module
    that is installed but fails to import for another reason raises as it is."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        top = module.split(".")[0]
        if error.name is None or error.name.split(".")[0] != top:
            raise
        # ``from None``: the participant reads which extra to install, not the import chain.
        raise MissingExtra(
            "toolkit.extra_missing", package=top, extra=extra, install=install_hint(extra)
        ) from None
