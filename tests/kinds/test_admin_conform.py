"""The rounds' admin serves every kind (issue 48): a round's page opens and saves a rename
as the browser posts it, and every action the list offers answers with a message, never a
500 and never a job of another kind, for a superuser and for a staff organizer. Every save
of a round's settings there, on the round's page or its kind's part's, goes through the
console's services: one audit line naming what changed, the rankings refreshed."""

import datetime as dt

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse

from pwscup.accounts.services import organizer_grant
from pwscup.competitions.models import AuditEntry, RankingVersion, Round
from pwscup.kinds import all_kinds
from tests.pwscup.rendered_forms import FormParser, post_data

CHANGELIST = reverse("admin:competitions_round_changelist")


def fields_of_form(html: str, form_id: str) -> list[dict]:
    """The fields of the page's form ``id=form_id``, as the page renders them."""
    parser = FormParser()
    parser.feed(html)
    forms = [form for form in parser.forms if form["attrs"].get("id") == form_id]
    assert len(forms) == 1, f"one form id={form_id!r} expected, {len(forms)} found"
    return forms[0]["fields"]


def other_kinds_jobs(round_: Round) -> list:
    """Job rows of ``round_`` in the job models of every kind but its own."""
    found = []
    for kind in all_kinds():
        if kind.key == round_.kind:
            continue
        for job in kind.jobs():
            if job.round_path is not None:
                found += list(job.model.objects.filter(**{job.round_path: round_}))
    return found


def offered_actions(client, round_: Round) -> list[str]:
    page = client.get(f"{CHANGELIST}?kind={round_.kind}")
    assert page.status_code == 200
    (select,) = [
        field
        for field in fields_of_form(page.content.decode(), "changelist-form")
        if field["name"] == "action"
    ]
    return [option["value"] for option in select["options"] if option["value"]]


def rename_and_run_actions(client, round_: Round, name: str) -> None:
    url = reverse("admin:competitions_round_change", args=[round_.pk])
    page = client.get(url)
    assert page.status_code == 200
    data = post_data(fields_of_form(page.content.decode(), "round_form"), {"name": name})
    response = client.post(url, data)
    errors = response.context["adminform"].form.errors if response.status_code == 200 else {}
    assert response.status_code == 302, errors
    round_.refresh_from_db()
    assert round_.name == name
    actions = offered_actions(client, round_)
    assert actions
    for action in actions:
        body = {"action": action, "_selected_action": [round_.pk], "index": "0"}
        response = client.post(CHANGELIST, body, follow=True)
        assert response.status_code == 200, action
        if action == "delete_selected":  # asks first: nothing is deleted without "post"
            assert Round.objects.filter(pk=round_.pk).exists()
            continue
        assert list(response.context["messages"]), action
        assert other_kinds_jobs(round_) == [], action


def test_the_round_admin_serves_every_kind(arena_of, client):
    arena = arena_of()
    boss = get_user_model().objects.create_superuser("boss48", "boss48@example.org", "pw")
    client.force_login(boss)
    rename_and_run_actions(client, arena.round, "Renamed by the superuser")

    organizer_grant(user=arena.organizer, competition=arena.competition)
    client.force_login(arena.organizer)
    rename_and_run_actions(client, arena.round, "Renamed by the organizer")


def test_a_staff_organizer_reaches_no_other_competition_s_round(arena_of, client):
    mine, theirs = arena_of(), arena_of()
    organizer = get_user_model().objects.create_user("staff48", password="pw")
    organizer_grant(user=organizer, competition=mine.competition)
    client.force_login(organizer)
    url = reverse("admin:competitions_round_change", args=[theirs.round.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, {"name": "Taken"}).status_code == 404
    for action in offered_actions(client, mine.round):
        client.post(CHANGELIST, {"action": action, "_selected_action": [theirs.round.pk]})
    theirs.round.refresh_from_db()
    assert theirs.round.name != "Taken"
    assert Round.objects.filter(pk=theirs.round.pk).exists()
    assert other_kinds_jobs(theirs.round) == []


def round_parts(round_: Round) -> list:
    """The rows of ``round_``'s kind that belong to it alone (its one-to-one parts: the
    sequential, DP, synthetic or scorer settings), read from the round."""
    parts = []
    for relation in Round._meta.related_objects:
        if relation.one_to_one:
            part = relation.related_model.objects.filter(**{relation.field.name: round_}).first()
            if part is not None:
                parts.append(part)
    return parts


def test_the_admin_deletes_no_round_nor_a_round_s_part(arena_of, client):
    """A round is deleted on its console page only (``round_delete``: refused once teams
    uploaded, its results were published or an award names it; audited; its files removed).
    The admin's delete skipped all three, for a superuser: it is offered on no page of a
    round or of a kind's part of one, and a delete posted there deletes nothing."""
    arena = arena_of()
    boss = get_user_model().objects.create_superuser("boss48d", "boss48d@example.org", "pw")
    client.force_login(boss)
    rows = [arena.round, *round_parts(arena.round)]
    for row in rows:
        info = (row._meta.app_label, row._meta.model_name)
        if not admin.site.is_registered(type(row)):
            continue
        delete = reverse("admin:{}_{}_delete".format(*info), args=[row.pk])
        assert client.get(delete).status_code == 403, info
        assert client.post(delete, {"post": "yes"}).status_code == 403, info
        changelist = reverse("admin:{}_{}_changelist".format(*info))
        client.post(
            changelist, {"action": "delete_selected", "_selected_action": [row.pk], "post": "yes"}
        )
        assert type(row).objects.filter(pk=row.pk).exists(), info
    assert Round.objects.filter(pk=arena.round.pk).exists()


def change_page_url(row) -> str:
    return reverse(f"admin:{row._meta.app_label}_{row._meta.model_name}_change", args=[row.pk])


def typed_changes(fields: list[dict], *, order: bool) -> dict:
    """What an organizer types on a round's admin page: every upload limit per day one more
    (empty, no limit: 1), every close a day later, and with ``order`` the round's order one
    more. The blank row Django keeps for "Add another" is not the round's."""
    changes = {}
    for field in fields:
        name, value = field["name"], field.get("value") or ""
        if "__prefix__" in name:
            continue
        if name.endswith("daily_limit"):
            changes[name] = str(int(value or 0) + 1)
        elif name.endswith("closes_at_0") and value:
            changes[name] = (dt.date.fromisoformat(value) + dt.timedelta(days=1)).isoformat()
        elif order and name == "order":
            changes[name] = str(int(value) + 1)
    return changes


def ranking_version(round_: Round) -> int:
    return (
        RankingVersion.objects.filter(round_id=round_.pk).values_list("version", flat=True).first()
        or 0
    )


def test_every_admin_save_of_a_round_s_settings_is_one_audit_line(arena_of, client):
    """The round's page (posted by a staff organizer) and its kind's part's page where the
    admin changes one (a superuser's: organizers only read the parts), posted as rendered
    with the limits and closes they show changed (the round's page: also its order): one
    audit line naming the changes, the ranking version moved, the values kept; posted again
    as rendered, nothing written."""
    arena = arena_of()
    organizer_grant(user=arena.organizer, competition=arena.competition)
    boss = get_user_model().objects.create_superuser("boss48a", "boss48a@example.org", "pw")
    pages = [(arena.round, arena.organizer, "round_form")]
    for part in round_parts(arena.round):
        request = RequestFactory().get("/")
        request.user = boss
        if admin.site.is_registered(type(part)) and admin.site.get_model_admin(
            type(part)
        ).has_change_permission(request, part):
            pages.append((part, boss, f"{part._meta.model_name}_form"))
    edits = AuditEntry.objects.filter(round=arena.round, action=AuditEntry.Action.ROUND_EDITED)
    for row, user, form_id in pages:
        client.force_login(user)
        url = change_page_url(row)
        fields = fields_of_form(client.get(url).content.decode(), form_id)
        changes = typed_changes(fields, order=isinstance(row, Round))
        assert changes, url
        before, version = set(edits.values_list("pk", flat=True)), ranking_version(arena.round)
        response = client.post(url, post_data(fields, changes))
        errors = response.context["adminform"].form.errors if response.status_code == 200 else {}
        assert response.status_code == 302, (url, errors)
        (entry,) = edits.exclude(pk__in=before)
        named = set(entry.detail["fields"])
        assert entry.user == user and named, url
        if "order" in changes:
            assert "order" in named
        if set(changes) - {"order"}:  # a limit, a close: named too (not only the order)
            assert named - {"order"}, (url, named)
        assert ranking_version(arena.round) > version, url
        shown = {
            f["name"]: f.get("value")
            for f in fields_of_form(client.get(url).content.decode(), form_id)
        }
        assert {name: shown.get(name) for name in changes} == changes, url
        again = fields_of_form(client.get(url).content.decode(), form_id)
        assert client.post(url, post_data(again)).status_code == 302, url
        assert edits.count() == len(before) + 1, url
