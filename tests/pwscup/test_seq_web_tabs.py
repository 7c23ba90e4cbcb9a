"""The sequential round's page as five tabs: what a newcomer reads on each (the game in plain
words, the flow and what to do now; the data, the sample and the kit; each number in one
sentence with a worked example computed by the check; the upload form first; the results),
for a team, a visitor and the organizer."""

import html
import re

import pytest

from pwscup.kinds.tabs import TABS
from pwscup.sequential import example, services
from pwscup.sequential.models import Release
from tests.pwscup.live_support import live_box, poll
from tests.pwscup.seq_web_world import (
    attack_phase_world,
    fixture,
    fixture_config,
    freeze,
    publish,
    seq_world,
    tab,
    upload_file,
    url,
)

pytestmark = pytest.mark.django_db

TABLE3 = "zhang_release_1.csv"


def text_of(client, address: str) -> str:
    response = client.get(address)
    assert response.status_code == 200, address
    return html.unescape(response.content.decode())


def flow_states(page: str) -> list[str]:
    return re.findall(r'<li class="flow-step flow-(done|now|later)"', page)


def test_the_overview_says_the_game_in_plain_words_and_follows_the_team(client):
    world = seq_world()
    client.force_login(world.users["a"])
    page = text_of(client, tab(world, "overview"))
    assert "published 2 times (release 1, 2, …) as people join and leave" in page
    assert "counterfeit" in page and "2-invariance" in page
    # The plain words come first, the paper's term after them.
    assert page.index("same set of possible sensitive values") < page.index("2-invariance")
    assert flow_states(page) == ["now", "later", "later", "later"]
    now = page[page.index('data-testid="now"') :]
    assert "Download T(1) and the kit" in now and f'href="{tab(world, "data")}"' in now
    assert "Upload release 1 (open now, no deadline)." in now
    assert "Upload release 1 (" in now and f'href="{tab(world, "submit")}#upload"' in now
    assert "Check locally first with the printed command" in now

    publish(world, "a", 1, fixture(TABLE3))
    assert flow_states(text_of(client, tab(world, "overview"))) == ["done", "now", "later", "later"]
    freeze(world)
    page = text_of(client, tab(world, "overview"))
    assert flow_states(page) == ["done", "done", "now", "later"]
    assert "Upload release 2 (" in page
    freeze(world)
    page = text_of(client, tab(world, "overview"))
    assert flow_states(page) == ["done", "done", "done", "now"]
    assert "Your sequence is scored." in page


def test_every_tab_answers_a_visitor_the_organizer_and_a_team_in_both_languages(client):
    world = seq_world()
    readers = {"visitor": None, "organizer": world.organizer, "team": world.users["a"]}
    for who, user in readers.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        for lang in ("en", "ja"):
            client.cookies["django_language"] = lang
            for key, _label in TABS:
                page = text_of(client, tab(world, key))
                assert f'data-testid="tab-{key}" aria-current="page"' in page, (who, key)
    client.cookies["django_language"] = "en"
    client.logout()
    overview = text_of(client, tab(world, "overview"))
    assert 'data-testid="team-register"' in overview  # log in or sign up, then a team
    for key in ("data", "submit"):
        assert 'data-testid="download-T1"' not in text_of(client, tab(world, key))


def test_the_data_tab_offers_the_sample_the_kit_the_files_and_the_toolkit(client):
    world = seq_world()
    client.force_login(world.users["a"])
    page = text_of(client, tab(world, "data"))
    for testid in ("download-sample", "download-kit", "download-T1", "download-master"):
        assert f'data-testid="{testid}"' in page, testid
    assert page.index('data-testid="sample"') < page.index('data-testid="steps"')
    assert "release_1.csv</code>, made from your team's data" in page
    assert url(world, "sequential:sample") in page and url(world, "sequential:kit") in page
    assert "pip install pwscup_toolkit-" in page and "/toolkit/pwscup_toolkit-" in page
    sample = client.get(url(world, "sequential:sample"))
    assert sample.status_code == 200
    assert 'filename="release_1.csv"' in sample["Content-Disposition"]
    assert sample.content.startswith(b"gid,pid,Age,Zip,Disease\n")


def test_the_data_tab_shows_the_latest_valid_release_until_it_is_frozen(client):
    world = seq_world()
    client.force_login(world.users["a"])
    valid = publish(world, "a", 1, fixture(TABLE3))
    assert valid.status == Release.Status.FINISHED, valid.message
    release_file = url(world, "sequential:release_file", valid.pk)
    for language, words in (
        ("en", "upload #1: valid, not frozen yet"),
        ("ja", "アップロード #1: 有効（まだ凍結されていません）"),
    ):
        client.cookies["django_language"] = language
        page = text_of(client, tab(world, "data"))
        row = page[page.index('data-testid="step-1"') :]
        row = row[: row.index("</tr>")]
        assert f'href="{release_file}" data-testid="latest-1"' in row
        assert words in row[row.index('data-testid="not-frozen-1"') :]
    freeze(world)
    client.cookies["django_language"] = "en"
    page = text_of(client, tab(world, "data"))
    row = page[page.index('data-testid="step-1"') :]
    row = row[: row.index("</tr>")]
    assert f'href="{release_file}" data-testid="frozen-1"' in row and "not frozen" not in row


def test_a_team_without_a_master_is_told_and_gets_no_sample_nor_kit(client):
    world = seq_world(config=fixture_config("small_config.json"), master=None, letters="a")
    client.force_login(world.users["a"])
    for key in ("data", "submit"):
        page = text_of(client, tab(world, key))
        assert "The organizers have not given your team a master table yet." in page
        assert 'data-testid="upload-form"' not in page
    assert client.get(url(world, "sequential:sample")).status_code == 404
    assert client.get(url(world, "sequential:kit")).status_code == 404


def test_the_worked_example_is_the_check_s_own_numbers_and_the_page_shows_them(client):
    worked = example.worked_example()
    kept, regrouped = worked["kept_outcome"], worked["regrouped_outcome"]
    assert (kept.results["MU"], kept.results["MINV"], kept.results["RN_max"]) == ([2, 2], 2, 0.5)
    assert kept.risk == {"Anna": 0.5, "Ben": 0.5, "Carl": 0.5, "Dora": 0.5}
    assert kept.results["CF"] == 1  # Carl's counterfeit row
    assert (regrouped.results["MU"], regrouped.results["MINV"]) == ([2, 2], 0)
    assert regrouped.risk["Anna"] == 1.0 and regrouped.results["RN_max"] == 1.0
    assert regrouped.results["violations"] == [
        "person 'Anna': signature {cold, flu} at release 1 but {flu, hiv} at release 2"
    ]
    world = seq_world()
    page = text_of(client, tab(world, "rules"))  # a visitor reads the rules too
    shown = page[page.index('data-testid="worked-example"') :]
    assert "2-invariant (MINV = 2)" in shown and "her risk is 0.50 (RN_max = 0.50)" in shown
    assert "not 2-invariant (MINV = 0)" in shown and "her risk is 1.00 (RN_max = 1.00)" in shown
    assert 'data-testid="release-header">gid,pid,Age,Zip,Disease</pre>' in page
    for term in ("MU(j)", "MINV", "RN_max", "RA_max", "IL", "RN_over", "MAP_N"):
        assert f"<dt>{term}" in page, term
    client.cookies["django_language"] = "ja"
    page = text_of(client, tab(world, "rules"))
    assert "MINV = 2" in page and "MINV = 0" in page


def test_the_submit_tab_puts_the_upload_form_first_then_the_limits_command_and_uploads(client):
    world = seq_world()
    world.sequential.daily_limit = 5
    world.sequential.save(update_fields=["daily_limit"])
    publish(world, "a", 1, fixture(TABLE3))
    client.force_login(world.users["a"])
    page = text_of(client, tab(world, "submit"))
    order = ["upload-form", "quota", "check-command", "uploads"]
    places = [page.index(f'data-testid="{testid}"') for testid in order]
    assert places == sorted(places), order
    assert 'data-testid="accepted"' in page and 'data-testid="upload-minv">2<' in page
    number = world.sequential.releases.get().number
    assert f'data-testid="upload-number">{number}<' in page  # the upload's #n in the team
    # the #n restarts per release, and the legend says so (not "in your team")
    assert "number among your team's uploads of that release" in page
    client.cookies["django_language"] = "ja"
    assert "#: その公開データについてのチーム内のアップロード番号" in text_of(
        client, tab(world, "submit")
    )
    client.cookies["django_language"] = "en"
    assert "python -m scoring seq check master.csv release_1.csv --config config.json</pre>" in page
    freeze(world)
    freeze(world)
    page = text_of(client, tab(world, "submit"))
    assert 'data-testid="upload-form"' not in page
    assert "Every release is frozen: no more uploads." in page


def test_the_attack_form_comes_first_while_the_attack_phase_is_open(client):
    world = attack_phase_world()
    client.force_login(world.users["b"])
    page = text_of(client, tab(world, "submit"))
    assert page.index('data-testid="attack-phase"') < page.index('data-testid="upload"')
    target = page[page.index('data-testid="target-teamA"') :]
    assert "teamA_background.csv" in target.split("</li>")[0]
    assert "<form" in target.split("</li>")[0]
    own = page[page.index('data-testid="target-teamB"') :].split("</li>")[0]
    assert "<form" not in own
    services.results_publish(sequential=world.sequential)
    page = text_of(client, tab(world, "submit"))
    assert page.index('data-testid="upload"') < page.index('data-testid="attack-phase"')
    assert "The attack phase is closed" in page and "Upload guesses" not in page


def test_the_submit_tabs_uploads_list_releases_only_and_a_pending_guess_still_reloads(client):
    """Guesses have their own list under each target: the releases table keeps the team's
    releases (a guess's row would link to a release numbered by the guess's id), while a
    guess being checked still makes the page follow the team's version."""
    world = attack_phase_world()
    target = world.sequential.targets.get(team=world.teams["a"])
    guess = services.attack_upload(
        target=target,
        team=world.teams["b"],
        user=world.users["b"],
        uploaded_file=upload_file(b"pid,guess\nBob,dyspepsia\n", "guesses.csv"),
    )
    client.force_login(world.users["b"])
    response = client.get(tab(world, "submit"))
    own = list(world.sequential.releases.filter(team=world.teams["b"]))
    assert response.context["releases"] == own
    table = response.content.decode().split('data-testid="uploads"')[1].split("</section>")[0]
    rows = re.findall(r'<tbody data-testid="upload-(\d+)"', table)
    assert sorted(map(int, rows)) == sorted(r.pk for r in own)
    assert 'data-testid="live-reload"' in response.content.decode()  # the guess is queued
    services.attack_score(attack_id=guess.pk)
    page = client.get(tab(world, "submit")).content.decode()
    assert 'data-testid="live-reload"' not in page


def test_the_results_tab_shows_the_latest_release_the_chart_and_the_leaderboard_link(client):
    world = seq_world()
    client.force_login(world.users["a"])
    assert 'data-testid="no-release"' in text_of(client, tab(world, "results"))
    release = publish(world, "a", 1, fixture(TABLE3))
    assert release.status == Release.Status.FINISHED
    page = text_of(client, tab(world, "results"))
    for testid in ("latest", "minv", "risk-chart", "leaderboard-link"):
        assert f'data-testid="{testid}"' in page, testid
    client.logout()
    page = text_of(client, tab(world, "results"))
    assert 'data-testid="leaderboard-link"' not in page and 'data-testid="no-results"' in page


def test_a_tab_listing_a_release_being_checked_reloads_when_the_teams_version_moves(client):
    world = seq_world()
    client.force_login(world.users["a"])
    response = client.post(
        url(world, "sequential:seq-release-send"),
        {"step": "1", "file": upload_file(fixture(TABLE3), "release_1.csv")},
    )
    assert response["Location"] == tab(world, "submit") + "#uploads"
    page = client.get(tab(world, "submit"))
    assert 'data-testid="pending"' in page.content.decode()
    # No blind reload every 3 s: the page's script polls the team's version and reloads the
    # page (location.reload(), which also reloads ".../submit/#uploads") when it moved.
    assert "Refresh" not in page
    assert 'data-pending="1" data-testid="live-reload"' in page.content.decode()
    live_url, etag = live_box(page.content.decode())
    assert poll(client, live_url, etag).status_code == 304
    release = world.sequential.releases.get()
    services.release_check(release_id=release.pk)  # the worker
    assert poll(client, live_url, etag).status_code == 200
    page = client.get(tab(world, "submit"))
    assert "Refresh" not in page and 'data-testid="accepted"' in page.content.decode()
    assert 'data-testid="live-reload"' not in page.content.decode()  # nothing to follow


def test_a_release_being_checked_reloads_its_own_page_when_it_is_checked(client):
    world = seq_world()
    client.force_login(world.users["a"])
    client.post(
        url(world, "sequential:seq-release-send"),
        {"step": "1", "file": upload_file(fixture(TABLE3), "release_1.csv")},
    )
    release = world.sequential.releases.get()
    address = url(world, "sequential:release", release.pk)
    page = client.get(address)
    assert "Refresh" not in page
    live_url, etag = live_box(page.content.decode())
    assert poll(client, live_url, etag).status_code == 304
    services.release_check(release_id=release.pk)
    assert poll(client, live_url, etag).status_code == 200
    assert 'data-testid="live-reload"' not in client.get(address).content.decode()
