"""What a browser reads from a page, for the benchmarks that drive pages without one: its
links, its forms (action, method, enctype, every named field with its value or choices) and
the live box (``data-live-url``, ``data-live-etag``, ``data-fragment-url``; static/live.js).

A benchmark posts to the action a page's form gives and follows the links a page shows, never
to an address of its own: a moved form, tab or box breaks its smoke run in the test suite, not
a benchmark nobody runs (benchmarks/README.md)."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urljoin


class PageReader(HTMLParser):
    """A page's links (by ``data-testid``), forms, messages and live box.

    A form's ``defaults`` are what a browser sends when nobody touches the form: each text
    field's value, each select's selected (else first) option, the checked boxes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self.links: dict[str, str] = {}  # data-testid -> href
        self.messages: list[tuple[str, str]] = []  # (tags, text) of the page's messages
        self.live: dict | None = None
        self._select: str | None = None
        self._message: list | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append(
                {
                    "testid": attrs.get("data-testid") or "",
                    "action": attrs.get("action") or "",
                    "method": (attrs.get("method") or "get").lower(),
                    "enctype": attrs.get("enctype") or "",
                    "hidden": {},
                    "file": None,
                    "fields": {},  # name -> its choices (a select, checkboxes) or [its value]
                    "defaults": {},
                }
            )
        elif tag == "a" and attrs.get("data-testid") and attrs.get("href"):
            self.links.setdefault(attrs["data-testid"], attrs["href"])
        elif tag == "input" and self.forms:
            kind, name = (attrs.get("type") or "text").lower(), attrs.get("name")
            form = self.forms[-1]
            if kind == "hidden" and name:
                form["hidden"][name] = attrs.get("value") or ""
            elif kind == "file" and name:
                form["file"] = name
            elif name and kind not in ("submit", "button", "reset"):
                value = attrs.get("value") or ""
                form["fields"].setdefault(name, []).append(value)
                if kind == "checkbox" and "checked" in attrs:
                    form["defaults"].setdefault(name, []).append(value)
                elif kind not in ("checkbox", "radio") or "checked" in attrs:
                    form["defaults"][name] = value
        elif tag == "select" and self.forms:
            self._select = attrs.get("name")
            if self._select:
                self.forms[-1]["fields"].setdefault(self._select, [])
        elif tag == "option" and self.forms and self._select:
            value = attrs.get("value") or ""
            self.forms[-1]["fields"][self._select].append(value)
            if "selected" in attrs or self._select not in self.forms[-1]["defaults"]:
                self.forms[-1]["defaults"][self._select] = value
        elif tag == "li" and attrs.get("data-testid") == "message":
            self._message = [attrs.get("class") or "", ""]
        if "data-live-url" in attrs and self.live is None:
            self.live = {
                "url": attrs["data-live-url"],
                "etag": attrs.get("data-live-etag"),
                "fragment": attrs.get("data-fragment-url"),
            }

    def handle_data(self, data):
        if self._message is not None:
            self._message[1] += data

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "li" and self._message is not None:
            self.messages.append((self._message[0], self._message[1].strip()))
            self._message = None


def read_page(html: str) -> PageReader:
    reader = PageReader()
    reader.feed(html)
    return reader


def upload_form(page_url: str, html: str) -> dict | None:
    """The page's upload form (a POST form with a file input), its action made absolute."""
    for form in read_page(html).forms:
        if form["method"] == "post" and form["file"]:
            return {**form, "action": urljoin(page_url, form["action"] or page_url)}
    return None


def page_form(page_url: str, html: str, testid: str) -> dict | None:
    """The page's form of that ``data-testid``, its action made absolute."""
    for form in read_page(html).forms:
        if form["testid"] == testid:
            return {**form, "action": urljoin(page_url, form["action"] or page_url)}
    return None


def page_link(page_url: str, html: str, testid: str) -> str | None:
    """The address of the page's link of that ``data-testid``, made absolute."""
    href = read_page(html).links.get(testid)
    return None if href is None else urljoin(page_url, href)


def logged_in(base: str, username: str, password: str, *, timeout: float = 60):
    """A browser (a ``requests.Session``) logged in through the login page's own form (its
    action and hidden fields as the page gives them). ``SystemExit`` when it is not."""
    import requests

    browser = requests.Session()
    login = base + "/accounts/login/"
    page = browser.get(login, timeout=timeout)
    form = next(f for f in read_page(page.text).forms if "password" in f["fields"])
    answer = browser.post(
        urljoin(login, form["action"] or login),
        {**form["hidden"], "username": username, "password": password},
        headers={"Referer": login},
        timeout=timeout,
    )
    if "sessionid" not in browser.cookies:
        raise SystemExit(f"could not log in as {username} ({answer.status_code})")
    return browser
