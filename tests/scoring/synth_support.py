"""Tiny hand-made populations for the synthetic round's tests."""

from scoring.synthetic.config import parse_config
from scoring.synthetic.population import read_population

# x numeric 0…40 (range 40), c categorical {p, q, r}, y the label {n, y}.
SMALL = b"x,c,y\n0,p,n\n10,q,n\n20,r,y\n30,p,y\n40,q,n\n"


def small_population(**settings):
    config = parse_config(
        {
            "columns": {"x": "numeric", "c": "categorical", "y": "categorical"},
            "label": "y",
            **settings,
        }
    )
    return read_population(SMALL, config)
