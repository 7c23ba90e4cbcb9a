"""An organizer of competition A cannot list, open, change or act on anything of B.

Two per-team competitions, both frozen with an attack scored; ``org_a`` is a staff account
(not a superuser) in the organizers' group, organizer of A only. Every admin page of every
model and every organizer page is fetched for B's objects (404/403, and no B name or link
in what is served) and for A's (it still works).
"""

import re

import pytest
from django.urls import reverse

from pwscup.accounts.models import Team
from pwscup.accounts.services import organizer_grant
from pwscup.competitions.models import Competition
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    Pwscup2015Round,
    RoundOperation,
    TeamDataset,
)
from pwscup.submissions.models import Status
from tests.pwscup.factories import (
    freeze,
    read_field,
    run_operations,
    scored,
    scored_attack,
    truth_of,
)

pytestmark = pytest.mark.django_db

B_NAME = "Cup cupb"


def cup(make_world, slug):
    world = make_world(slug=slug, data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    submission = scored(world, "a", seed=1, delete=2)
    scored(world, "b", seed=2, delete=2)
    target = freeze(world)["a"]
    attack = scored_attack(world, "b", target, truth_of(target))
    objects = {
        "competitions_competition": world.competition,
        "competitions_round": world.round,
        "accounts_team": world.teams["a"],
        "pwscup2015_anonymizationsubmission": submission,
        "pwscup2015_attacksubmission": attack,
        "pwscup2015_target": target,
        "pwscup2015_teamdataset": TeamDataset.objects.get(round=world.round, team=world.teams["a"]),
    }
    return world, objects


@pytest.fixture
def cups(make_world, client):
    a, a_objects = cup(make_world, "cupa")
    b, b_objects = cup(make_world, "cupb")
    organizer_grant(user=a.organizer, competition=a.competition)
    a.organizer.refresh_from_db()
    assert a.organizer.is_staff and not a.organizer.is_superuser
    client.force_login(a.organizer)
    return a, a_objects, b, b_objects


def admin_url(model: str, view: str, obj=None) -> str:
    return reverse(f"admin:{model}_{view}", args=[] if obj is None else [obj.pk])


def text(response) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode(errors="replace")
    return response.content.decode(errors="replace")


# (view, expected status for B's object, expected status for A's object)
OBJECT_PAGES = [("change", 404, 200), ("delete", 404, None), ("history", 404, 200)]


def test_admin_object_pages_of_another_competition_answer_404(cups, client):
    a, a_objects, b, b_objects = cups
    mismatches = []
    for model, obj in b_objects.items():
        for view, b_code, a_code in OBJECT_PAGES:
            got = client.get(admin_url(model, view, obj))
            if got.status_code != b_code:
                mismatches.append(f"{model} {view} of B: expected {b_code}, got {got.status_code}")
            elif B_NAME in text(got):
                mismatches.append(f"{model} {view} of B shows B's name")
            if a_code is not None:
                got = client.get(admin_url(model, view, a_objects[model]))
                if got.status_code != a_code:
                    mismatches.append(
                        f"{model} {view} of A: expected {a_code}, got {got.status_code}"
                    )
    assert not mismatches, "\n".join(mismatches)


def test_admin_change_lists_and_filters_show_only_the_own_competition(cups, client):
    a, a_objects, b, b_objects = cups
    for model in b_objects:
        page = client.get(admin_url(model, "changelist"))
        assert page.status_code == 200, model
        content = text(page)
        assert admin_url(model, "change", a_objects[model]) in content, model
        assert admin_url(model, "change", b_objects[model]) not in content, model
        assert B_NAME not in content, f"{model}: B's name in the list or its filters"
        # A filter on B's competition or round in the address finds nothing either.
        for lookup, value in (
            ("competition__id__exact", b.competition.pk),
            ("round__id__exact", b.round.pk),
            ("phase__round__id__exact", b.round.pk),
        ):
            filtered = client.get(admin_url(model, "changelist"), {lookup: value})
            assert admin_url(model, "change", b_objects[model]) not in text(filtered)


def test_foreign_key_choices_offer_only_the_own_competition(cups, client):
    a, _a_objects, b, _b_objects = cups
    for model in ("competitions_round", "accounts_team"):
        page = text(client.get(admin_url(model, "add")))
        assert f'<option value="{a.competition.pk}">Cup cupa</option>' in page, model
        assert B_NAME not in page, model
    response = client.post(
        admin_url("accounts_team", "add"),
        {
            "competition": b.competition.pk,
            "name": "Intruders",
            "slug": "intruders",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
            "memberships-MIN_NUM_FORMS": "0",
            "memberships-MAX_NUM_FORMS": "1000",
        },
    )
    assert response.status_code == 200, "the form is shown again with an error"
    assert "competition" in response.context["adminform"].form.errors
    assert not Team.objects.filter(slug="intruders").exists()


def run_action(client, model: str, action: str, pks: list[int]):
    return client.post(
        admin_url(model, "changelist"), {"action": action, "_selected_action": pks}, follow=True
    )


def test_admin_actions_never_reach_another_competition(cups, client):
    a, a_objects, b, b_objects = cups
    b_submission = b_objects["pwscup2015_anonymizationsubmission"]
    for action in ("publish_results", "rescore_all", "freeze", "draw_samples"):
        run_action(client, "competitions_round", action, [b.round.pk])
    assert not RoundOperation.objects.filter(round=b.round).exists()
    run_action(client, "pwscup2015_anonymizationsubmission", "rescore", [b_submission.pk])
    b.round.refresh_from_db()
    assert not b.round.pwscup2015.results_published
    assert b.round.targets.get(team=b.teams["a"]).version == 1
    assert set(
        AnonymizationSubmission.objects.filter(phase__round=b.round).values_list(
            "status", flat=True
        )
    ) == {Status.FINISHED}
    # The same actions on A's round work.
    run_action(client, "competitions_round", "publish_results", [a.round.pk])
    run_operations()
    a.round.refresh_from_db()
    assert a.round.pwscup2015.results_published
    run_action(client, "competitions_round", "rescore_all", [a.round.pk])
    run_operations()
    assert AnonymizationSubmission.objects.get(
        pk=a_objects["pwscup2015_anonymizationsubmission"].pk
    ).status == (Status.QUEUED)


def test_freezing_another_competitions_round_does_nothing(make_world, client):
    a = make_world(slug="cupa")
    b = make_world(slug="cupb")
    scored(a, "a", seed=1)
    scored(b, "a", seed=1)
    organizer_grant(user=a.organizer, competition=a.competition)
    client.force_login(a.organizer)
    run_action(client, "competitions_round", "freeze", [b.round.pk, a.round.pk])
    run_operations()
    assert Pwscup2015Round.objects.get(round_id=b.round.pk).frozen_at is None
    assert not b.round.targets.exists()
    assert Pwscup2015Round.objects.get(round_id=a.round.pk).frozen_at is not None
    assert a.round.targets.count() == 1


def organizer_pages(world, objects) -> dict[str, str]:
    args = [world.competition.slug, world.round.slug]
    target = args + ["teamA"]
    return {
        "leaderboard": reverse("leaderboard", args=args),
        "leaderboard_csv": reverse("leaderboard", args=args) + "?format=csv",
        "matrix": reverse("matrix", args=args),
        "matrix_csv": reverse("matrix", args=args) + "?format=csv",
        "final": reverse("final_ranking", args=args),
        "final_anonymization_csv": reverse("final_ranking", args=args)
        + "?format=anonymization-csv",
        "final_attack_csv": reverse("final_ranking", args=args) + "?format=attack-csv",
        "original": reverse("original_download", args=args),
        "target": reverse("target_download", args=target),
        "candidate": reverse("candidate_download", args=target),
        "submission_file": reverse(
            "submission_file", args=[objects["pwscup2015_anonymizationsubmission"].pk]
        ),
        "attack_file": reverse("attack_file", args=[objects["pwscup2015_attacksubmission"].pk]),
        "admin_original": reverse("admin:competitions_round_original", args=[world.round.pk]),
    }


# Expected status on B's pages; on A's every page answers 200.
B_PAGES = {
    **dict.fromkeys(
        (
            "leaderboard",
            "leaderboard_csv",
            "matrix",
            "matrix_csv",
            "final",
            "final_anonymization_csv",
            "final_attack_csv",
        ),
        403,
    ),
    **dict.fromkeys(
        ("original", "target", "candidate", "submission_file", "attack_file", "admin_original"),
        404,
    ),
}


def test_organizer_pages_of_another_competition_are_refused(cups, client):
    a, a_objects, b, b_objects = cups
    mismatches = []
    b_secrets = [read_field(b.round.original_file)] + [
        read_field(d.file) for d in TeamDataset.objects.filter(round=b.round)
    ]
    for name, url in organizer_pages(b, b_objects).items():
        response = client.get(url)
        if response.status_code != B_PAGES[name]:
            mismatches.append(f"B {name}: expected {B_PAGES[name]}, got {response.status_code}")
        content = text(response).encode()
        assert not any(secret in content for secret in b_secrets), name
    for name, url in organizer_pages(a, a_objects).items():
        response = client.get(url)
        if response.status_code != 200:
            mismatches.append(f"A {name}: expected 200, got {response.status_code}")
    assert not mismatches, "\n".join(mismatches)
    # An unlisted competition of someone else does not exist for this organizer.
    Competition.objects.filter(pk=b.competition.pk).update(is_listed=False)
    detail = reverse("competition_detail", args=[b.competition.slug])
    assert client.get(detail).status_code == 404
    assert (
        client.get(reverse("round_detail", args=[b.competition.slug, b.round.slug])).status_code
        == 404
    )


def test_a_superuser_still_organizes_every_competition(cups, client, django_user_model):
    _a, _a_objects, _b, b_objects = cups
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(root)
    for model, obj in b_objects.items():
        assert client.get(admin_url(model, "change", obj)).status_code == 200, model


# --- the round form's file link: a permission-checked download ------------------------


def test_the_round_forms_current_file_links_to_a_checked_download(cups, client, django_user_model):
    a, _a_objects, b, _b_objects = cups
    page = text(client.get(admin_url("competitions_round", "change", a.round)))
    download = reverse("admin:competitions_round_original", args=[a.round.pk])
    assert f'href="{download}"' in page
    assert not re.search(r'href="[^"]*private/', page)
    response = client.get(download)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == a.original
    assert "r1_original.csv" in response["Content-Disposition"]
    # Another competition's organizer: 404; a co-organizer without the admin permission: 403.
    client.force_login(b.organizer)
    organizer_grant(user=b.organizer, competition=b.competition)
    assert client.get(download).status_code == 404
    bare = django_user_model.objects.create_user("bare", password="pw", is_staff=True)
    a.competition.organizers.add(bare)
    client.force_login(bare)
    assert client.get(download).status_code == 403
    # A team member is not staff: the admin sends them to its login page.
    client.force_login(a.users["a"])
    response = client.get(download)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


# --- no "Add" for what the platform makes ------------------------------------------------


@pytest.mark.parametrize(
    "model",
    [
        "pwscup2015_anonymizationsubmission",
        "pwscup2015_attacksubmission",
        "pwscup2015_target",
        "pwscup2015_teamdataset",
    ],
)
def test_uploads_targets_and_samples_cannot_be_added_by_hand(
    model, world, client, django_user_model
):
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(root)
    assert client.get(admin_url(model, "add")).status_code == 403
    changelist = text(client.get(admin_url(model, "changelist")))
    assert admin_url(model, "add") not in changelist
    index = text(client.get(reverse("admin:index")))
    assert admin_url(model, "add") not in index


def test_read_only_file_fields_link_only_to_checked_downloads(cups, client):
    a, a_objects, _b, _b_objects = cups
    links = {
        "pwscup2015_anonymizationsubmission": reverse(
            "submission_file", args=[a_objects["pwscup2015_anonymizationsubmission"].pk]
        ),
        "pwscup2015_attacksubmission": reverse(
            "attack_file", args=[a_objects["pwscup2015_attacksubmission"].pk]
        ),
        "pwscup2015_target": reverse(
            "target_download", args=[a.competition.slug, a.round.slug, "teamA"]
        ),
    }
    for model in ("pwscup2015_teamdataset", *links):
        page = client.get(admin_url(model, "change", a_objects[model]))
        content = text(page)
        assert not re.search(r'href="[^"]*private/', content), f"{model}: a MEDIA_URL link"
        # Nothing the platform wrote can be replaced through the form.
        assert 'type="file"' not in content, model
        if model in links:
            assert f'href="{links[model]}"' in content, model
            assert client.get(links[model]).status_code == 200, model
