"""The round lifecycle in the console, for every kind: each action behind its confirmation,
publishing closes every phase still open (a published ranking never changes afterwards),
and the DP and sequential rounds can be closed, scored and published from the console."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pwscup.core.errors import Refused
from pwscup.dp.models import DPRound
from pwscup.pwscup2015.models import RoundOperation
from pwscup.pwscup2015.services import round_operation_run
from pwscup.sequential.models import SequentialRound
from tests.pwscup.dp_world import build_dp_world
from tests.pwscup.factories import answer_bytes, attack, freeze, scored, truth_of
from tests.pwscup.seq_web_world import attack_phase_world, seq_world
from tests.pwscup.syn_world import syn_world

pytestmark = pytest.mark.django_db


def _action(world, round_, name):
    return reverse("console:round_action", args=[world.competition.slug, round_.slug, name])


def test_publishing_closes_the_attack_phase_so_the_ranking_cannot_change(client, world):
    for letter in "abc":
        scored(world, letter, seed=ord(letter))
    targets = freeze(world)
    assert world.attack.is_open()
    client.force_login(world.organizer)
    confirm = client.get(_action(world, world.round, "publish"))
    assert b"Every phase still open closes now" in confirm.content
    assert client.post(_action(world, world.round, "publish")).status_code == 302
    world.attack.refresh_from_db()
    assert not world.attack.is_open()  # closed by the request, before the background run
    operation = RoundOperation.objects.get(round=world.round, kind="publish")
    round_operation_run(operation_id=operation.pk)
    # An attack after publishing is refused: the published attack scores stay as they are.
    with pytest.raises(Refused, match="closed"):
        attack(world, "b", targets["a"], answer_bytes(truth_of(targets["a"])))


def test_a_get_of_an_action_changes_nothing(client, world):
    client.force_login(world.organizer)
    page = client.get(_action(world, world.round, "close"))
    assert page.status_code == 200 and b'data-testid="confirm-close"' in page.content
    world.anonymization.refresh_from_db()
    assert world.anonymization.is_open()
    client.post(_action(world, world.round, "close"))
    world.anonymization.refresh_from_db()
    world.attack.refresh_from_db()
    assert not world.anonymization.is_open() and not world.attack.is_open()


def test_a_dp_round_is_closed_and_scored_from_the_console(
    client, django_capture_on_commit_callbacks
):
    world = build_dp_world(slug="dplife")
    client.force_login(world.organizer)
    page = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    assert b'data-testid="action-close"' in page.content
    with django_capture_on_commit_callbacks() as callbacks:
        assert client.post(_action(world, world.round, "close")).status_code == 302
    dp_round = DPRound.objects.get(pk=world.dp_round.pk)
    assert dp_round.has_closed()
    assert len(callbacks) == 1  # the scoring job, sent to the worker
    page = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    assert b'data-testid="action-score"' in page.content
    refused = client.post(
        reverse(
            "dp:estimate_upload",
            kwargs={
                "competition_slug": world.competition.slug,
                "round_slug": world.round.slug,
                "level": "eps-1",
            },
        ),
        {"file": SimpleUploadedFile("estimate.csv", b"target\n")},
    )
    assert refused.status_code in (302, 400, 403, 404)  # never stored after the close
    assert dp_round.estimates.count() == 0


def test_a_sequential_round_is_published_and_hidden_from_the_console(client):
    world = seq_world(slug="seqlife")
    client.force_login(world.organizer)
    action = reverse(
        "console:round_action", args=[world.competition.slug, world.round.slug, "publish"]
    )
    # This round has no attack phase: its confirmation speaks of no attacks.
    confirm = client.get(action).content.decode()
    assert "Everyone sees the leaderboard from now on." in confirm
    form = confirm.split('data-testid="confirm-publish"')[1].split("</form>")[0]
    assert "attack" not in form.lower()
    assert client.post(action).status_code == 302
    hidden = client.get(action.replace("publish", "hide")).content.decode()
    assert "The leaderboard becomes organizer-only again." in hidden
    assert SequentialRound.objects.get(pk=world.sequential.pk).results_published
    hide = reverse("console:round_action", args=[world.competition.slug, world.round.slug, "hide"])
    assert client.post(hide).status_code == 302
    assert not SequentialRound.objects.get(pk=world.sequential.pk).results_published


def test_a_sequential_round_with_an_attack_phase_is_told_publishing_ends_it(client):
    world = attack_phase_world(slug="seqlifeatk")
    client.force_login(world.organizer)
    action = reverse(
        "console:round_action", args=[world.competition.slug, world.round.slug, "publish"]
    )
    confirm = client.get(action).content.decode()
    assert "The attack phase ends now" in confirm and "End the attacks and publish" in confirm


def test_an_action_asked_again_once_done_lands_on_the_round_page_with_a_message(client):
    """A second click or a reload of a confirmation already done: not a 404 but the round's
    console page saying so (the core's rule, for every kind: ``RoundAction.replaces``)."""
    world = seq_world(slug="seqtwice")
    client.force_login(world.organizer)
    comp, slug = world.competition.slug, world.round.slug
    page = reverse("console:round", args=[comp, slug])
    publish = reverse("console:round_action", args=[comp, slug, "publish"])
    hide = reverse("console:round_action", args=[comp, slug, "hide"])
    redraw = reverse("console:round_action", args=[comp, slug, "redraw"])
    assert client.post(redraw).status_code == 404  # no pool: never offered, nothing replaces it
    assert client.post(publish).status_code == 302
    again = client.post(publish, follow=True)
    assert again.redirect_chain == [(page, 302)]
    assert "The results are already published." in again.content.decode()
    assert client.get(publish).url == page  # a reload of the confirmation page
    assert client.post(hide).status_code == 302
    again = client.post(hide, follow=True)
    assert again.redirect_chain == [(page, 302)]
    assert "The results are already hidden." in again.content.decode()
    assert not SequentialRound.objects.get(pk=world.sequential.pk).results_published


def test_a_dp_round_closed_twice_lands_on_its_page(client, django_capture_on_commit_callbacks):
    world = build_dp_world(slug="dptwice")
    client.force_login(world.organizer)
    close = _action(world, world.round, "close")
    with django_capture_on_commit_callbacks():
        assert client.post(close).status_code == 302
    again = client.post(close, follow=True)
    page = reverse("console:round", args=[world.competition.slug, world.round.slug])
    assert again.redirect_chain == [(page, 302)]
    assert "The release phase is already closed." in again.content.decode()


@pytest.mark.parametrize(
    "language, message",
    [
        ("en", "The phases of the round are already closed."),
        ("ja", "このラウンドのフェーズはすでに締め切られています。"),
    ],
)
def test_a_2015_round_closed_twice_lands_on_its_page(world, language, message):
    """*Close the open phases now* posted again (a second click, a reload): the round's page
    says the phases are closed, in the user's language, not a 404 (``RoundAction.replaces``)."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.organizer)
    close = _action(world, world.round, "close")
    assert client.post(close).status_code == 302
    again = client.post(close, follow=True)
    page = reverse("console:round", args=[world.competition.slug, world.round.slug])
    assert again.redirect_chain == [(page, 302)]
    assert message in again.content.decode()
    assert client.get(close).url == page  # a reload of the confirmation page


def test_a_two_sided_round_closed_twice_lands_on_its_page(client):
    world = syn_world(slug="syntwice", letters="ab")
    client.force_login(world.organizer)
    close = _action(world, world.round, "close")
    assert client.post(close).status_code == 302
    page = reverse("console:round", args=[world.competition.slug, world.round.slug])
    publish = _action(world, world.round, "publish")
    # The first click closed the release phase; the attack phase, not open yet, stays
    # planned: the repeat says no phase is open (and changes nothing) until the publication
    # closes it too; then *hide* is offered and answers it.
    for frozen, published in ((False, False), (True, False), (True, True)):
        world.synthetic.refresh_from_db()
        assert world.synthetic.results_published is published
        again = client.post(close, follow=True)
        assert again.redirect_chain == [(page, 302)]
        answer = (
            "The phases of the round are already closed."
            if published
            else "No phase is open now: nothing is closed and no date changes."
        )
        assert answer in again.content.decode()
        if not frozen:  # nothing to publish before the freeze: said, not done
            refused = client.post(publish, follow=True)
            assert refused.redirect_chain == [(page, 302)]
            assert "Freeze the releases first" in refused.content.decode()
            client.post(_action(world, world.round, "freeze"))
        elif not published:
            client.post(publish)
