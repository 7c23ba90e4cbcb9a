"""Voided uploads in a synthetic round (PWSCup 2016's "logically deleted" uploads, on the
membership-inference game): the organizers void a team's release or attack; it is kept as
uploaded and counts nowhere (the final release and so the published target, the attack
matrix, the rankings, the ROC curves, the quota), its team's previous counted upload taking
its place, until they restore it. A release published as a target stays; a team voids
nothing."""

import html

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.submissions.models import Status
from pwscup.submissions.selectors import quota_day_of, uploads_quota_usage
from pwscup.synthetic import engine, selectors
from pwscup.synthetic.models import SynAttack, SynRelease, SynTarget
from scoring.synthetic.config import tpr_key
from tests.pwscup.syn_world import (
    attack,
    baseline_release,
    freeze,
    labels_of,
    open_attack_phase,
    release,
    syn_world,
)

pytestmark = pytest.mark.django_db

REASON = "Sent after the rule change"


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Teams A, B, C in the release phase: A has two valid releases (#1, then #2, its final
    one), B and C one each. Made once for the module; each test's writes are rolled back."""
    from tests.support import flush_database

    with django_db_blocker.unblock():
        made = syn_world(slug="synvoid")
        made.releases = {
            "a1": release(made, "a", baseline_release(made, "a", seed=0)),
            "a2": release(made, "a", baseline_release(made, "a", seed=1)),
            "b1": release(made, "b", baseline_release(made, "b")),
            "c1": release(made, "c", baseline_release(made, "c")),
        }
        for kept in made.releases.values():
            assert kept.status == Status.FINISHED, kept.message
    yield made
    with django_db_blocker.unblock():
        flush_database()


@pytest.fixture(autouse=True)
def cache_emptied():
    """A page or ranking a test cached under the round's versions belongs to rows it rolled
    back: the next test's versions may count to the same numbers."""
    cache.clear()
    yield
    cache.clear()


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def address(world, name: str, *extra) -> str:
    return reverse(f"api:{name}", args=[world.competition.slug, world.round.slug, *extra])


def void(world, name: str, upload, *, user=None):
    return Client().post(
        address(world, f"syn-{name}s-void"),
        {"upload": upload.pk, "reason": REASON},
        **bearer(user or world.organizer),
    )


def restore(world, name: str, upload, *, user=None):
    return Client().post(
        address(world, f"syn-{name}-restore", upload.pk), **bearer(user or world.organizer)
    )


def final_pk(world, letter: str):
    found = selectors.final_release(synthetic=world.synthetic, team=world.teams[letter])
    return found.pk if found else None


def used(model, world, letter: str, **where) -> int:
    uploads = model.objects.filter(team=world.teams[letter], **where)
    day = quota_day_of(world.round)
    return uploads_quota_usage(uploads, day=day, now=uploads.first().created_at).used_total


def submit_page(world, letter: str, language: str) -> str:
    client = Client()
    client.force_login(world.users[letter])
    client.cookies["django_language"] = language
    url = reverse("round_tab", args=[world.competition.slug, world.round.slug, "submit"])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def row_of(page: str, testid: str) -> str:
    """The ``<tbody>`` of one upload on the Submit tab."""
    start = page.index(f'data-testid="{testid}"')
    return page[start : page.index("</tbody>", start)]


def answer(world, target_letter: str, *, right: bool) -> bytes:
    """An attack on ``target_letter``'s target that scores every member 1 (``right``: it finds
    them all) or every non-member 1 (it finds none)."""
    labels = labels_of(world, target_letter)
    scores = labels if right else 1 - labels
    lines = ["id,score", *(f"{i},{s}" for i, s in enumerate(scores, start=1))]
    return ("\n".join(lines) + "\n").encode()


def test_a_voided_final_release_hands_the_final_to_the_previous_one_until_restored(world):
    a1, a2 = world.releases["a1"], world.releases["a2"]
    assert final_pk(world, "a") == a2.pk
    assert used(SynRelease, world, "a") == 2

    voided = void(world, "release", a2)

    assert voided.status_code == 200, voided.content
    assert voided.json() == {"voided": 1}
    assert final_pk(world, "a") == a1.pk
    assert used(SynRelease, world, "a") == 1  # the team may upload again
    kept = SynRelease.objects.get(pk=a2.pk)
    assert (kept.status, kept.scores, bool(kept.file)) == (Status.FINISHED, a2.scores, True)
    listed = Client().get(address(world, "syn-releases"), **bearer(world.users["a"])).json()
    by_pk = {upload["id"]: upload for upload in listed}
    assert by_pk[a2.pk]["voided"]["reason"] == REASON
    assert by_pk[a2.pk]["voided"]["by_organizers"] is True
    assert "withdraw_url" not in by_pk[a2.pk]  # only the organizers void: no withdrawal
    assert (by_pk[a1.pk]["voided"], by_pk[a1.pk]["final"], by_pk[a2.pk]["final"]) == (
        None,
        True,
        False,
    )
    english = submit_page(world, "a", "en")
    row = row_of(english, f"release-{a2.pk}")
    assert f"Voided by the organizers: {REASON}" in row and 'class="voided"' in row
    assert f'data-testid="select-{a2.pk}"' not in row  # a voided release is never final
    assert 'data-testid="final"' in row_of(english, f"release-{a1.pk}")
    assert f"運営者が無効化: {REASON}" in row_of(submit_page(world, "a", "ja"), f"release-{a2.pk}")
    assert REASON not in submit_page(world, "b", "en")  # another team's void is not shown

    restored = restore(world, "release", a2)

    assert restored.status_code == 200, restored.content
    assert final_pk(world, "a") == a2.pk
    assert used(SynRelease, world, "a") == 2
    assert REASON not in submit_page(world, "a", "en")


def test_the_freeze_publishes_the_previous_release_and_a_published_one_stays(world):
    a1, a2 = world.releases["a1"], world.releases["a2"]
    assert void(world, "release", a2).status_code == 200

    targets = freeze(world)

    assert targets["teamA"].release_id == a1.pk
    refused = void(world, "release", a1)
    assert refused.status_code == 409
    assert "target" in refused.json()["message"]
    assert SynRelease.objects.get(pk=a1.pk).voided_at is None
    # The voided release is no target: restoring it changes nothing published.
    assert restore(world, "release", a2).status_code == 200
    assert SynTarget.objects.get(pk=targets["teamA"].pk).release_id == a1.pk


def test_a_voided_attack_hands_its_cell_to_the_team_s_previous_one_until_restored(world):
    targets = freeze(world)
    open_attack_phase(world)
    on_a, on_b = targets["teamA"], targets["teamB"]
    found_all = attack(world, "c", on_a, answer(world, "a", right=True))
    found_none = attack(world, "c", on_a, answer(world, "a", right=False))
    attack(world, "c", on_b, answer(world, "b", right=True))
    attack(world, "b", on_a, answer(world, "a", right=True))
    attack(world, "b", targets["teamC"], answer(world, "c", right=True))
    for kept in SynAttack.objects.filter(team__in=world.teams.values()):
        assert kept.status == Status.FINISHED, kept.message
    headline = tpr_key(engine.round_config(world.round).fpr_levels[0])
    assert (found_all.dev[headline], found_none.dev[headline]) == (1.0, 0.0)

    def standing() -> tuple:
        results = selectors.round_results(synthetic=world.synthetic, half="dev")
        row = next(r for r in results.matrix.rows if r.team == world.teams["c"])
        cell = row.cells[results.matrix.targets.index(on_a)].headline
        mean = next(r for r in results.attacks if r["team"] == world.teams["c"])
        return cell, mean["mean"], mean["rank"]

    def counting() -> set:
        mine = Client().get(address(world, "syn-attacks"), **bearer(world.users["c"])).json()
        return {upload["id"] for upload in mine if upload["final"]}

    def c_curve():
        rocs = selectors.roc_curves(synthetic=world.synthetic)
        curves = next(entry["curves"] for entry in rocs if entry["target"] == on_a)
        return next(curve for curve in curves if curve["name"] == world.teams["c"].name)

    def ranked_on_the_results_tab() -> str:
        """Team C's attack rank as team B reads it (the page cached between the reads)."""
        client = Client()
        client.force_login(world.users["b"])
        url = reverse("round_tab", args=[world.competition.slug, world.round.slug, "results"])
        page = client.get(url).content.decode()
        row = page[page.index('data-testid="attack-rank-teamC"') :]
        return row[row.index('<td class="num">') + 16 : row.index("</td>")]

    assert standing() == (0.0, 0.5, 2)
    assert ranked_on_the_results_tab() == "2"
    assert found_none.pk in counting() and found_all.pk not in counting()
    assert found_all.final_roc["tpr"] != found_none.final_roc["tpr"]
    assert c_curve()["tpr"] == found_none.final_roc["tpr"]
    assert used(SynAttack, world, "c", target=on_a) == 2

    voided = void(world, "attack", found_none)

    assert voided.json() == {"voided": 1}
    assert standing() == (1.0, 1.0, 1)
    assert ranked_on_the_results_tab() == "1"
    assert found_all.pk in counting() and found_none.pk not in counting()
    assert c_curve()["tpr"] == found_all.final_roc["tpr"]
    assert used(SynAttack, world, "c", target=on_a) == 1
    page = submit_page(world, "c", "en")
    assert f"Voided by the organizers: {REASON}" in row_of(page, f"attack-{found_none.pk}")
    assert "Voided" not in row_of(page, f"attack-{found_all.pk}")

    assert restore(world, "attack", found_none).status_code == 200
    assert standing() == (0.0, 0.5, 2)


def test_a_team_neither_voids_nor_restores(world):
    a2 = world.releases["a2"]
    for letter in "ab":
        refused = void(world, "release", a2, user=world.users[letter])
        assert refused.status_code == 403
        assert "organizers" in refused.json()["message"]
    assert SynRelease.objects.get(pk=a2.pk).voided_at is None
    assert void(world, "release", a2).status_code == 200
    assert restore(world, "release", a2, user=world.users["a"]).status_code == 403
    assert SynRelease.objects.get(pk=a2.pk).voided_at is not None


def test_the_console_offers_the_round_s_releases_and_attacks_to_void(world):
    console = Client()
    console.force_login(world.organizer)
    args = [world.competition.slug, world.round.slug]
    assert (
        'data-testid="round-voids-open"'
        in console.get(reverse("console:round", args=args)).content.decode()
    )
    page = reverse("console:round_voids", args=args)
    listed = console.get(page).content.decode()
    assert '<option value="release">Release</option>' in listed
    assert 'value="attack">Attack<' in listed
    b1 = world.releases["b1"]
    posted = console.post(page, {"type": "release", "upload": str(b1.pk), "reason": REASON})
    assert posted.status_code == 302
    assert f'data-testid="voided-{b1.pk}"' in console.get(page).content.decode()
    assert final_pk(world, "b") is None
