"""Every kind's pages, as its users reach them: following the links of the round's page, as a
team member, a visitor and an organizer, in Japanese and in English, every page answers
without a server error, in the reader's language, and no answer to a team or a visitor holds
another team's upload or the kind's other secrets (``Player.secrets``).

Run once per registered kind and per test-only kind (``tests/kinds/conftest.py``)."""

import re
from collections import deque

import pytest

from pwscup.competitions.services import round_core_update
from pwscup.kinds.tabs import tab_url

LINK = re.compile(r'(?:href|src|action)="([^"#]+)')
JAPANESE = re.compile(r"[\u3040-\u30ff]")  # kana: a page in Japanese has some
LIMIT = 60


def crawl(client, start: list[str], prefix: str, language: str) -> dict[str, object]:
    """Every page under ``prefix`` reachable by GET from ``start`` (at most ``LIMIT``)."""
    seen, queue, answers = set(start), deque(start), {}
    while queue and len(answers) < LIMIT:
        url = queue.popleft()
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        answers[url] = response
        if "text/html" not in response.get("Content-Type", ""):
            continue
        for link in LINK.findall(response.content.decode(errors="replace")):
            link = link.replace("&amp;", "&")
            if link.startswith(prefix) and link not in seen and "logout" not in link:
                seen.add(link)
                queue.append(link)
    return answers


def round_pages(arena) -> list[str]:
    return [tab_url(arena.round, key) for key in ("overview", "data", "rules", "submit", "results")]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("role", ["team", "visitor", "organizer"])
def test_every_reachable_page_answers_in_the_readers_language_and_keeps_secrets(
    player, arena_of, client, role, language
):
    arena = arena_of()
    for letter, n in (("a", 1), ("b", 2)):
        player.submit(arena, letter, player.valid(arena, n))
    player.run_jobs()
    secrets = player.secrets(arena, "a")
    if role == "team":
        client.force_login(arena.users["a"])
    elif role == "organizer":
        client.force_login(arena.organizer)
    prefix = f"/c/{arena.competition.slug}/{arena.round.slug}/"
    answers = crawl(client, round_pages(arena), prefix, language)
    failed = {url: r.status_code for url, r in answers.items() if r.status_code >= 500}
    assert not failed
    pages = {
        url: r
        for url, r in answers.items()
        if r.status_code == 200 and "text/html" in r.get("Content-Type", "")
    }
    assert pages, "no page of the round was reachable"
    for url, response in pages.items():
        html = response.content.decode()
        assert f'<html lang="{language}">' in html, url
        if language == "ja":
            assert JAPANESE.search(html), f"{url} has no Japanese"
    if role == "organizer":
        return
    for url, response in answers.items():
        body = b"".join(response.streaming_content) if response.streaming else response.content
        leaked = [secret[:40] for secret in secrets if secret in body]
        assert not leaked, f"{url} serves a secret: {leaked}"


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Daily limits reset at 09:00."), ("ja", "1 日の上限は 09:00 にリセットされます。")],
)
def test_every_tab_says_when_the_daily_limits_reset_in_the_rounds_time(
    player, arena_of, client, language, said
):
    """The round's reset hour (a core setting) is on each tab of every kind, as a local time
    beside the round's time zone."""
    arena = arena_of(daily_limit=3)
    round_ = arena.round
    round_core_update(
        user=arena.organizer,
        round=round_,
        name=round_.name,
        slug=round_.slug,
        order=round_.order,
        timezone="Asia/Tokyo",
        quota_reset_hour=9,
    )
    client.force_login(arena.users["a"])
    for url in round_pages(arena):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert said in html and "Asia/Tokyo" in html, url
