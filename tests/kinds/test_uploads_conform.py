"""Every kind's uploads keep the core's promises (docs/architecture.md, "Uploads"): the size
cap, the daily and total limits, the failed-upload cap, the deadline, the file kept as
uploaded and numbered — the same answers (status and code) whatever the game.

Run once per registered kind and per test-only kind (``tests/kinds/conftest.py``)."""

import datetime as dt
import hashlib
import re
import zoneinfo

import pytest
from django.utils import timezone, translation

from pwscup.competitions.services import round_core_update
from pwscup.core.errors import Refused
from pwscup.kinds import all_kinds, kind_of
from pwscup.submissions.models import Status
from pwscup.submissions.selectors import quota_day_of
from pwscup.submissions.services.windows import format_at
from tests.kinds.conftest import PLAYERS
from tests.kinds.players import HERE


def refusal(player, arena, letter, content) -> Refused:
    with pytest.raises(Refused) as refused:
        player.submit(arena, letter, content)
    return refused.value


def test_every_registered_kind_has_a_player():
    """A new kind is played by this suite as soon as it is registered: its folder here must
    say how (``tests/kinds/<folder>/player.py``)."""
    missing = {kind.key for kind in all_kinds()} - set(PLAYERS)
    assert not missing, f"add tests/kinds/<folder>/player.py for {sorted(missing)}"
    assert any(player.test_only for player in PLAYERS.values()), "the toy kind is missing"


def test_the_upload_is_kept_as_uploaded_and_numbered(player, arena_of):
    arena = arena_of()
    first, second = player.valid(arena, 1), player.valid(arena, 2)
    kept = [player.submit(arena, "a", first), player.submit(arena, "a", second)]
    assert [row.number for row in kept] == [1, 2]
    for row, content in zip(kept, (first, second), strict=True):
        row.refresh_from_db()
        assert row.status == Status.QUEUED
        assert row.size == len(content)
        assert row.sha256 == hashlib.sha256(content).hexdigest()
        with row.file.open("rb") as handle:
            assert handle.read() == content
    # Each team counts its own uploads.
    assert player.submit(arena, "b", first).number == 1
    player.run_jobs()
    assert {row.status for row in player.kept(arena, "a")} == {Status.FINISHED}


def test_a_rejected_upload_is_kept_failed_with_a_message(player, arena_of):
    arena = arena_of()
    content = player.invalid(arena)
    row = player.submit(arena, "a", content)
    player.run_jobs()
    row.refresh_from_db()
    assert row.status == Status.FAILED
    assert row.message.strip()
    with row.file.open("rb") as handle:
        assert handle.read() == content


def test_the_team_is_told_how_each_upload_ended_once(player, arena_of):
    """The bell (and e-mail) of every kind: the uploading team's members, and no one else,
    are told once that an upload was scored (or, for one its job only checks, checked) or
    failed, in each reader's language; a second run of the same job stays silent."""
    from pwscup.notifications.kinds import notification_text
    from pwscup.notifications.models import Notification

    arena = arena_of()
    valid = player.submit(arena, "a", player.valid(arena, 1))
    failed = player.submit(arena, "a", player.invalid(arena))
    player.run_jobs()
    told = Notification.objects.filter(user=arena.users["a"]).order_by("pk")
    ended = "was scored" if type(valid).SCORED_ON_CHECK else "was checked: it is valid"
    with translation.override("en"):
        texts = sorted(notification_text(n) for n in told)
    name = arena.round.name
    assert texts == sorted(
        [
            f"Your upload {valid.original_filename} in {name} {ended}.",
            f"Your upload {failed.original_filename} in {name} failed: the round page says why.",
        ]
    ), texts
    with translation.override("ja"):
        assert all("アップロード" in notification_text(n) for n in told)
    assert not Notification.objects.filter(user=arena.users["b"]).exists()
    type(valid).objects.filter(pk=valid.pk).update(status=Status.QUEUED, started_at=None)
    player.run_jobs()  # the same outcome again: nobody is told twice
    assert Notification.objects.filter(user=arena.users["a"]).count() == 2


def test_the_size_cap_refuses_with_413_and_keeps_nothing(player, arena_of, settings):
    arena = arena_of()
    content = player.valid(arena, 1)
    settings.PWSCUP_MAX_UPLOAD_BYTES = len(content) - 1
    assert refusal(player, arena, "a", content).status == 413
    assert player.kept(arena, "a") == []
    settings.PWSCUP_MAX_UPLOAD_BYTES = len(content)
    assert player.submit(arena, "a", content).number == 1


def test_the_daily_limit_refuses_with_429(player, arena_of):
    arena = arena_of(daily_limit=2)
    for n in (1, 2):
        player.submit(arena, "a", player.valid(arena, n))
    refused = refusal(player, arena, "a", player.valid(arena, 3))
    assert (refused.status, refused.code) == (429, "quota_exceeded")
    assert refused.resets_at is not None
    assert len(player.kept(arena, "a")) == 2
    assert player.submit(arena, "b", player.valid(arena, 1)).number == 1  # per team


def next_nine_in_tokyo() -> dt.datetime:
    """The next 09:00 in Tokyo, at least an hour away: the reset of PWSCup 2024 and 2025."""
    tokyo = zoneinfo.ZoneInfo("Asia/Tokyo")
    soon = (timezone.now() + dt.timedelta(hours=1)).astimezone(tokyo)
    nine = soon.replace(hour=9, minute=0, second=0, microsecond=0)
    return nine if nine >= soon else nine + dt.timedelta(days=1)


@pytest.mark.parametrize("reset_hour", [9, 0])
def test_the_daily_limit_counts_from_the_rounds_reset_hour(
    player, arena_of, monkeypatch, reset_hour
):
    """With the round in Asia/Tokyo and its daily limits reset at 09:00 (PWSCup 2024 and
    2025), an upload at 08:59 and one at 09:01 fall on two quota days; at the default
    (midnight) on one. The round is made and played at those times (the clock moved)."""
    nine = next_nine_in_tokyo()
    clock = {"now": nine - dt.timedelta(minutes=1)}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    arena = arena_of(daily_limit=1)
    round_ = arena.round
    round_core_update(
        user=arena.organizer,
        round=round_,
        name=round_.name,
        slug=round_.slug,
        order=round_.order,
        timezone="Asia/Tokyo",
        quota_reset_hour=reset_hour,
    )
    player.submit(arena, "a", player.valid(arena, 1))  # 08:59
    clock["now"] = nine + dt.timedelta(minutes=1)  # 09:01
    if reset_hour == 9:
        assert player.submit(arena, "a", player.valid(arena, 2)).number == 2
        refused = refusal(player, arena, "a", player.valid(arena, 3))
        resets_at = nine + dt.timedelta(days=1)
    else:
        refused = refusal(player, arena, "a", player.valid(arena, 2))
        resets_at = (nine + dt.timedelta(days=1)).replace(hour=0)
    assert (refused.status, refused.code, refused.resets_at) == (429, "quota_exceeded", resets_at)
    assert format_at("Asia/Tokyo", resets_at) in refused.message
    # The same day the failed-upload cap counts (the core's one rule).
    assert quota_day_of(arena.round).resets_at(clock["now"]) == resets_at


def test_the_total_limit_refuses_with_429(player, arena_of):
    arena = arena_of(total_limit=1)
    player.submit(arena, "a", player.valid(arena, 1))
    refused = refusal(player, arena, "a", player.valid(arena, 2))
    assert (refused.status, refused.code) == (429, "quota_exhausted")
    assert len(player.kept(arena, "a")) == 1


def test_failed_uploads_are_capped_per_day(player, arena_of, settings):
    settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY = 2
    arena = arena_of()
    for _ in range(2):
        player.submit(arena, "a", player.invalid(arena))
    player.run_jobs()
    assert [row.status for row in player.kept(arena, "a")] == [Status.FAILED] * 2
    refused = refusal(player, arena, "a", player.valid(arena, 1))
    assert refused.status == 429
    assert "2 failed uploads today" in refused.message
    assert player.submit(arena, "b", player.valid(arena, 1)).number == 1  # per team


def test_the_deadline_refuses_with_403_and_keeps_nothing(player, arena_of):
    arena = arena_of()
    player.close(arena)
    assert refusal(player, arena, "a", player.valid(arena, 1)).status == 403
    assert player.kept(arena, "a") == []


# The core's one refusal of an upload outside its window (``window_check``), in each language:
# the window's name as the round's schedule shows it, the time in the round's time zone.
OUTSIDE = {
    ("before", "en"): "{window} is not open yet: it opens at {at}.",
    ("before", "ja"): "{window}はまだ始まっていません。{at} に始まります。",
    ("after", "en"): "{window} closed at {at}; uploads are no longer accepted.",
    ("after", "ja"): "{window}は {at} に締め切られました。アップロードはもう受け付けていません。",
}


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("when", ["before", "after"])
def test_an_upload_outside_its_window_is_refused_with_the_cores_message(
    player, arena_of, when, language
):
    """Every kind refuses an upload too early or too late with the same words (naming its
    window and the time), 403, and keeps nothing (the window is checked before the file is
    stored, in every kind)."""
    arena = arena_of()
    if when == "before":
        player.postpone(arena)
    else:
        player.close(arena)
    arena.round.refresh_from_db()
    with translation.override(language):
        line = kind_of(arena.round).schedule_lines(arena.round)[0]
        window = str(line["label"])
        refused = refusal(player, arena, "a", player.valid(arena, 1))
    at = line["opens_at"] if when == "before" else line["closes_at"]
    expected = OUTSIDE[when, language].format(window=window, at=format_at(arena.round.timezone, at))
    assert (refused.status, refused.message) == (403, expected)
    assert player.kept(arena, "a") == []


def naming(*names: str) -> re.Pattern:
    """Any of ``names`` as a whole word, however it is written: in double or single quotes,
    bare, in a URL name (``dicegame:hello``), a path, a dotted name or an identifier
    (``dicegame_round``); not inside a longer word (``dicegames``)."""
    either = "|".join(re.escape(name) for name in names)
    return re.compile(rf"(?<![A-Za-z0-9])(?:{either})(?![A-Za-z0-9])")


@pytest.mark.parametrize(
    "text, named",
    [
        ('kind = "dicegame"', True),
        ("kind = 'dicegame'", True),
        ("{% url 'dicegame:hello' word %}", True),
        ("/c/cup/dicegame/", True),
        ("round.kind == dicegame_key", True),
        ("dicegames are many", False),
        ("mydicegame", False),
    ],
)
def test_the_naming_check_sees_every_way_of_writing_a_key(text, named):
    assert bool(naming("dicegame").search(text)) is named


def test_a_test_only_kind_is_named_only_in_its_folder():
    """Adding the toy kind changed no code outside its folder: no other file of the code or
    the tests names its key or its package (the suite finds it by its folder; the manual may
    describe it)."""
    root = HERE.parents[1]
    code = [root / name for name in ("pwscup", "scoring", "tests", "templates", "static")]
    for player in PLAYERS.values():
        if not player.test_only:
            continue
        package = type(player).__module__.rsplit(".", 1)[0]
        folder = root.joinpath(*package.split("."))
        names = naming(player.key, package, folder.relative_to(root).as_posix())
        outside = [
            f"{path.relative_to(root)}: {found.group()}"
            for top in code
            for path in top.rglob("*")
            if path.suffix in {".py", ".html", ".js", ".txt"} and folder not in path.parents
            for found in names.finditer(path.read_text(errors="replace"))
        ]
        assert not outside, outside
        assert (folder / "kind.py").exists() and (folder / "player.py").exists()


def target_arena_of(player, slug: str):
    if not player.attack_targets:
        pytest.skip(f"{player.key}'s attacks name no target")
    return player.target_arena(slug=slug)


def test_the_limit_per_target_refuses_the_next_attack_on_that_target_only(player):
    """PWSCup 2019: two attacks per target. The third on one target is refused (429, in the
    page's language) and nothing is kept; another target, or another team, is still taken."""
    arena = target_arena_of(player, "tl1")
    player.attack_target_limit_set(arena, 2)
    kept = [player.attack(arena, "a", "b", n) for n in (1, 2)]
    assert [row.number for row in kept] == [1, 2]
    refused = refusal_of(lambda: player.attack(arena, "a", "b", 3))
    assert (refused.status, refused.code) == (429, "target_quota_exhausted")
    assert "2 uploads allowed on this target" in refused.message
    with translation.override("ja"):
        refused_ja = refusal_of(lambda: player.attack(arena, "a", "b", 3))
    assert "攻撃対象" in refused_ja.message and "2" in refused_ja.message
    assert type(kept[0]).objects.filter(team=arena.teams["a"]).count() == 2
    assert player.attack(arena, "a", "c", 1).number == 3  # another target
    assert player.attack(arena, "c", "b", 1).number == 1  # another team


def test_a_failed_attack_costs_nothing_of_the_limit_per_target(player):
    arena = target_arena_of(player, "tl2")
    player.attack_target_limit_set(arena, 1)
    first = player.attack(arena, "a", "b", 1)
    assert refusal_of(lambda: player.attack(arena, "a", "b", 2)).code == "target_quota_exhausted"
    # The worker found the file wrong: a failed upload counts for nothing but its number.
    type(first).objects.filter(pk=first.pk).update(status=Status.FAILED)
    assert player.attack(arena, "a", "b", 2).number == 2
    player.attack_target_limit_set(arena, None)  # no limit: a third is taken
    assert player.attack(arena, "a", "b", 3).number == 3


def test_the_submit_tab_says_what_each_target_has_left(player):
    """The attack form names, per target, the uploads used of the per-target limit (failed
    ones do not count), in the page's language."""
    from django.test import Client

    from pwscup.kinds.tabs import SUBMIT, tab_url

    arena = target_arena_of(player, "tl3")
    player.attack_target_limit_set(arena, 2)
    player.attack(arena, "a", "b", 1)
    failed = player.attack(arena, "a", "c", 1)
    type(failed).objects.filter(pk=failed.pk).update(status=Status.FAILED)
    client = Client()
    client.force_login(arena.users["a"])
    words = {"en": ("1 of 2 used", "0 of 2 used"), "ja": ("2 回中 1 回使用", "2 回中 0 回使用")}
    for language, (one, none) in words.items():
        page = client.get(tab_url(arena.round, SUBMIT), HTTP_ACCEPT_LANGUAGE=language)
        text = re.sub(r"\s+", " ", page.content.decode())
        b, c = arena.teams["b"].name, arena.teams["c"].name
        # Each target's name, then its words before the other target's name.
        assert re.search(rf"{re.escape(b)}(?:(?!{re.escape(c)}).){{0,300}}?{one}", text), language
        assert re.search(rf"{re.escape(c)}(?:(?!{re.escape(b)}).){{0,300}}?{none}", text), language
    player.attack_target_limit_set(arena, None)
    assert "of 2 used" not in client.get(tab_url(arena.round, SUBMIT)).content.decode()


def refusal_of(call) -> Refused:
    with pytest.raises(Refused) as refused:
        call()
    return refused.value
