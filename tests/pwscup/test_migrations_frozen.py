"""A migration runs the code of its own time, never the project's code of today.

Django's rule (docs, "Historical models" and "Data migrations"): a data migration reads the
historical models from ``apps`` and keeps any logic it needs as a function of its own. A
migration may still name a project callable in a field's options (``upload_to``, a
``default``, ``bases``): Django serializes those references itself, and they only say which
callable the field uses, they do not run it while migrating.
"""

import ast

import pytest

from tests.support import ROOT

MIGRATIONS = sorted((ROOT / "pwscup").glob("*/migrations/[0-9]*.py"))


def _project_names(tree: ast.Module) -> set[str]:
    """Names the module binds to project code: ``import pwscup.x`` binds ``pwscup``;
    ``from pwscup.x import y`` (or ``from scoring ...``) binds ``y``."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names |= {
                alias.asname or alias.name.split(".")[0]
                for alias in node.names
                if alias.name.split(".")[0] in {"pwscup", "scoring"}
            }
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in {
            "pwscup",
            "scoring",
        }:
            names |= {alias.asname or alias.name for alias in node.names}
    return names


@pytest.mark.parametrize("path", MIGRATIONS, ids=lambda path: f"{path.parts[-3]}/{path.stem}")
def test_no_function_of_a_migration_calls_project_code(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    project = _project_names(tree)
    for function in (node for node in tree.body if isinstance(node, ast.FunctionDef)):
        used = {
            node.id
            for node in ast.walk(function)
            if isinstance(node, ast.Name) and node.id in project
        }
        assert not used, f"{path.name}: {function.name} runs project code {sorted(used)}"


def _managers_without_database(function: ast.FunctionDef) -> list[int]:
    """The lines where ``function`` reads a manager (``X.objects``) without choosing the
    database right away (``X.objects.using(...)``)."""
    chosen = {
        id(node.value)
        for node in ast.walk(function)
        if isinstance(node, ast.Attribute) and node.attr == "using"
    }
    return [
        node.lineno
        for node in ast.walk(function)
        if isinstance(node, ast.Attribute) and node.attr == "objects" and id(node) not in chosen
    ]


@pytest.mark.parametrize("path", MIGRATIONS, ids=lambda path: f"{path.parts[-3]}/{path.stem}")
def test_a_data_migration_writes_to_the_database_being_migrated(path):
    """Django's rule for ``RunPython``: the historical models' managers go through
    ``.using(schema_editor.connection.alias)``, else ``migrate --database=other`` reads and
    writes the default database (and the data migration tests' own database, tests/history.py,
    would not see the rows)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for function in (node for node in tree.body if isinstance(node, ast.FunctionDef)):
        lines = _managers_without_database(function)
        assert not lines, (
            f"{path.name}: {function.name} reads .objects without .using (lines {lines})"
        )


def test_the_database_check_sees_a_manager_used_without_using():
    function = ast.parse(
        "def f(apps, schema_editor):\n"
        "    db = schema_editor.connection.alias\n"
        "    M.objects.using(db).all()\n"
        "    M.objects.filter(x=1).update(x=2)\n"
    ).body[0]
    assert _managers_without_database(function) == [4]


def test_the_check_sees_the_migrations():
    assert len(MIGRATIONS) > 20
