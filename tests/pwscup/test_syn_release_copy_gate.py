"""The copy gate (issue 47) on the platform: a team that uploads its own ``teamX_train.csv``
as its release has it kept and scored (R_copy 1.0000, the utility gates passed), but the
release fails the copy gate, is never the team's final release, cannot be chosen, and the
freeze does not publish it; the message names the gate, the value, its reference (R_copy
against as many holdout rows, what chance copies) and the limit in the reader's language, and
the Submit tab shows the three beside the ✗."""

import html

import pytest
from django.urls import reverse
from django.utils import translation

from pwscup.core.errors import Refused
from pwscup.submissions.models import Status
from pwscup.synthetic import selectors, services
from pwscup.synthetic.kit import team_train_text
from pwscup.synthetic.models import SynRelease, SynTarget
from scoring.display import format_figure
from tests.pwscup.syn_world import baseline_release, freeze, release, syn_world

pytestmark = pytest.mark.django_db


def own_members(world, letter: str) -> bytes:
    """The team's ``teamX_train.csv`` exactly as the kit and the Data tab hand it out."""
    return team_train_text(synthetic=world.synthetic, team=world.teams[letter]).encode()


def test_a_teams_own_members_are_kept_scored_never_final_nor_published(client):
    world = syn_world(slug="syncopy", letters="ab")
    config = world.synthetic.round.config
    copy_a = release(world, "a", own_members(world, "a"))
    assert copy_a.status == Status.FINISHED, copy_a.message
    scores = copy_a.scores
    assert scores["r_copy"] == 1.0 and scores["u_1"] == 0.0 and scores["u_ml"] == 1.0
    assert scores["passes"] is False  # every utility gate passed, the copy gate failed
    # The message writes its figures as the table does (scoring.display).
    reference = format_figure(scores["r_copy_holdout"])
    excess = format_figure(1 - scores["r_copy_holdout"])
    assert 0 <= scores["r_copy_holdout"] < 0.9
    assert copy_a.message_code == "syn.gate.r_copy"
    english, japanese = copy_a.message_in("en"), copy_a.message_in("ja")
    assert "copy gate" in english and "R_copy = 1.0000" in english and "limit 0.1" in english
    assert f"against {reference}" in english and f"excess {excess}" in english
    assert "R_copy = 1.0000" in japanese and "0.1" in japanese and "公開されません" in japanese
    assert reference in japanese and excess in japanese and "ホールドアウト" in japanese
    assert config["gates"]["r_copy_excess_max"] == 0.1

    # Team A's only release fails the gate: it has no final release, and cannot choose it.
    assert selectors.final_release(synthetic=world.synthetic, team=world.teams["a"]) is None
    with pytest.raises(Refused) as refused:
        services.release_select(release=copy_a)
    assert "R_copy = 1.0000" in str(refused.value.message) and "0.1" in str(refused.value.message)
    with translation.override("ja"), pytest.raises(Refused) as refused:
        services.release_select(release=copy_a)
    assert "公開されません" in str(refused.value.message)
    copy_a.refresh_from_db()
    assert copy_a.selected is False

    # Team B: an honest release, then its members verbatim; the honest one stays final.
    honest_b = release(world, "b", baseline_release(world, "b"))
    assert honest_b.status == Status.FINISHED and honest_b.message_code == ""
    copy_b = release(world, "b", own_members(world, "b"))
    assert copy_b.status == Status.FINISHED and copy_b.scores["r_copy"] == 1.0
    final_b = selectors.final_release(synthetic=world.synthetic, team=world.teams["b"])
    assert final_b.pk == honest_b.pk

    # The submit tab: the gate, its message in each language, and no "make final" button.
    client.force_login(world.users["a"])
    submit = reverse("round_tab", args=[world.competition.slug, world.round.slug, "submit"])
    for lang, phrase, footer in (
        ("en", "copy gate", "R_copy(members) − R_copy(holdout) ≤ 0.1"),
        ("ja", "公開されません", "R_copy(メンバー) − R_copy(ホールドアウト) ≤ 0.1"),
    ):
        page = html.unescape(client.get(submit, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        # The release's rows: its line, then the message under it (rounds/_message_row.html).
        row = page[page.index(f'data-testid="release-{copy_a.pk}"') :]
        row = row[: row.index("</tbody>")]
        assert 'data-testid="gate-copy"' in row and "R_copy ✗" in row
        # The gate's figures: value − reference = excess > limit, and the reference's column.
        # The gate's figures: value − reference = excess > limit, and the reference's column.
        assert f"1.0000 − {reference} = {excess} > 0.1" in row
        assert f'data-testid="r_copy_holdout">{reference}<' in row
        assert phrase in row and "R_copy = 1.0000" in row and reference in row
        assert f'data-testid="select-{copy_a.pk}"' not in row
        assert 'data-testid="final"' not in row
        assert footer in page

    # Team B's honest release passes, with its figures; one scored before the gate had a
    # reference (no r_copy_holdout) is judged as then, against 0, and stays final.
    legacy = {k: v for k, v in honest_b.scores.items() if k != "r_copy_holdout"}
    SynRelease.objects.filter(pk=honest_b.pk).update(scores=legacy)
    final_b = selectors.final_release(synthetic=world.synthetic, team=world.teams["b"])
    assert final_b.pk == honest_b.pk
    client.force_login(world.users["b"])
    page = html.unescape(client.get(submit, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    row = page[page.index(f'data-testid="release-{honest_b.pk}"') :]
    row = row[: row.index("</tr>")]
    r_copy_b = format_figure(honest_b.scores["r_copy"])
    assert "R_copy ✓" in row and f"{r_copy_b} − 0.0000 = {r_copy_b} ≤ 0.1" in row
    assert 'data-testid="r_copy_holdout">–<' in row

    # The freeze publishes B's honest release and nothing of A's.
    targets = freeze(world)
    assert set(targets) == {"teamB"}
    assert targets["teamB"].release_id == honest_b.pk
    assert not SynTarget.objects.filter(synthetic=world.synthetic, team=world.teams["a"]).exists()
    published = {t.release_id for t in selectors.targets(synthetic=world.synthetic)}
    assert copy_a.pk not in published and copy_b.pk not in published
