"""Markdown written by organizers (competition descriptions), rendered safely.

``markdown`` turns the text into HTML; ``nh3`` (the Ammonia sanitizer) then keeps only
harmless tags and attributes: no script, no style, no event handler, no ``javascript:``
link, whatever the text holds.
"""

import markdown as markdown_lib
import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "em", "h1", "h2", "h3", "h4", "h5", "h6",
    "hr", "i", "li", "ol", "p", "pre", "strong", "table", "tbody", "td", "th", "thead", "tr",
    "ul",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}}


def render_markdown(text: str) -> SafeString:
    html = markdown_lib.markdown(text or "", extensions=["tables", "fenced_code", "sane_lists"])
    return mark_safe(  # noqa: S308 - sanitized by nh3 just before
        nh3.clean(
            html,
            tags=ALLOWED_TAGS,
            attributes=ALLOWED_ATTRIBUTES,
            url_schemes={"http", "https", "mailto"},
            link_rel="noopener noreferrer nofollow",
        )
    )
