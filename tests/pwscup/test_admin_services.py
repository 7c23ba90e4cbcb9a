"""The admin is no side door: what the services do on a change (refresh the cached rankings,
tell the participants) cannot be skipped by editing a field in the admin."""

import datetime as dt
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from pwscup.accounts.models import Membership, Team
from pwscup.accounts.services import organizer_grant
from pwscup.competitions.models import AuditEntry, Round
from pwscup.competitions.selectors import round_ranking_version
from pwscup.notifications.models import Notification
from pwscup.sequential.models import SequentialRound
from tests.pwscup.dp_world import build_dp_world
from tests.pwscup.factories import run_operations
from tests.pwscup.rendered_forms import FormParser, post_data
from tests.pwscup.seq_web_world import seq_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root-s", password="pw"))
    return client


def _team_change_data(team: Team, **changes) -> dict:
    memberships = list(team.memberships.select_related("user"))
    data = {
        "competition": team.competition_id,
        "name": team.name,
        "slug": team.slug,
        "memberships-TOTAL_FORMS": str(len(memberships)),
        "memberships-INITIAL_FORMS": str(len(memberships)),
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    for i, membership in enumerate(memberships):
        data[f"memberships-{i}-id"] = membership.pk
        data[f"memberships-{i}-team"] = team.pk
        data[f"memberships-{i}-user"] = membership.user.username
    data.update(changes)
    return data


def test_the_admin_cannot_rename_a_team_past_the_console_service(admin_client, world):
    team = world.teams["a"]
    url = reverse("admin:accounts_team_change", args=[team.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="name"' not in page  # shown, not editable
    response = admin_client.post(url, _team_change_data(team, name="Renamed in the admin"))
    assert response.status_code == 302
    team.refresh_from_db()
    assert team.name == "Team A"
    # A new team is still named in the admin.
    add = admin_client.get(reverse("admin:accounts_team_add")).content.decode()
    assert 'name="name"' in add


def test_the_admin_cannot_remove_a_member_past_the_console_service(
    admin_client, world, django_user_model
):
    team = world.teams["a"]
    captain = team.captain
    url = reverse("admin:accounts_team_change", args=[team.pk])
    page = admin_client.get(url).content.decode()
    assert "memberships-0-DELETE" not in page  # the members are shown, not editable
    assert reverse("console:teams", args=[world.competition.slug]) in page
    data = _team_change_data(team)
    data["memberships-0-DELETE"] = "on"
    data.update({"memberships-TOTAL_FORMS": "2", "memberships-1-user": "outsider"})
    django_user_model.objects.create_user("outsider", password="pw")
    assert admin_client.post(url, data).status_code == 302
    team.refresh_from_db()
    assert team.captain == captain
    assert team.memberships.filter(user=captain).exists()
    assert not team.memberships.filter(user__username="outsider").exists()
    assert not Membership.objects.filter(user__username="outsider").exists()


def test_the_admin_lists_a_team_s_members_in_the_page_s_language(admin_client, world):
    team = world.teams["a"]
    url = reverse("admin:accounts_team_change", args=[team.pk])
    page = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    member = team.captain.username
    assert "アカウント" in page and "参加日時" in page
    assert f"Team A の {member}" in page
    assert "Joined at" not in page and f"{member} in Team A" not in page


def _round_change_data(round_: Round, **changes) -> dict:
    """The round's change form as saved, its phases left out of the post (kept as they are)."""
    data = {
        "competition": round_.competition_id,
        "name": round_.name,
        "slug": round_.slug,
        "order": round_.order,
        "data_mode": round_.pwscup2015.data_mode,
        "config": json.dumps(round_.config),
        "timezone": round_.timezone,
        "utility_gates": "{}",
        "tie_break_metric": round_.pwscup2015.tie_break_metric,
        "ranking_rule": round_.pwscup2015.ranking_rule,
        "selection_rule": round_.pwscup2015.selection_rule,
        "attack_visibility": round_.pwscup2015.attack_visibility,
        "auto_freeze": "on",
        "phases-TOTAL_FORMS": "0",
        "phases-INITIAL_FORMS": "0",
        "phases-MIN_NUM_FORMS": "0",
        "phases-MAX_NUM_FORMS": "1000",
    }
    data.update(changes)
    return data


def test_ticking_results_published_in_the_round_admin_does_not_publish(admin_client, world):
    url = reverse("admin:competitions_round_change", args=[world.round.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="results_published"' not in page
    data = _round_change_data(world.round, results_published="on", tie_break_metric="U2")
    response = admin_client.post(url, data)
    assert response.status_code == 302
    world.round.refresh_from_db()
    assert world.round.pwscup2015.tie_break_metric == "U2"  # the form was saved, without the tick
    assert not world.round.pwscup2015.results_published
    # The admin action publishes through the service, in the background.
    admin_client.post(
        reverse("admin:competitions_round_changelist"),
        {"action": "publish_results", "_selected_action": [world.round.pk]},
    )
    run_operations()
    world.round.refresh_from_db()
    assert world.round.pwscup2015.results_published


def test_the_sequential_admin_publishes_through_the_service_and_tells_the_teams(admin_client):
    world = seq_world(slug="seqadmin")
    sequential = world.sequential
    url = reverse("admin:sequential_sequentialround_change", args=[sequential.pk])
    assert 'name="results_published"' not in admin_client.get(url).content.decode()
    response = admin_client.post(
        url,
        {
            "config": json.dumps(sequential.config),
            "step_closes": "[]",
            "auto_freeze": "on",
            "results_published": "on",
            "total_limit": "4",
        },
    )
    assert response.status_code == 302
    sequential.refresh_from_db()
    assert sequential.total_limit == 4 and not sequential.results_published
    assert not Notification.objects.filter(kind=Notification.Kind.RESULTS_PUBLISHED).exists()

    # The kind's admin actions, on the core's list of rounds (the console's, audited alike).
    changelist = reverse("admin:competitions_round_changelist")
    admin_client.post(
        changelist, {"action": "publish_results", "_selected_action": [world.round.pk]}
    )
    assert SequentialRound.objects.get(pk=sequential.pk).results_published
    told = Notification.objects.filter(kind=Notification.Kind.RESULTS_PUBLISHED)
    assert set(told.values_list("user", flat=True)) == {u.pk for u in world.users.values()}
    admin_client.post(
        changelist, {"action": "unpublish_results", "_selected_action": [world.round.pk]}
    )
    assert not SequentialRound.objects.get(pk=sequential.pk).results_published
    logged = AuditEntry.objects.filter(round=world.round).values_list("action", flat=True)
    assert {"results_published", "results_hidden"} <= set(logged)


def _rendered_round_form(admin_client, url: str) -> list[dict]:
    parser = FormParser()
    parser.feed(admin_client.get(url).content.decode())
    (fields,) = [form["fields"] for form in parser.forms if form["attrs"].get("id") == "round_form"]
    return fields


def test_an_edit_of_the_2015_game_s_settings_in_the_admin_is_in_the_audit_log(admin_client, world):
    """Like every round edit (``round_core_update``, the console's edit): one line naming
    the changed settings; a save that changes nothing writes none."""
    url = reverse("admin:competitions_round_change", args=[world.round.pk])
    entries = AuditEntry.objects.filter(round=world.round, action=AuditEntry.Action.ROUND_EDITED)
    fields = _rendered_round_form(admin_client, url)
    assert admin_client.post(url, post_data(fields)).status_code == 302
    assert not entries.exists()
    changes = {"tie_break_metric": "U2", "auto_freeze": False}
    assert admin_client.post(url, post_data(fields, changes)).status_code == 302
    world.round.refresh_from_db()
    assert (world.round.pwscup2015.tie_break_metric, world.round.pwscup2015.auto_freeze) == (
        "U2",
        False,
    )
    (entry,) = entries
    assert entry.user.username == "root-s"
    assert sorted(entry.detail["fields"]) == ["auto_freeze", "tie_break_metric"]


def test_one_admin_save_of_a_2015_round_is_one_audit_line_with_its_phases(client, world):
    """A staff organizer's save that changes the round's name (every round's), a game
    setting and a phase's limit: one line naming all three (it was two, and the phase
    none), the rankings refreshed once the save commits."""
    organizer_grant(user=world.organizer, competition=world.competition)
    client.force_login(world.organizer)
    url = reverse("admin:competitions_round_change", args=[world.round.pk])
    fields = _rendered_round_form(client, url)
    (limit,) = [
        f["name"]
        for f in fields
        if f["name"].endswith("-daily_limit")
        and "__prefix__" not in f["name"]
        and any(
            g["name"] == f["name"].replace("daily_limit", "id")
            and g.get("value") == str(world.anonymization.pk)
            for g in fields
        )
    ]
    version = round_ranking_version(round=Round.objects.get(pk=world.round.pk))
    changes = {"name": "Renamed round", "tie_break_metric": "U2", limit: "7"}
    response = client.post(url, post_data(fields, changes))
    assert response.status_code == 302
    (entry,) = AuditEntry.objects.filter(round=world.round, action=AuditEntry.Action.ROUND_EDITED)
    assert entry.user == world.organizer
    assert sorted(entry.detail["fields"]) == ["anonymization_phase", "name", "tie_break_metric"]
    world.anonymization.refresh_from_db()
    assert world.anonymization.daily_limit == 7
    assert round_ranking_version(round=Round.objects.get(pk=world.round.pk)) > version


def _phase_row(fields: list[dict], phase) -> str:
    """The prefix of ``phase``'s row in the rendered round form (``phases-1``)."""
    (prefix,) = [
        f["name"].removesuffix("-id")
        for f in fields
        if f["name"].endswith("-id") and f.get("value") == str(phase.pk)
    ]
    return prefix


def test_the_2015_admin_checks_the_phase_order_as_the_console_does(admin_client, world):
    """The world's attack phase opens before its anonymization phase closes, which the
    console allows with its box: the admin's page renders the same box ticked; unticked, an
    edit of a phase is refused under the attack phase's opening (the console's words) and
    nothing is saved; ticked, the edit is saved."""
    assert world.attack.opens_at < world.anonymization.closes_at
    url = reverse("admin:competitions_round_change", args=[world.round.pk])
    fields = _rendered_round_form(admin_client, url)
    assert post_data(fields)["allow_attack_before_close"] == ["on"]  # rendered ticked
    row = _phase_row(fields, world.attack)
    edit = {f"{row}-daily_limit": "3"}
    refused = admin_client.post(
        url, post_data(fields, {**edit, "allow_attack_before_close": False})
    )
    assert refused.status_code == 200
    (formset,) = [f.formset for f in refused.context["inline_admin_formsets"]]
    (attack_row,) = [form for form in formset.forms if form.instance.pk == world.attack.pk]
    (message,) = attack_row.errors["opens_at"]
    assert "before the anonymization phase closes" in message
    world.attack.refresh_from_db()
    assert world.attack.daily_limit is None
    assert not AuditEntry.objects.filter(round=world.round, action="round_edited").exists()
    assert admin_client.post(url, post_data(fields, edit)).status_code == 302
    world.attack.refresh_from_db()
    assert world.attack.daily_limit == 3


def _sequential_change(client, sequential, fill: dict):
    url = reverse("admin:sequential_sequentialround_change", args=[sequential.pk])
    parser = FormParser()
    parser.feed(client.get(url).content.decode())
    (form,) = [f for f in parser.forms if f["attrs"].get("id") == "sequentialround_form"]
    return client.post(url, post_data(form["fields"], fill))


def test_the_sequential_admin_saves_through_the_console_s_service(admin_client):
    """The row's configuration and limits saved in one save: one audit line naming both,
    the rankings refreshed; a frozen round's configuration refused under its field by the
    service (nothing saved, nothing logged)."""
    world = seq_world(slug="seqadmsvc")
    sequential = world.sequential
    edits = AuditEntry.objects.filter(round=world.round, action=AuditEntry.Action.ROUND_EDITED)
    version = round_ranking_version(round=Round.objects.get(pk=world.round.pk))
    config = {**sequential.config, "m": sequential.config["m"] + 1}
    response = _sequential_change(
        admin_client, sequential, {"config": json.dumps(config), "total_limit": "4"}
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    (entry,) = edits
    assert sorted(entry.detail["fields"]) == ["config", "total_limit"]
    sequential.refresh_from_db()
    assert (sequential.config["m"], sequential.total_limit) == (config["m"], 4)
    assert Round.objects.get(pk=world.round.pk).config["m"] == config["m"]
    assert round_ranking_version(round=Round.objects.get(pk=world.round.pk)) > version

    SequentialRound.objects.filter(pk=sequential.pk).update(frozen_steps=1)
    changed = {**config, "m": config["m"] + 1}
    response = _sequential_change(
        admin_client, sequential, {"config": json.dumps(changed), "total_limit": "5"}
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["config"] == ["Step 1 is frozen: the configuration can no longer change."]
    sequential.refresh_from_db()
    assert (sequential.config["m"], sequential.total_limit) == (config["m"], 4)
    assert edits.count() == 1


def test_the_dp_admin_saves_the_window_through_the_console_s_edit(admin_client):
    """The release window's edit in the admin is the console's (``round_phases_edit``): one
    audit line with the page's field names, the rankings refreshed; a close before the
    opening refused under the close, nothing saved."""
    world = build_dp_world(slug="dpadmsvc")
    dp_round = world.dp_round
    url = reverse("admin:dp_dpround_change", args=[dp_round.pk])
    parser = FormParser()
    parser.feed(admin_client.get(url).content.decode())
    (form,) = [f for f in parser.forms if f["attrs"].get("id") == "dpround_form"]
    version = round_ranking_version(round=Round.objects.get(pk=dp_round.round_id))
    later = timezone.localtime(dp_round.closes_at) + dt.timedelta(days=3)
    response = admin_client.post(
        url, post_data(form["fields"], {"closes_at_0": later.strftime("%Y-%m-%d")})
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    (entry,) = AuditEntry.objects.filter(round_id=dp_round.round_id)
    assert entry.action == AuditEntry.Action.ROUND_EDITED
    assert entry.detail["fields"] == ["release_closes_at"]
    assert round_ranking_version(round=Round.objects.get(pk=dp_round.round_id)) > version
    dp_round.refresh_from_db()
    assert timezone.localtime(dp_round.closes_at).date() == later.date()

    before = timezone.localtime(dp_round.opens_at) - dt.timedelta(days=1)
    response = admin_client.post(
        url, post_data(form["fields"], {"closes_at_0": before.strftime("%Y-%m-%d")})
    )
    assert response.status_code == 200
    (message,) = response.context["adminform"].form.errors["closes_at"]
    assert "must close after it opens" in message
    dp_round.refresh_from_db()
    assert timezone.localtime(dp_round.closes_at).date() == later.date()
    assert AuditEntry.objects.filter(round_id=dp_round.round_id).count() == 1
