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


def test_the_check_sees_the_migrations():
    assert len(MIGRATIONS) > 20
