"""Every kind's rounds go through the competition's lifecycle alike: a bundle carries the
round in every state and gives it back equal, publishing goes through the kind's console
action, and the results archive holds no secret the organizer did not tick.

Run once per registered kind and per test-only kind (``tests/kinds/conftest.py``)."""

import datetime as dt
import io
import json
import re
import zipfile
import zoneinfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from pwscup.archives.services import archive_publish
from pwscup.bundles.services import competition_clone, competition_export, competition_import
from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import round_core_update
from pwscup.console.services import console_team_disqualify, console_team_reinstate
from pwscup.kinds import kind_of
from pwscup.kinds.archives import SECRETS
from pwscup.kinds.two_sided import TwoSidedKind
from tests.kinds.players import creator
from tests.pwscup.bundle_helpers import rebuilt
from tests.pwscup.rendered_forms import post_as_rendered

STATES = ("open", "closed", "published")
# The archive's ranking tables, by name (leaderboard.csv, attack_ranking.csv, final_*.csv);
# an attack matrix keeps a disqualified team's row (docs/organizers.md).
RANKINGS = ("leaderboard", "ranking", "final_")


def play(player, arena, state: str) -> None:
    """Bring the arena's round to ``state``, with a checked upload of team A."""
    player.submit(arena, "a", player.valid(arena, 1))
    player.run_jobs()
    if state in ("closed", "published"):
        player.close(arena)
    if state == "published":
        player.publish(arena)
        player.run_jobs()


def manifest(bundle: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        return json.loads(archive.read("manifest.json"))


@pytest.mark.parametrize("state", STATES)
def test_a_bundle_gives_the_round_back_equal_in_every_state(player, arena_of, state):
    arena = arena_of()
    play(player, arena, state)
    exported = competition_export(competition=arena.competition, user=arena.organizer)
    copy = competition_import(
        bundle_file=io.BytesIO(exported),
        name="Copy",
        slug=f"copy-{state}",
        start=timezone.now() + dt.timedelta(days=30),
        user=creator(arena.organizer),
    )
    (round_,) = copy.rounds.all()
    assert (round_.kind, round_.slug) == (arena.round.kind, arena.round.slug)
    again = competition_export(competition=copy, user=arena.organizer)
    assert manifest(again)["rounds"] == manifest(exported)["rounds"]
    # A bundle carries settings, never what was published.
    assert not kind_of(round_).results_published(round_)


def test_a_bundle_carries_the_reset_hour_and_an_older_one_imports_at_midnight(player, arena_of):
    """The hour the daily limits reset at is the core's, for every kind: exported, imported
    and cloned with the round; a bundle written before the setting (no ``quota_reset_hour``)
    imports with midnight."""
    arena = arena_of()
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
    exported = competition_export(competition=arena.competition, user=arena.organizer)
    (entry,) = manifest(exported)["rounds"]
    assert (entry["timezone"], entry["quota_reset_hour"]) == ("Asia/Tokyo", 9)
    user = creator(arena.organizer)
    start = timezone.now() + dt.timedelta(days=30)

    def imported(data: bytes, slug: str):
        copy = competition_import(
            bundle_file=io.BytesIO(data), name="Copy", slug=slug, start=start, user=user
        )
        return copy.rounds.get()

    assert imported(exported, "copy-nine").quota_reset_hour == 9
    older = rebuilt(exported, change=lambda m: m["rounds"][0].pop("quota_reset_hour"))
    assert imported(older, "copy-older").quota_reset_hour == 0
    clone = competition_clone(
        competition=arena.competition, name="Clone", slug="clone", start=start, user=user
    )
    assert clone.rounds.get().quota_reset_hour == 9


def windows(round_) -> list[tuple]:
    """The round's schedule (``RoundKind.schedule_lines``): each window's label, its length
    (``None`` without an opening) and its close's offset from the first line's."""
    lines = kind_of(round_).schedule_lines(round_)
    first = next((line["opens_at"] or line["closes_at"] for line in lines), None)
    return [
        (
            line["label"],
            line["closes_at"] - line["opens_at"] if line["opens_at"] else None,
            line["closes_at"] - first,
        )
        for line in lines
    ]


def test_a_round_published_before_it_opened_imports_and_clones(player, arena_of):
    """Publishing closes the windows still to come: one that had not opened yet closes at
    its opening. The bundle gives it a length (docs/bundles.md), so next year's copy, as an
    import or as a clone, has windows of positive length in the same order."""
    arena = arena_of()
    player.postpone(arena)
    player.publish(arena)
    player.run_jobs()
    arena.round.refresh_from_db()
    exported = competition_export(competition=arena.competition, user=arena.organizer)
    organizer = creator(arena.organizer)
    start = timezone.now() + dt.timedelta(days=30)
    imported = competition_import(
        bundle_file=io.BytesIO(exported), name="", slug="next", start=start, user=organizer
    )
    cloned = competition_clone(
        competition=arena.competition, name="", slug="next-clone", start=start, user=organizer
    )
    source = windows(arena.round)
    for copy in (imported, cloned):
        (round_,) = copy.rounds.all()
        copied = windows(round_)
        assert [line[0] for line in copied] == [line[0] for line in source]
        lengths = [length for _label, length, _close in copied if length is not None]
        assert all(length > dt.timedelta(0) for length in lengths), copied
        closes = [close for _label, _length, close in copied]
        assert closes == sorted(closes) and len(set(closes)) == len(closes), copied
        opens = [line["opens_at"] for line in kind_of(round_).schedule_lines(round_)]
        assert [at for at in opens if at is not None] == sorted(at for at in opens if at)
        again = competition_export(competition=copy, user=arena.organizer)
        assert manifest(again)["rounds"] == manifest(exported)["rounds"]


def test_publishing_goes_through_the_kind_and_is_reported(player, arena_of):
    arena = arena_of()
    play(player, arena, "closed")
    kind = kind_of(arena.round)
    # Every kind played here has a publication step: False before it, True after (None is a
    # kind without one, RoundKind.results_published, which this test could not tell).
    assert kind.results_published(arena.round) is False
    player.publish(arena)
    player.run_jobs()  # a kind may publish in a job (the 2015 game's round operation)
    arena.round.refresh_from_db()
    assert kind.results_published(arena.round) is True
    if isinstance(kind, TwoSidedKind):  # the hooks its declared lifecycle answers
        assert kind.round_note(arena.round) == "Results published"
        summary = [{"label": "Results", "url": kind.results_url(arena.round)}]
        assert [
            {**link, "label": str(link["label"])} for link in kind.results_summary(arena.round)
        ] == summary


def test_the_archive_holds_no_secret_that_was_not_ticked(player, arena_of):
    arena = arena_of()
    play(player, arena, "published")
    kind = kind_of(arena.round)
    untouched = kind.archive_members(arena.round, secrets=frozenset())
    assert all(member.secret == "" for member in untouched)
    everything = kind.archive_members(arena.round, secrets=frozenset(SECRETS))
    assert {m.name for m in untouched} <= {m.name for m in everything}
    assert all(member.secret in ("", *SECRETS) for member in everything)
    archive = archive_publish(competition=arena.competition, secrets=[], user=arena.organizer)
    with archive.file.open("rb") as handle, zipfile.ZipFile(handle) as zipped:
        names = zipped.namelist()
    secret_names = {m.name for m in everything if m.secret}
    assert not [name for name in names if name.rsplit("/", 1)[-1] in secret_names]


def test_a_disqualified_team_leaves_the_results_until_reinstated(player, arena_of, client):
    arena = arena_of()
    player.play_results(arena, "ab")
    player.close(arena)
    player.publish(arena)
    player.run_jobs()
    kind = kind_of(arena.round)
    board = kind.results_url(arena.round)
    client.force_login(arena.users["b"])  # the page names team B in its header, not team A

    def seen() -> tuple[bool, bool]:
        members = kind.archive_members(arena.round, secrets=frozenset())
        boards = [m.content for m in members if any(word in m.name for word in RANKINGS)]
        page = client.get(board)
        assert page.status_code == 200
        # An attack matrix (and the synthetic kind's ROC curves, its attacks drawn) keeps team
        # A's target and attacks, marked (test_matrix_conform.py): the rest is the rankings.
        rankings = re.sub(rb'data-testid="matrix".*?</table>', b"", page.content, flags=re.S)
        rankings = re.sub(rb'data-testid="roc-curves".*?</section>', b"", rankings, flags=re.S)
        return b"Team A" in rankings, any(b"Team A" in content for content in boards)

    assert seen() == (True, True)
    console_team_disqualify(user=arena.organizer, team=arena.teams["a"], reason="Two accounts")
    assert seen() == (False, False)
    console_team_reinstate(user=arena.organizer, team=arena.teams["a"])
    assert seen() == (True, True)


def signed_in(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


# The audit detail of a window ended before its opening, and how the console's log reads it.
ENDED_EARLY = "ended_before_opening"
ENDED_EARLY_READ = {"en": "Ended before its planned opening", "ja": "開始前に終了（予定の開始）"}


def test_an_action_ending_a_window_not_open_yet_is_done_only_with_the_box(player, arena_of):
    """Each console action of ``Player.window_ends`` ends the round's first upload window (a
    freeze, a close). Before that window opens, posted as rendered, it is refused in both
    languages with the core's words and changes nothing; with the confirmation's box *end it
    before it opens* ticked, it is done and its audit line keeps the opening it cut short.
    No other action offered then ends a window not open yet."""
    for name in player.window_ends:
        arena = arena_of()
        player.postpone(arena)
        with translation.override("en"):  # the English refusal names it (a page read in ja)
            first = kind_of(arena.round).schedule_lines(arena.round)[0]
        opens, zone = first["opens_at"], arena.round.timezone
        at = f"{opens.astimezone(zoneinfo.ZoneInfo(zone)):%Y-%m-%d %H:%M} ({zone})"
        url = reverse("console:round_action", args=[arena.competition.slug, arena.round.slug, name])
        for language, words in (
            ("en", f"{first['label']} opens at {at}: ended now, it would never take an upload."),
            ("ja", "いま終えると、アップロードを一度も受け付けません。何も行っていません。"),
        ):
            client = signed_in(arena.organizer, language)
            refused = post_as_rendered(client, url, f"confirm-{name}")
            assert refused.status_code == 302
            assert words in client.get(refused.url).content.decode(), (name, language)
        assert not AuditEntry.objects.filter(
            round=arena.round, detail__has_key=ENDED_EARLY
        ).exists()
        page = client.get(url).content.decode()
        assert 'data-testid="end-early"' in page and 'data-testid="before-opening"' in page
        client = signed_in(arena.organizer)
        done = post_as_rendered(client, url, f"confirm-{name}", {"early": True})
        assert 'class="error"' not in client.get(done.url).content.decode(), name
        player.run_jobs()
        line = AuditEntry.objects.filter(round=arena.round, detail__has_key=ENDED_EARLY).get()
        assert line.detail[ENDED_EARLY] == opens.isoformat()
        # The log says the window ended before that opening (it read "Opens: …", as if to come).
        console = reverse("console:round", args=[arena.competition.slug, arena.round.slug])
        for language, label in ENDED_EARLY_READ.items():
            log = signed_in(arena.organizer, language).get(console).content.decode()
            assert f"{label}: <time" in log, (name, language)
        arena.round.refresh_from_db()
        # Ended, the window is over in every schedule, not still to come (it said upcoming).
        ended = kind_of(arena.round).schedule_lines(arena.round)[0]["state"]
        assert ended in ("closed", "frozen"), (name, ended)
        assert ending_actions(arena.round) == set(), name
    arena = arena_of()
    player.postpone(arena)
    assert ending_actions(arena.round) == set(player.window_ends)


def ending_actions(round_) -> set[str]:
    """The console actions offered now that end an upload window not open yet."""
    now = timezone.now()
    ends = {
        name: action.ends(round=round_)
        for name, action in kind_of(round_).console_actions(round_).items()
        if action.ends is not None
    }
    return {
        name
        for name, window in ends.items()
        if window is not None and window.opens_at is not None and now < window.opens_at
    }
