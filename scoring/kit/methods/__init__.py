"""Anonymization methods of the starter kit (spec indicators-and-kit.md B.1–B.3).

Every method takes the current table (text cells, as :func:`scoring.read_table`
returns) and the round configuration, returns a new table with the same header, the
same rows in the same order, deleted rows all empty and every value a valid
submission value; so methods chain, and the result of a chain is a submission. Options
are keyword-only; random methods take ``seed`` (an int, or a shared
``numpy.random.Generator``) and draw in row order. Deleted rows stay deleted and are
never drawn for.

The methods are grouped by what they do to a table: :mod:`~scoring.kit.methods.removal`
(rows blanked), :mod:`~scoring.kit.methods.recoding` (values recoded),
:mod:`~scoring.kit.methods.noise` (values perturbed), :mod:`~scoring.kit.methods.in_class`
(values moved inside QI classes) and :mod:`~scoring.kit.methods.microaggregation` (MDAV);
import them from here. Generalization by hierarchy is :mod:`scoring.kit.hierarchy`, and
the registry of every method by name is :mod:`scoring.kit.registry`.

BANK, the spec's ten-row worked example (B.4), is used by the doctests:

>>> from scoring.kit._examples import bank, bank_config
>>> top_bottom_coding(bank(), bank_config(), column="deposit", bottom=80, top=500)[
...     "deposit"].tolist()
['80', '80', '120', '200', '150', '300', '420', '380', '500', '500']
"""

from scoring.kit.methods.in_class import sa_class_mean, swap_in_class, yamaoka
from scoring.kit.methods.microaggregation import mdav, mdav_groups
from scoring.kit.methods.noise import (
    laplace_ldp,
    randomized_response,
    randomized_response_probability,
    sa_noise,
)
from scoring.kit.methods.recoding import qi_unify, top_bottom_coding
from scoring.kit.methods.removal import delete_outliers, delete_random, delete_rows, remove_record

__all__ = [
    "delete_outliers",
    "delete_random",
    "delete_rows",
    "laplace_ldp",
    "mdav",
    "mdav_groups",
    "qi_unify",
    "randomized_response",
    "randomized_response_probability",
    "remove_record",
    "sa_class_mean",
    "sa_noise",
    "swap_in_class",
    "top_bottom_coding",
    "yamaoka",
]
