"""Content-Security-Policy: every page sends it, and no template needs an inline exception."""

import re
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines

pytestmark = pytest.mark.django_db


BASE_DIR = Path(settings.BASE_DIR).resolve()


def project_template_dirs():
    """The folders the template engine searches that this project ships: ``DIRS`` and the
    ``templates`` folder of each of its apps (a round kind keeps its pages in its own folder),
    not those of Django, DRF and the other packages installed in the environment."""
    environment = Path(sys.prefix).resolve()
    for directory in engines["django"].template_dirs:
        path = Path(directory).resolve()
        if path.is_relative_to(BASE_DIR) and not path.is_relative_to(environment):
            yield path


TEMPLATES = sorted(path for folder in project_template_dirs() for path in folder.rglob("*.html"))
INLINE = [
    ("an inline <script> block", re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)),
    ("a <style> block", re.compile(r"<style\b", re.I)),
    ("a style attribute", re.compile(r"\sstyle\s*=", re.I)),
    ("an inline event handler", re.compile(r"\son[a-z]+\s*=", re.I)),
    ("a javascript: URL", re.compile(r"javascript:", re.I)),
]


@pytest.mark.parametrize("url", ["/", "/accounts/login/", "/admin/login/", "/no-such-page/"])
def test_pages_send_a_strict_content_security_policy(client, url):
    policy = client.get(url)["Content-Security-Policy"]
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in policy.split(";") if part.strip()
    )
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_the_templates_are_found():
    assert len(TEMPLATES) >= 10
    # The apps' own template folders are checked too, not only DIRS.
    assert any(not path.is_relative_to(BASE_DIR / "templates") for path in TEMPLATES)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(BASE_DIR)))
def test_no_template_has_inline_script_or_style(path):
    text = path.read_text()
    found = [what for what, pattern in INLINE if pattern.search(text)]
    assert found == [], f"{path.name} has {', '.join(found)}"
