"""The suite's migrated template databases (``tests/migrated.py``): one per set of inputs (the
migration files among them), and a build for other inputs drops only a template no other
tree has used for hours, so two clones on different migrations keep their templates."""

import json
import time
import uuid

import psycopg
from django.conf import settings

from tests import migrated
from tests.migrated import PREFIX, STALE_AFTER, templates_to_drop

NOW = 1_000_000_000.0
TREE = "/tmp/this-tree"
KEEP = PREFIX + "k" * 16


def _name(letter: str) -> str:
    return PREFIX + letter * 16


def _uses(**ages) -> str:
    """A template's comment: the trees (keyword ``a`` is tree ``/tmp/a``) and how many
    seconds ago each used it (``this`` is this tree)."""
    trees = {(TREE if tree == "this" else f"/tmp/{tree}"): NOW - age for tree, age in ages.items()}
    return json.dumps(trees)


def test_the_template_name_holds_a_digest_of_the_migration_files(tmp_path, monkeypatch):
    (tmp_path / "pwscup" / "app" / "migrations").mkdir(parents=True)
    (tmp_path / "pwscup" / "settings").mkdir(parents=True)
    migration = tmp_path / "pwscup" / "app" / "migrations" / "0001_initial.py"
    migration.write_text("operations = []\n")
    monkeypatch.setattr(migrated, "ROOT", tmp_path)
    first = migrated.inputs_digest()
    migration.write_text("operations = [1]\n")
    changed = migrated.inputs_digest()
    (tmp_path / "pwscup" / "app" / "migrations" / "0002_more.py").write_text("")
    added = migrated.inputs_digest()
    assert len({first, changed, added}) == 3


def test_a_template_another_tree_used_lately_stays():
    templates = {
        _name("a"): _uses(other=60),  # another tree's run started a minute ago
        _name("b"): _uses(this=60, other=STALE_AFTER - 60),
    }
    assert templates_to_drop(templates, keep=KEEP, tree=TREE, now=NOW) == []


def test_this_trees_former_template_and_long_unused_ones_go():
    templates = {
        _name("a"): _uses(this=60),  # this tree's former migrations
        _name("b"): _uses(other=STALE_AFTER + 60),
        _name("c"): _uses(this=10, other=STALE_AFTER + 1),
        KEEP: _uses(other=STALE_AFTER + 60),  # the one being used stays
        _name("d") + "_building": _uses(other=STALE_AFTER + 60),  # another build's scratch
    }
    dropped = templates_to_drop(templates, keep=KEEP, tree=TREE, now=NOW)
    assert dropped == [_name("a"), _name("b"), _name("c")]


def test_a_template_with_no_recorded_use_stays():
    templates = {_name("a"): None, _name("b"): "not json", _name("c"): "[]"}
    assert templates_to_drop(templates, keep=KEEP, tree=TREE, now=NOW) == []


def test_the_uses_are_recorded_on_the_server_and_read_back():
    """On PostgreSQL: a template none is recorded on is stamped (by an unknown tree, now) and
    kept; one only this tree used is dropped; one another tree used lately is kept."""
    shared = settings.DATABASES["default"]
    token = uuid.uuid4().hex[:8]
    names = {key: PREFIX + f"{key}{token}".ljust(16, "0") for key in ("new", "mine", "theirs")}
    keep = PREFIX + f"keep{token}".ljust(16, "0")
    with psycopg.connect(**migrated.connection_options(shared), autocommit=True) as conn:
        try:
            for name in names.values():
                conn.execute(f'CREATE DATABASE "{name}"')
            migrated._stamp(conn, names["mine"], None, tree=str(migrated.ROOT), now=NOW)
            migrated._stamp(conn, names["theirs"], None, tree="/tmp/other", now=time.time())
            known = dict(conn.execute(migrated._TEMPLATES, [PREFIX + f"%{token}%"]).fetchall())
            migrated._stale_dropped(conn, known, keep=keep)
            left = dict(conn.execute(migrated._TEMPLATES, [PREFIX + f"%{token}%"]).fetchall())
        finally:
            for name in names.values():
                conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
    assert set(left) == {names["new"], names["theirs"]}
    assert set(migrated.template_uses(left[names["new"]])) == {migrated.UNKNOWN_TREE}
    assert set(migrated.template_uses(left[names["theirs"]])) == {"/tmp/other"}
