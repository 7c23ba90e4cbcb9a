"""An upload's message reads inside its table's frame, at 390 and 1280 px, in English and
Japanese. Found walking the demo: the scorer round's Submit tab put a refused release's or
attack's reason in a cell right of the status, so on a phone its lines began off the frame's
right edge (a reader scrolled the table sideways for every line); the synthetic round's put
the copy gate's verdict on a scored release in the Gates cell, cut by the frame's right edge
even on a laptop. The message now has a row of its own under the upload's, held at the frame's
left edge as a void note is (``rounds/_message_row.html``)."""

import pytest

from tests.e2e.helpers import PASSWORD, log_in_by_cookie, switch_language
from tests.pwscup import scorer_world as sco
from tests.pwscup import syn_world as syn

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 1280)

# Where the element's box lies across the frame's: [element left, element right, frame left,
# frame right], the frame being the nearest scroll box (``.scroll``) around it.
ACROSS = """e => {
  const box = e.getBoundingClientRect(), frame = e.closest('.scroll').getBoundingClientRect();
  return [box.left, box.right, frame.left, frame.right].map(Math.round); }"""


def inside_frame(element) -> bool:
    left, right, frame_left, frame_right = element.evaluate(ACROSS)
    return frame_left <= left and right <= frame_right


def read_each_view(page, address: str, check) -> None:
    """``check(page, language, width)`` on ``address``, in each language and width."""
    for language in ("en", "ja"):
        page.goto(address)
        switch_language(page, language)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(address)
            check(page, language, width)


def test_a_refused_scorer_upload_s_reason_reads_inside_the_frame(web, live_server, screenshot):
    world = sco.scorer_world(slug="scmsg", password=PASSWORD)
    refused = sco.release(world, "a", b"id,age\np0001,3\n", name="bad.csv")
    assert refused.status == "failed", refused.status
    assert sco.release(world, "b", sco.release_bytes(noise=1)).status == "finished"
    targets = sco.attack_phase(world)
    guess = sco.attack(world, "a", b"x,y\n1,2\n", target=targets["teamb"], name="guess.csv")
    assert guess.status == "failed", guess.status
    log_in_by_cookie(web, live_server.url, world.users["a"].username)

    def check(page, language, width):
        for table in ("releases", "attacks-table"):
            message = page.get_by_test_id(table).get_by_test_id("message")
            assert message.count() == 1, (table, language, width)
            assert inside_frame(message), (table, language, width, message.evaluate(ACROSS))
        screenshot(page, f"scorer-refused-messages-{language}-{width}")

    read_each_view(web, f"/c/scmsg/{world.round.slug}/submit/", check)


def test_the_copy_gate_s_verdict_on_a_scored_release_reads_inside_the_frame(
    web, live_server, screenshot
):
    world = syn.syn_world(slug="synmsg", letters="ab", password=PASSWORD)
    copy = syn.release(world, "a", syn.copy_release(world, "a"))
    assert copy.status == "finished" and copy.message_code, (copy.status, copy.message_code)
    syn.release(world, "a", syn.baseline_release(world, "a"))
    log_in_by_cookie(web, live_server.url, world.users["a"].username)

    def verdict(page, language, width):
        message = page.get_by_test_id(f"release-{copy.pk}").get_by_test_id("message")
        assert inside_frame(message), (language, width, message.evaluate(ACROSS))
        screenshot(page, f"syn-copy-gate-verdict-{language}-{width}")

    read_each_view(web, f"/c/synmsg/{world.round.slug}/submit/", verdict)


def test_the_synthetic_releases_table_fits_a_laptop(web, live_server, screenshot):
    """At 1280 px the table ran 1,556 px wide in its 1,210 px frame (Japanese: 1,644 px): the
    Final column, with its "Make this my final release" button, lay off the frame's right
    edge. Its headers and the gates' figures wrap now; the table fits."""
    world = syn.syn_world(slug="synwide", letters="ab", password=PASSWORD)
    copy = syn.release(world, "a", syn.copy_release(world, "a"))
    assert copy.message_code, copy.status
    kept = [syn.release(world, "a", syn.baseline_release(world, "a", seed=s)) for s in (1, 2)]
    log_in_by_cookie(web, live_server.url, world.users["a"].username)
    address = f"/c/synwide/{world.round.slug}/submit/"
    web.set_viewport_size({"width": 1280, "height": 900})
    for language in ("en", "ja"):
        web.goto(address)
        switch_language(web, language)
        frame = web.get_by_test_id("releases").locator(".scroll")
        assert frame.evaluate("e => [e.scrollWidth, e.clientWidth]") == frame.evaluate(
            "e => [e.clientWidth, e.clientWidth]"
        ), language
        button = web.get_by_test_id(f"select-{kept[0].pk}")
        assert inside_frame(button), (language, button.evaluate(ACROSS))
        screenshot(web, f"syn-releases-laptop-{language}")
