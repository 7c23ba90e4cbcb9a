"""``synthetic.0009`` brings a stored ``gates.u_1_max`` outside 0–1 to its nearest end, and
``synthetic.0010`` a stored ``gates.u_ml_min`` below 0 to 0: the round's settings read again
now that ``scoring.synthetic.config`` refuses such a bound (a ``u_1_max`` below 0 ranked no
release, a ``u_ml_min`` below 0 gated nothing, as 0 does); a bound inside, another gate, and
a round of another kind keep their values. On a database of its own migrated forward from
nothing (``tests.history``)."""

import pytest

from scoring.synthetic.config import parse_config
from tests.history import history_database, old_world

pytestmark = pytest.mark.django_db

BEFORE = [("synthetic", "0008_voided_uploads")]
AFTER = [("synthetic", "0009_u_1_max_a_share")]
LAST = [("synthetic", "0010_u_ml_min_not_negative")]
COLUMNS = {"y": "categorical"}


def migrate(history, targets):
    """``history.migrate`` with the squashes standing in for what they replace: this app's
    late migrations depend on a squash and on a migration it replaces at once, which only the
    squashed graph (``manage.py migrate``'s) resolves."""
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(history.connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def gates(u_1_max, u_ml_min=0.5) -> dict:
    return {"u_ml_min": u_ml_min, "u_1_max": u_1_max, "r_copy_excess_max": 0.3}


def gates_migrated(before, after, made: dict) -> dict:
    """Rounds made at ``before`` (``made``: slug → (kind, gates)), migrated to ``after``:
    their gates there (slug → gates); each synthetic round's settings read again."""
    with history_database() as history:
        apps = migrate(history, before)
        world = old_world(history, apps)
        rounds = history.objects(apps, "competitions", "Round")
        pks = {
            slug: rounds.create(
                competition_id=world.competition,
                kind=kind,
                name=slug,
                slug=slug,
                config={"columns": COLUMNS, "label": "y", "gates": stored},
            ).pk
            for slug, (kind, stored) in made.items()
        }
        apps = migrate(history, after)
        rounds = history.objects(apps, "competitions", "Round")
        configs = {slug: rounds.get(pk=pk).config for slug, pk in pks.items()}
    for slug, config in configs.items():
        if made[slug][0] == "synthetic":
            parse_config(config)  # reads again
    return {slug: config["gates"] for slug, config in configs.items()}


def test_a_stored_u_1_bound_outside_a_share_is_brought_to_its_end():
    made = {
        "below": ("synthetic", gates(-0.5)),
        "above": ("synthetic", gates(3)),
        "inside": ("synthetic", gates(0.25)),
        "dp": ("dp", gates(-0.5)),
    }
    assert gates_migrated(BEFORE, AFTER, made) == {
        "below": gates(0.0),
        "above": gates(1.0),
        "inside": gates(0.25),
        "dp": gates(-0.5),
    }


def test_a_stored_u_ml_bound_below_zero_is_brought_to_zero():
    made = {
        "below": ("synthetic", gates(0.1, u_ml_min=-2)),
        "zero": ("synthetic", gates(0.1, u_ml_min=0)),
        "inside": ("synthetic", gates(0.1, u_ml_min=0.8)),
        "dp": ("dp", gates(0.1, u_ml_min=-2)),
    }
    assert gates_migrated(AFTER, LAST, made) == {
        "below": gates(0.1, u_ml_min=0.0),
        "zero": gates(0.1, u_ml_min=0),
        "inside": gates(0.1, u_ml_min=0.8),
        "dp": gates(0.1, u_ml_min=-2),
    }
