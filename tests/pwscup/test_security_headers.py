"""Content-Security-Policy: every page sends it, and no template needs an inline exception."""

import re

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

TEMPLATES = sorted((settings.BASE_DIR / "templates").rglob("*.html"))
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


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(settings.BASE_DIR)))
def test_no_template_has_inline_script_or_style(path):
    text = path.read_text()
    found = [what for what, pattern in INLINE if pattern.search(text)]
    assert found == [], f"{path.name} has {', '.join(found)}"
