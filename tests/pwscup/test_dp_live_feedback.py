"""``feedback: "live"`` (docs/dp.md, *Live feedback*): in an upload-only round a team sees a
declared upload's L2 and ρs on its level page, and in its list of estimates fetched live,
before the close, with the page saying so; the same upload in a round without the switch
shows no score before the close."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.pwscup.dp_world import TOY_Z, build_dp_world, toy_csv
from tests.pwscup.test_dp_estimates import DECLARED_CONFIG, declare

DECLARATION = {
    "mechanism": "pk_anonymization",
    "groups": [{"attributes": ["gender", "age"], "epsilon": "1"}],
}


def level_pages(world, language="en") -> list[str]:
    client = Client(headers={"accept-language": language})
    client.force_login(world.users["a"])
    address = reverse(
        "dp:level",
        kwargs={
            "competition_slug": world.competition.slug,
            "round_slug": world.round.slug,
            "level": "eps-1",
        },
    )
    pages = [client.get(address), client.get(address + "?fragment=1")]
    assert [p.status_code for p in pages] == [200, 200]
    return [p.content.decode() for p in pages]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_live_round_shows_a_declared_uploads_score_before_the_close(db, language):
    world = build_dp_world(slug="dplivefb", config={**DECLARED_CONFIG, "feedback": "live"})
    assert not world.dp_round.has_closed(timezone.now())
    kept = declare(world, toy_csv(), DECLARATION)
    for page in level_pages(world, language):
        assert f'data-testid="dp-live-score-{kept.pk}"' in page
        assert "(L2 0.0000, ρ<sub>s</sub> 1.0000)" in page
        assert 'data-testid="dp-live-feedback"' in page
        assert ("即時フィードバック" if language == "ja" else "live feedback") in page


def test_without_the_switch_the_same_upload_shows_no_score_before_the_close(db):
    world = build_dp_world(slug="dpnolive", config=DECLARED_CONFIG)
    kept = declare(world, toy_csv(), DECLARATION)
    assert "mean_l2" not in (kept.scores or {})
    for page in level_pages(world):
        assert "dp-live-score" not in page and "dp-live-feedback" not in page
        assert "you see only the format check: no score" in page


def test_a_declared_laplace_upload_is_labelled_in_the_readers_language(db):
    """The method label of declared Laplace counts is words, not a code: in Japanese on a
    Japanese page, as it was stored on an English one."""
    world = build_dp_world(slug="dplivelap", config={**DECLARED_CONFIG, "feedback": "live"})
    counts = "target,gender,age,count\n" + "".join(
        f"gender_age,{g},{a},{v}\n"
        for (g, a), v in zip(
            [(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")], TOY_Z, strict=True
        )
    )
    kept = declare(world, counts.encode(), {"mechanism": "laplace", "targets": {"gender_age": "1"}})
    assert kept.method == "declared Laplace"
    for page in level_pages(world, "ja"):
        assert (
            f'<td class="method">申告された Laplace <small data-testid="dp-live-score-{kept.pk}">'
            in page
        )
        assert "declared Laplace" not in page
    assert all('<td class="method">declared Laplace ' in page for page in level_pages(world, "en"))
