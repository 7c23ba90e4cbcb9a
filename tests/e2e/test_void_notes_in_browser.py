"""A team reads why its upload was voided on a phone: in every table of its uploads (the
Submit tabs of the scorer, synthetic and sequential kinds, PWSCup 2015's tables and attacks)
the note sits in a row of its own under the upload's, held at the scroll box's left edge, so
at 390 px the whole reason lies within the screen however far the table runs to the right;
on a laptop (1280 px) the note's row does not widen the table."""

import pytest
from django.utils import timezone

from tests.e2e.helpers import NEWCOMER_VIEWS, keep_screenshot, log_in_by_cookie

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

REASON = "ルール変更（9/7）より前に送られたアップロードのため、運営者が無効にしました"


def void(*uploads) -> None:
    for upload in uploads:
        type(upload).objects.filter(pk=upload.pk).update(
            voided_at=timezone.now(), void_reason=REASON
        )


def scorer_page():
    """Team C's Submit tab: a release of its own and an attack, both voided."""
    from pwscup.scorer.models import Release
    from pwscup.submissions.models import Status
    from tests.pwscup.test_scorer_voids import played

    world, attacks = played()
    own = Release.objects.create(
        scorer=world.scorer, team=world.teams["c"], number=1, status=Status.FINISHED
    )
    void(own, attacks["c1"])
    return world.users["c"], world.round, "submit", 2


def synthetic_page():
    """Team A's Submit tab: its scored release, voided."""
    from tests.pwscup.syn_world import baseline_release, release, syn_world

    world = syn_world(slug="synnote", letters="ab")
    void(release(world, "a", baseline_release(world, "a")))
    return world.users["a"], world.round, "submit", 1


def sequential_page():
    """Team A's Submit tab: its first release 1, voided."""
    from tests.pwscup.test_seq_voids import batch_world

    world, first, _newest = batch_world()
    void(first)
    return world.users["a"], world.round, "submit", 1


def pwscup2015_pages():
    """Team A's Submit tab (its first table, voided) and team C's Results tab (its attack on
    A's target, voided)."""
    from tests.kinds.pwscup2015.player import shuffled_copy
    from tests.pwscup.factories import freeze, scored, scored_attack, truth_of
    from tests.support import build_world

    world = build_world(slug="notes2015")
    tables = [
        scored(world, letter, content=shuffled_copy(world.original, seed=seed))
        for seed, letter in enumerate("aabc", start=1)
    ]
    on_a = freeze(world)["a"]
    attack = scored_attack(world, "c", on_a, truth_of(on_a))
    void(tables[0], attack)
    return [
        (world.users["a"], world.round, "submit", 1),
        (world.users["c"], world.round, "results", 1),
    ]


def note_boxes(page) -> list[dict]:
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-testid=voided]')).map((note) => {
             const box = note.getBoundingClientRect();
             const shown = note.closest('.scroll').getBoundingClientRect();
             return {left: box.left, right: box.right, text: note.innerText,
                     shown_left: shown.left, shown_right: shown.right};
           })"""
    )


def table_widths(page) -> list[tuple[float, float]]:
    """Each table holding a note: its width, and its width with the notes' rows hidden."""
    return page.evaluate(
        """() => {
             const tables = [...new Set(Array.from(
               document.querySelectorAll('[data-testid=voided]'), (n) => n.closest('table')))];
             const widths = tables.map((t) => [t.getBoundingClientRect().width]);
             const rows = document.querySelectorAll('tr.void-note');
             rows.forEach((row) => { row.style.display = 'none'; });
             tables.forEach((t, i) => widths[i].push(t.getBoundingClientRect().width));
             rows.forEach((row) => { row.style.display = ''; });
             return widths;
           }"""
    )


def test_a_team_reads_its_void_note_without_scrolling_on_a_phone(chromium, live_server):
    from pwscup.kinds.tabs import tab_url

    pages = [scorer_page(), synthetic_page(), sequential_page(), *pwscup2015_pages()]
    for language in ("ja", "en"):
        context = chromium.new_context(base_url=live_server.url, **NEWCOMER_VIEWS[language])
        context.set_default_timeout(30_000)
        width = NEWCOMER_VIEWS[language]["viewport"]["width"]
        try:
            for user, round_, tab, notes in pages:
                page = context.new_page()
                log_in_by_cookie(page, live_server.url, user.username)
                page.goto(tab_url(round_, tab))
                boxes = note_boxes(page)
                where = f"{round_.competition.slug} {tab} at {width} px"
                assert len(boxes) == notes, where
                for box in boxes:
                    assert REASON in box["text"], where
                    # Within the screen, and not cut by the scroll box's edges either.
                    assert 0 <= box["left"] and box["right"] <= width, (where, box)
                    assert box["shown_left"] <= box["left"], (where, box)
                    assert box["right"] <= box["shown_right"], (where, box)
                if language == "en":
                    for with_notes, without in table_widths(page):
                        assert with_notes == pytest.approx(without, abs=0.5), where
                page.get_by_test_id("voided").last.scroll_into_view_if_needed()
                keep_screenshot(page, f"void-note-{round_.competition.slug}-{tab}-{language}")
                page.close()
        finally:
            context.close()
