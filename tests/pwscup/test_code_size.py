"""The house's size rules (docs/architecture.md, "Where code goes"), checked on every module
of the product: ``pwscup/`` and ``scoring/`` (migrations and the kits' templates apart).

* No module over 400 lines: past that it holds two things.
* No function over 80 lines of code (its docstring not counted: the examples and the
  parameters a scoring function documents are its manual, not its logic) unless its
  docstring gives the reason in a paragraph starting ``Over 80 lines:``.
"""

import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MODULE_LINES = 400
FUNCTION_LINES = 80
REASON = "Over 80 lines:"


def product_modules() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "pwscup/*.py", "scoring/*.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [
        ROOT / name for name in listed if "/migrations/" not in name and "/templates/" not in name
    ]


def code_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The function's lines, its docstring's apart."""
    lines = function.end_lineno - function.lineno + 1
    first = function.body[0]
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        lines -= first.end_lineno - first.lineno + 1
    return lines


def long_functions(source: str) -> list[tuple[str, int]]:
    """``(name, code lines)`` of each function over the bound without a stated reason."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = code_lines(node)
            if lines > FUNCTION_LINES and REASON not in (ast.get_docstring(node) or ""):
                found.append((node.name, lines))
    return found


def test_the_product_is_found():
    modules = product_modules()
    names = {path.relative_to(ROOT).as_posix() for path in modules}
    assert {"scoring/evaluate.py", "pwscup/kinds/base.py"} <= names
    assert len(modules) > 300


def test_no_module_is_over_400_lines():
    over = {
        path.relative_to(ROOT).as_posix(): lines
        for path in product_modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert over == {}


def test_no_function_is_over_80_lines_without_a_reason():
    over = {
        f"{path.relative_to(ROOT).as_posix()}::{name}": lines
        for path in product_modules()
        for name, lines in long_functions(path.read_text(encoding="utf-8"))
    }
    assert over == {}


def test_the_function_rule_counts_code_and_takes_a_stated_reason():
    # the def line and its body: 80 lines of code
    body = "\n".join(f"    x{k} = {k}" for k in range(FUNCTION_LINES - 1))
    docstring = '    """What it does.\n\n    More.\n    """\n'
    assert long_functions(f"def short():\n{docstring}{body}\n") == []
    assert long_functions(f"def long():\n{docstring}{body}\n    return x0\n") == [
        ("long", FUNCTION_LINES + 1)
    ]
    reason = f'    """What it does.\n\n    {REASON} one table of cases.\n    """\n'
    assert long_functions(f"def long():\n{reason}{body}\n    return x0\n") == []
