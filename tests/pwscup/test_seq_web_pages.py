"""The sequential round's pages: what a team, another team, the organizer and a visitor see."""

import html
import re

import pytest
from django.urls import reverse

from tests.pwscup.seq_web_world import (
    fixture,
    fixture_config,
    freeze,
    publish,
    run_seq_jobs,
    seq_world,
    tab,
    upload_file,
)

pytestmark = pytest.mark.django_db

TABLE3, TABLE9 = "zhang_release_1.csv", "zhang_release_2_table9.csv"


def url(world, name, *args):
    return reverse(name, args=[world.competition.slug, world.round.slug, *args])


def test_online_the_team_sees_only_the_open_step(client):
    world = seq_world()
    client.force_login(world.users["a"])
    page = client.get(tab(world, "data"))
    assert page.status_code == 200
    assert b"T(1).csv" in page.content and b"T(2).csv" not in page.content
    assert client.get(url(world, "sequential:step_table", 1)).status_code == 200
    assert client.get(url(world, "sequential:step_table", 2)).status_code == 404
    so_far = client.get(url(world, "sequential:master")).content.decode().splitlines()
    assert so_far[0] == "pid,Age,Zip,Disease,lsf,lsb" and len(so_far) == 1 + 11
    assert "Bob,21,12000,dyspepsia,1,1" in so_far  # lsb cut at the visible step
    freeze(world)
    assert client.get(url(world, "sequential:step_table", 2)).status_code == 200
    so_far = client.get(url(world, "sequential:master")).content.decode().splitlines()
    assert "Bob,21,12000,dyspepsia,1,2" in so_far and "Emily,25,21000,flu,2,2" in so_far


def test_upload_through_the_page_then_the_release_page_shows_the_risk_table(client):
    world = seq_world()
    client.force_login(world.users["a"])
    response = client.post(
        url(world, "sequential:seq-release-send"),
        {"step": "1", "file": upload_file(fixture(TABLE3), "release_1.csv")},
    )
    assert response.status_code == 302
    assert response["Location"] == tab(world, "submit") + "#uploads"
    run_seq_jobs()  # the worker checks the release
    release = world.sequential.releases.get()
    submit = client.get(response["Location"]).content.decode()
    assert f'data-testid="upload-{release.pk}"' in submit and 'data-testid="accepted"' in submit
    detail = client.get(url(world, "sequential:release", release.pk))
    assert detail.status_code == 200
    assert b'data-testid="tab-submit" aria-current="page"' in detail.content
    assert b"MU(j)" in detail.content and b"P_N_true" in detail.content
    assert b'data-testid="person-Bob"' in detail.content
    freeze(world)
    publish(world, "a", 2, fixture(TABLE9))
    page = client.get(tab(world, "results"))
    assert b'data-testid="risk-chart"' in page.content
    assert page.content.count(b'data-testid="mark-RN_max"') == 2  # steps 1 and 2
    assert b"Content-Security-Policy" not in page.content and b"<script>" not in page.content


def test_a_rejected_upload_shows_the_spec_message_in_japanese(client):
    world = seq_world()
    client.force_login(world.users["a"])
    client.post(reverse("set_language"), {"language": "ja", "next": "/"})
    bad = b"gid,pid,Age,Zip,Disease\n1,Zoe,21,12000,flu\n"
    response = client.post(
        url(world, "sequential:seq-release-send"), {"step": "1", "file": upload_file(bad, "r.csv")}
    )
    run_seq_jobs()
    page = client.get(response["Location"])
    text = html.unescape(page.content.decode())
    assert "公開データ 1 の 1 行目: pid 'Zoe' はマスター表にありません" in text


def test_the_organizer_console_shows_the_timeline_and_freezes(client):
    world = seq_world()
    client.force_login(world.organizer)
    page = client.get(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="timeline"' in text and "+5" in text and "−5" in text
    response = client.post(url(world, "sequential:action", "freeze"), {"step": "1"})
    assert response.status_code == 302
    world.sequential.refresh_from_db()
    assert world.sequential.frozen_steps == 1


def test_the_console_creates_a_round_and_reports_a_bad_configuration(client):
    world = seq_world()
    client.force_login(world.organizer)
    create = reverse("sequential_console:create", args=[world.competition.slug])
    bad = client.post(
        create,
        {
            "name": "S2",
            "slug": "s2",
            "config": '{"n_releases": 2, "m": 1, "qi": {"Age": "num"}, "sa": "Disease"}',
            "master": upload_file(fixture("zhang_master.csv"), "master.csv"),
        },
    )
    assert bad.status_code == 200
    assert "configuration key &#x27;m&#x27; must be an integer ≥ 2" in bad.content.decode()
    good = client.post(
        create,
        {
            "name": "S2",
            "slug": "s2",
            "config": (
                '{"n_releases": 2, "m": 2, "qi": {"Age": "num", "Zip": "num"}, '
                '"sa": "Disease", "require_m_eligible": false}'
            ),
            "master": upload_file(fixture("zhang_master.csv"), "master.csv"),
        },
    )
    assert good.status_code == 302
    assert (
        client.get(reverse("round_detail", args=[world.competition.slug, "s2"])).status_code == 200
    )


def test_leaderboard_prints_the_rule_and_visitors_see_it_only_when_published(client):
    world = seq_world()
    publish(world, "a", 1, fixture(TABLE3))
    freeze(world)
    client.force_login(world.users["b"])
    board = client.get(url(world, "sequential:leaderboard"))
    assert board.status_code == 200
    text = board.content.decode()
    assert 'data-testid="tab-results" aria-current="page"' in text
    assert "Ranking rule" in text and "RN_max" in text and "Ties are broken by RN_mean" in text
    client.logout()
    assert client.get(url(world, "sequential:leaderboard")).status_code == 404
    world.sequential.results_published = True
    world.sequential.save()
    assert client.get(url(world, "sequential:leaderboard")).status_code == 200


def test_sequential_urls_answer_404_for_a_round_of_another_kind(client, make_world):
    other = make_world(slug="plain")
    client.force_login(other.users["a"])
    response = client.get(
        reverse("sequential:leaderboard", args=[other.competition.slug, other.round.slug])
    )
    assert response.status_code == 404


def test_the_admin_checks_the_configuration_with_the_same_messages(client):
    import json

    from django.contrib.auth import get_user_model

    from pwscup.accounts.services import organizer_grant

    world = seq_world()
    admin_user = get_user_model().objects.create_superuser("seq-root", password="pw")
    client.force_login(admin_user)
    change = reverse("admin:sequential_sequentialround_change", args=[world.sequential.pk])
    page = client.get(change).content.decode()
    # One who may change the round edits its configuration once (no read-only copy too), and
    # every label is capitalised (the limits read as on the console's page).
    assert 'name="config"' in page and "field-configuration" not in page
    for label in ("Uploads per team per release per day", "Uploads per team per release"):
        assert f">{label}:</label>" in page, label
    config = {**world.sequential.config, "m": 1}
    response = client.post(change, {"config": json.dumps(config)})
    assert response.status_code == 200
    assert "configuration key &#x27;m&#x27; must be an integer ≥ 2" in response.content.decode()
    world.sequential.refresh_from_db()
    assert world.sequential.config["m"] == 2
    # A release's page names its fields in the reader's language ("Elapsed ms" before).
    kept = publish(world, "a", 1, fixture(TABLE3))
    release_page = client.get(
        reverse("admin:sequential_release_change", args=[kept.pk]), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "所要時間（ミリ秒）" in release_page and "結果" in release_page
    assert "Elapsed ms" not in release_page
    # The round's organizer reads the round (no right to change it): its configuration once,
    # named in the reader's language (the form's JSON field showed as "Config" too).
    organizer_grant(user=world.organizer, competition=world.competition)
    client.force_login(world.organizer)
    page = client.get(change, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "設定" in page and "Config" not in page
    assert "field-configuration" in page and 'name="config"' not in page
    # Another competition's organizer does not see this round in the admin.
    other = get_user_model().objects.create_user("seq-other", password="pw", is_staff=True)
    client.force_login(other)
    assert client.get(change).status_code in (302, 403, 404)


def test_the_risk_table_marks_the_persons_above_one_over_m(client):
    world = seq_world()
    publish(world, "a", 1, fixture(TABLE3))
    freeze(world)
    release = publish(world, "a", 2, fixture("zhang_release_2_table4.csv"))
    client.force_login(world.users["a"])
    text = client.get(url(world, "sequential:release", release.pk)).content.decode()
    bob = text.split('data-testid="person-Bob"', 1)[1].split("</tr>", 1)[0]
    assert '<td class="num over">1.0000</td>' in bob  # P_N_true(Bob) = 1 > 1/2 (W2)
    emily = text.split('data-testid="person-Emily"', 1)[1].split("</tr>", 1)[0]
    assert "over" not in emily
    header = text.split('data-testid="risk-table"', 1)[1].split("</thead>", 1)[0]
    assert header.index("P_N_true") < header.index("groups_per_release")


def test_an_empty_file_is_answered_as_empty_not_as_no_file_chosen(client):
    world = seq_world()
    client.force_login(world.users["a"])
    answer = client.post(
        url(world, "sequential:seq-release-send"),
        {"step": "1", "file": upload_file(b"", "release_1.csv")},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    shown = [str(m) for m in answer.context["messages"]]
    assert shown == ["The submitted file is empty."]
    assert not world.sequential.releases.exists()
    # No file at all is still asked for.
    answer = client.post(url(world, "sequential:seq-release-send"), {"step": "1"}, follow=True)
    assert [str(m) for m in answer.context["messages"]] == ["Choose a file."]


def test_batch_the_upload_form_starts_at_the_release_the_page_says_to_upload(client):
    world = seq_world(config={**fixture_config("zhang_config.json"), "mode": "batch"})
    client.force_login(world.users["a"])

    def chosen_step() -> str:
        page = client.get(tab(world, "submit")).content.decode()
        select = re.search(r'<select name="step"[^>]*>(.*?)</select>', page, re.S).group(1)
        marked = re.search(r'<option value="(\d+)" selected>', select)
        # With no option marked, the browser shows the first.
        return marked.group(1) if marked else re.search(r'<option value="(\d+)"', select).group(1)

    assert chosen_step() == "1"
    publish(world, "a", 1, fixture(TABLE3))  # release 1 valid: release 2 is next
    overview = client.get(url(world, "round_detail")).content.decode()
    assert "Upload release 2 (open now, no deadline)." in overview
    assert chosen_step() == "2"
