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


# The one function allowed a local path: /healthz's free-space reading asks the disk under
# the file storage how full it is (and answers None for a bucket); it reads no kept file.
DISK_PROBES = {"pwscup/core/selectors.py": "media_free_bytes"}


def outside_disk_probe(relative: str, source: str, uses: list[str]) -> list[str]:
    """``uses`` less those inside the file's allowed disk probe, if it has one."""
    probe = DISK_PROBES.get(relative)
    if probe is None:
        return uses
    inside = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == probe:
            inside = set(range(node.lineno, node.end_lineno + 1))
    return [use for use in uses if int(use.split(":")[0]) not in inside]


def test_no_platform_code_reads_a_media_path():
    offenders = {}
    for path in sorted((ROOT / "pwscup").rglob("*.py")):
        if "settings" in path.parts or "templates" in path.parts:
            continue
        relative, source = str(path.relative_to(ROOT)), path.read_text()
        if uses := outside_disk_probe(relative, source, local_only_uses(source)):
            offenders[relative] = uses
    assert offenders == {}


def test_the_disk_probe_is_the_only_exception_and_still_exists():
    source = (ROOT / "pwscup/core/selectors.py").read_text()
    uses = local_only_uses(source)
    assert uses, "the free-space probe no longer reads a local path: drop DISK_PROBES"
    assert outside_disk_probe("pwscup/core/selectors.py", source, uses) == []


def test_the_rule_sees_what_it_forbids():
    assert local_only_uses("open(dataset.file.path)") == ["1: .path"]
    assert local_only_uses("root = settings.MEDIA_ROOT / name") == ["1: MEDIA_ROOT"]
    assert local_only_uses("x = default_storage.path(name)") == ["1: .path"]
    assert local_only_uses("from django.core.files.storage import FileSystemStorage") == [
        "1: FileSystemStorage"
    ]
    assert local_only_uses('"""nothing under MEDIA_ROOT"""\nline.path = "M 0 0"') == []
