"""Reading a page's live-status box as ``static/live.js`` does, and polling it."""

import html
import re

BOX = re.compile(r'data-live-url="([^"]+)" data-live-etag="([^"]*)"')


def live_box(page: str) -> tuple[str, str]:
    """The poll address and the ETag a page embeds (the first live box on it)."""
    found = BOX.search(page)
    assert found, "the page has no live box"
    return html.unescape(found.group(1)), html.unescape(found.group(2))


def poll(client, url: str, etag: str | None):
    """One poll of the script: ``If-None-Match`` with the ETag it knows."""
    headers = {"if-none-match": etag} if etag else {}
    return client.get(url, headers={"x-requested-with": "fetch", **headers})
