"""A browser that keeps pages (``pwscup.accounts.conditional``): a team member's, and the
page as it first gets it, checked as kept."""

from django.test import Client
from django.urls import reverse


def directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


def member_browser(world, letter="a") -> Client:
    """A team member's browser, with its CSRF cookie (a first page made it)."""
    client = Client()
    client.force_login(world.users[letter])
    client.get(reverse("home"))
    return client


def kept(client, url):
    """The page as a browser first gets it: 200, with an ETag it is to revalidate."""
    page = client.get(url)
    assert page.status_code == 200, url
    assert page.has_header("ETag"), url
    assert {"private", "no-cache"} <= directives(page), page["Cache-Control"]
    assert not {"no-store", "public"} & directives(page), page["Cache-Control"]
    return page
