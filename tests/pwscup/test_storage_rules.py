"""Every kept file goes through Django's storage API: no platform code reads a media path,
so the same code runs on the local folder and on an S3-compatible bucket."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def local_only_uses(source: str) -> list[str]:
    """What exists on the local folder only: ``settings.MEDIA_ROOT``, a FileSystemStorage
    built by hand, a stored file's ``.path`` or ``storage.path(name)``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "MEDIA_ROOT":
            found.append(f"{node.lineno}: MEDIA_ROOT")
        elif isinstance(node, ast.Name | ast.alias) and "FileSystemStorage" in (
            getattr(node, "id", None) or getattr(node, "name", "")
        ):
            found.append(f"{getattr(node, 'lineno', 0)}: FileSystemStorage")
        elif (
            isinstance(node, ast.Attribute)
            and node.attr == "path"
            and isinstance(node.value, ast.Attribute | ast.Name)
            and (getattr(node.value, "attr", None) or getattr(node.value, "id", "")).endswith(
                ("file", "field", "storage")
            )
        ):
            found.append(f"{node.lineno}: .path")
    return found


def test_no_platform_code_reads_a_media_path():
    offenders = {
        str(path.relative_to(ROOT)): uses
        for path in sorted((ROOT / "pwscup").rglob("*.py"))
        if "settings" not in path.parts and "templates" not in path.parts
        if (uses := local_only_uses(path.read_text()))
    }
    assert offenders == {}


def test_the_rule_sees_what_it_forbids():
    assert local_only_uses("open(dataset.file.path)") == ["1: .path"]
    assert local_only_uses("root = settings.MEDIA_ROOT / name") == ["1: MEDIA_ROOT"]
    assert local_only_uses("x = default_storage.path(name)") == ["1: .path"]
    assert local_only_uses("from django.core.files.storage import FileSystemStorage") == [
        "1: FileSystemStorage"
    ]
    assert local_only_uses('"""nothing under MEDIA_ROOT"""\nline.path = "M 0 0"') == []
