"""Every kind's live status: a team's poll is answered 304 while nothing of its jobs
changed, from one indexed read and without rendering anything, and 200 once an upload is
kept or its job moves (the job state machine bumps the version, whatever the kind).

Run once per registered kind and per test-only kind (``tests/kinds/conftest.py``)."""

from django.db import connection
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

AUTH_TABLES = ('"django_session"', '"auth_user"')


def poll(client, url: str, etag: str | None):
    headers = {"if-none-match": etag} if etag else {}
    return client.get(url, headers={"x-requested-with": "fetch", **headers})


def test_the_poll_is_a_304_from_one_read_until_a_job_moves(player, arena_of, client):
    arena = arena_of()
    client.force_login(arena.users["a"])
    url = reverse("live_team", args=[arena.competition.slug, arena.round.slug])
    first = poll(client, url, None)
    assert first.status_code == 200 and first["ETag"]
    rendered = []

    def record(sender, template, **kwargs):
        rendered.append(template.name)

    template_rendered.connect(record)
    try:
        with CaptureQueriesContext(connection) as queries:
            unchanged = poll(client, url, first["ETag"])
    finally:
        template_rendered.disconnect(record)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert rendered == []
    reads = [q["sql"] for q in queries if not any(t in q["sql"] for t in AUTH_TABLES)]
    assert len(reads) == 1 and "liveversion" in reads[0].lower(), reads
    # An upload kept (QUEUED), then its job run: each is a change the next poll sees.
    player.submit(arena, "a", player.valid(arena, 1))
    queued = poll(client, url, first["ETag"])
    assert queued.status_code == 200 and queued["ETag"] != first["ETag"]
    assert poll(client, url, queued["ETag"]).status_code == 304
    player.run_jobs()
    scored = poll(client, url, queued["ETag"])
    assert scored.status_code == 200 and scored["ETag"] != queued["ETag"]
    # Another team's jobs are not mine.
    player.submit(arena, "b", player.valid(arena, 2))
    assert poll(client, url, scored["ETag"]).status_code == 304
