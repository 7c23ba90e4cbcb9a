"""The console's *Void or restore uploads* page as a form: a refused post comes back with the
values typed and the error beside its field (and voids nothing); the table of the round's
counted uploads (newest first, every voidable type, this competition's only) and its Void…
link, which fills the form in with the upload."""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from pwscup.scorer.models import Attack, Release
from pwscup.submissions.models import Status
from tests.pwscup.scorer_world import scorer_world
from tests.pwscup.test_scorer_voids import address, bearer, played

pytestmark = pytest.mark.django_db


def page_of(world) -> str:
    return reverse("console:round_voids", args=[world.competition.slug, world.round.slug])


def organizer_client(world) -> Client:
    client = Client()
    client.force_login(world.organizer)
    return client


def tag(html: str, name: str) -> str:
    """The form's element whose ``name`` is ``name`` (its opening tag; a select with its
    options)."""
    found = re.search(rf'<select[^>]*name="{name}"[^>]*>.*?</select>', html, re.S) or re.search(
        rf'<input[^>]*name="{name}"[^>]*>', html
    )
    assert found, f"no field {name}"
    return found.group(0)


def field_group(html: str, name: str) -> str:
    """The form's field group of ``name``: from its label to the next field's label."""
    start = html.index(f'for="id_{name}"')
    end = html.find("<label", start + 1)
    return html[start:end]


def selected(html: str, name: str) -> str:
    option = re.search(r'<option value="([^"]*)"[^>]*selected', tag(html, name))
    return option.group(1) if option else ""


def value(html: str, name: str) -> str:
    found = re.search(r'value="([^"]*)"', tag(html, name))
    return found.group(1) if found else ""


SOON = (timezone.localtime() + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")


@pytest.mark.parametrize(
    ("typed", "field", "error"),
    [
        ({"upload": "12x"}, "upload", "Enter a whole number."),
        ({"upload": "{c1}", "before": SOON}, "before", "not both"),
        ({"upload": "{c1}", "reason": "  "}, "reason", "This field is required."),
        ({}, "upload", "Name one upload, or a time before which every upload is voided."),
    ],
    ids=["bad-id", "id-and-time", "no-reason", "neither"],
)
def test_a_refused_post_comes_back_with_the_typed_values_and_the_error_beside_its_field(
    typed, field, error
):
    world, attacks = played()
    posted = {"type": "attack", "team": "teamc", "reason": "Sent twice"}
    posted.update({key: text.format(c1=attacks["c1"].pk) for key, text in typed.items()})

    answer = organizer_client(world).post(page_of(world), posted)

    assert answer.status_code == 200
    html = answer.content.decode()
    assert error in field_group(html, field)
    assert selected(html, "type") == "attack"
    assert selected(html, "team") == "teamc"
    for name in ("upload", "before", "reason"):
        assert value(html, name) == posted.get(name, ""), name
    assert not Attack.objects.filter(voided_at__isnull=False).exists()


def test_the_service_s_refusal_comes_back_above_the_form_with_the_typed_values():
    """An id that names no counted upload of the round (here a release of another round's
    competition), and a published target: the service refuses, the page says why."""
    world, attacks = played()
    elsewhere = scorer_world(slug="voidelse", build=False)
    foreign = Release.objects.create(
        scorer=elsewhere.scorer, team=elsewhere.teams["a"], number=1, status=Status.FINISHED
    )
    client = organizer_client(world)

    answer = client.post(
        page_of(world), {"type": "release", "upload": str(foreign.pk), "reason": "Mine now"}
    )

    html = answer.content.decode()
    assert answer.status_code == 200
    assert f"No upload {foreign.pk} counts in this round." in html
    assert 'data-testid="form-errors-summary"' in html
    assert (value(html, "upload"), value(html, "reason")) == (str(foreign.pk), "Mine now")
    assert Release.objects.filter(voided_at__isnull=False).count() == 0


def test_a_restore_of_an_upload_that_is_not_voided_is_refused_with_a_message():
    world, attacks = played()
    restore = reverse(
        "console:round_void_restore",
        args=[world.competition.slug, world.round.slug, "attack", attacks["c1"].pk],
    )

    answer = organizer_client(world).post(restore, follow=True)

    assert f"No upload {attacks['c1'].pk} is voided in this round." in answer.content.decode()


def test_the_api_answers_404_for_an_id_that_does_not_count_or_is_not_voided():
    """The service's two "no such upload" refusals were a TypeError (a 500)."""
    world, attacks = played()
    client = Client()
    voided = client.post(
        address(world, "scorer-attacks-void"),
        {"upload": 999999, "reason": "gone"},
        **bearer(world.organizer),
    )
    restored = client.post(
        address(world, "scorer-attack-restore", attacks["c1"].pk), **bearer(world.organizer)
    )
    assert (voided.status_code, restored.status_code) == (404, 404)
    assert voided.json()["message"] == "No upload 999999 counts in this round."


def test_a_void_says_how_many_and_moves_the_upload_from_the_counted_table_to_the_voided():
    world, attacks = played()
    client = organizer_client(world)
    posted = {"type": "attack", "upload": str(attacks["b1"].pk), "before": "", "team": ""}

    answer = client.post(page_of(world), {**posted, "reason": "Sent twice"}, follow=True)

    html = answer.content.decode()
    assert "Uploads voided: 1." in html
    assert f'data-testid="voided-{attacks["b1"].pk}"' in html
    assert f'data-testid="counted-attack-{attacks["b1"].pk}"' not in html
    assert f'data-testid="counted-attack-{attacks["c1"].pk}"' in html
    assert Attack.objects.get(pk=attacks["b1"].pk).void_reason == "Sent twice"


def test_the_both_given_error_is_in_japanese_for_a_japanese_reader():
    world, attacks = played()
    client = organizer_client(world)
    client.cookies["django_language"] = "ja"
    posted = {"type": "attack", "upload": str(attacks["c1"].pk), "before": SOON, "reason": "x"}

    html = client.post(page_of(world), posted).content.decode()

    assert "アップロードの ID か時刻のどちらか一方" in field_group(html, "before")


def test_the_void_link_fills_the_form_in_with_the_upload_and_focuses_the_reason():
    world, attacks = played()
    client = organizer_client(world)
    html = client.get(page_of(world)).content.decode()
    link = re.search(
        rf'<a href="([^"]+)" data-testid="void-link-attack-{attacks["c2"].pk}"', html
    ).group(1)

    filled = client.get(page_of(world) + link.replace("&amp;", "&")).content.decode()

    assert selected(filled, "type") == "attack"
    assert value(filled, "upload") == str(attacks["c2"].pk)
    assert value(filled, "reason") == ""
    assert "autofocus" in tag(filled, "reason")
    assert "autofocus" not in tag(html, "reason")


def test_the_table_lists_the_counted_uploads_newest_first_not_a_voided_one_nor_another_competition_s():
    world, attacks = played()
    Attack.objects.filter(pk=attacks["c2"].pk).update(
        created_at=timezone.now() + dt.timedelta(minutes=5)
    )
    Attack.objects.filter(pk=attacks["a1"].pk).update(voided_at=timezone.now(), void_reason="x")
    elsewhere = scorer_world(slug="voidelse", build=False)
    foreign = Release.objects.create(
        scorer=elsewhere.scorer, team=elsewhere.teams["a"], number=7, status=Status.FINISHED
    )

    html = organizer_client(world).get(page_of(world)).content.decode()

    table = html[html.index('data-testid="counted-list"') : html.index('data-testid="voided-list"')]
    listed = re.findall(r'data-testid="counted-(\w+)-(\d+)"', table)
    releases = Release.objects.filter(scorer=world.scorer).order_by("-created_at", "-pk")
    assert listed[0] == ("attack", str(attacks["c2"].pk))
    assert ("attack", str(attacks["a1"].pk)) not in listed
    assert ("release", str(foreign.pk)) not in listed
    assert {pk for kind, pk in listed if kind == "release"} == {str(r.pk) for r in releases}
    assert len(listed) == 3 + releases.count()


def test_the_team_filter_and_the_show_more_link_bound_the_table():
    world, _attacks = played()
    team_c = world.teams["c"]
    Attack.objects.bulk_create(
        Attack(
            scorer=world.scorer,
            team=team_c,
            number=10 + n,
            status=Status.FINISHED,
            created_at=timezone.now() - dt.timedelta(days=1, minutes=n),
        )
        for n in range(60)
    )
    client = organizer_client(world)

    first = client.get(page_of(world), {"team": "teamc"}).content.decode()
    more = client.get(page_of(world), {"team": "teamc", "shown": "100"}).content.decode()

    def rows(html):
        return re.findall(
            r'<tr role="row" data-testid="counted-\w+-\d+"><td role="cell">([^<]*)', html
        )

    assert set(rows(first)) == {"Team C"} and len(rows(first)) == 50
    assert 'href="?team=teamc&amp;shown=100" data-testid="counted-more"' in first
    assert len(rows(more)) == 62 and 'data-testid="counted-more"' not in more
    assert "shown=100&amp;type=attack" in more  # a Void… link keeps the table as it is
    unknown = client.get(page_of(world), {"team": "nobody"})
    assert unknown.status_code == 200 and "Select a valid choice." in unknown.content.decode()
    assert {"Team A", "Team B", "Team C"} <= set(rows(unknown.content.decode()))


def test_only_the_competition_s_organizers_reach_the_page_and_a_team_s_post_voids_nothing():
    world, attacks = played()
    team = Client()
    team.force_login(world.users["b"])
    page = page_of(world)
    posted = {"type": "attack", "upload": str(attacks["b1"].pk), "reason": "mine"}
    assert team.get(page).status_code == 404
    assert team.post(page, posted).status_code == 404
    other = scorer_world(slug="voidelse", build=False)
    stranger = Client()
    stranger.force_login(other.organizer)
    assert stranger.post(page, posted).status_code == 404
    assert Client().post(page, posted).status_code == 302  # to the login page
    assert not Attack.objects.filter(voided_at__isnull=False).exists()


def page_with_b1_voided() -> tuple[str, dict]:
    """The page, in English, once B's attack ``b1`` is voided through the form; and the
    attacks."""
    world, attacks = played()
    client = organizer_client(world)
    posted = {"type": "attack", "upload": str(attacks["b1"].pk), "before": "", "team": ""}
    client.post(page_of(world), {**posted, "reason": "Sent twice"})
    return client.get(page_of(world), HTTP_ACCEPT_LANGUAGE="en").content.decode(), attacks


def row_of(html: str, testid: str) -> str:
    return re.search(rf'data-testid="{testid}".*?</tr>', html, re.S).group(0)


def test_the_page_s_ids_are_unique_and_a_voided_row_names_its_columns_on_a_phone():
    html, attacks = page_with_b1_voided()

    ids = re.findall(r'\sid="([^"]*)"', html)
    assert len(ids) == len(set(ids)), sorted(i for i in set(ids) if ids.count(i) > 1)
    assert 'for="id_filter_team"' in html
    row = row_of(html, f"voided-{attacks['b1'].pk}")
    labels = re.findall(r'<span class="phone-label" aria-hidden="true">([^<]*)</span>', row)
    assert labels == ["Voided", "Why"]


def test_a_voided_row_gives_its_time_with_the_zone_as_a_counted_row_does():
    html, attacks = page_with_b1_voided()

    def times(testid: str) -> list[str]:
        return re.findall(r'<span class="nowrap">(\d\d:\d\d [^<]+)</span>', row_of(html, testid))

    counted = times(f"counted-attack-{attacks['c1'].pk}")
    voided = times(f"voided-{attacks['b1'].pk}")
    assert len(counted) == len(voided) == 1
    assert voided[0].split(" ", 1)[1] == counted[0].split(" ", 1)[1]  # the zone
    assert '<span class="muted small nowrap">(id ' in html


def test_a_row_names_the_upload_by_its_noun_number_and_file_and_an_attack_its_target():
    world, attacks = played()
    Release.objects.filter(team=world.teams["a"]).update(original_filename="teamA_release.csv")
    Attack.objects.filter(pk=attacks["c1"].pk).update(original_filename="guess_c.csv")
    client = organizer_client(world)
    posted = {"type": "attack", "upload": str(attacks["b1"].pk), "before": "", "team": ""}
    client.post(page_of(world), {**posted, "reason": "Sent twice"})
    release = Release.objects.get(team=world.teams["a"])

    html = client.get(page_of(world), HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "<h1>Void or restore uploads</h1>" in html
    assert "<title>" in html and "· Void or restore uploads" in html
    assert re.findall(r"<option[^>]*>([^<]*)</option>", tag(html, "type")) == [
        "Release",
        "Attack",
    ]
    release_row = row_of(html, f"counted-release-{release.pk}")
    assert "Release #1 (teamA_release.csv)" in release_row and "target:" not in release_row
    attack_row = row_of(html, f"counted-attack-{attacks['c1'].pk}")
    assert "Attack #1 (guess_c.csv)" in attack_row and "target: Team A" in attack_row
    voided_row = row_of(html, f"voided-{attacks['b1'].pk}")
    assert "Attack #1" in voided_row and "target: Team A" in voided_row
    japanese = client.get(page_of(world), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "<h1>アップロードを無効にする・戻す</h1>" in japanese
    assert "攻撃 #1 (guess_c.csv)" in japanese and "攻撃対象: Team A" in japanese


def test_the_rows_targets_are_read_with_the_uploads_not_one_query_per_row():
    world, attacks = played()
    client = organizer_client(world)
    client.get(page_of(world))  # the session and the caches, once

    def page() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as captured:
            html = client.get(page_of(world)).content.decode()
        return len(captured), html

    before, _html = page()
    target_b = attacks["a1"].target
    Attack.objects.bulk_create(
        Attack(
            scorer=world.scorer,
            team=world.teams["c"],
            target=target_b,
            number=5 + n,
            status=Status.FINISHED,
        )
        for n in range(6)
    )
    Attack.objects.filter(pk=attacks["c2"].pk).update(voided_at=timezone.now(), void_reason="x")
    after, html = page()
    assert html.count("target: Team B") == 7 and html.count("target: Team A") == 3
    assert after == before


def test_the_japanese_page_says_valid_uploads_not_counted_ones():
    world, _attacks = played()
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(world.organizer)
    refused = client.post(
        page_of(world),
        {"type": "attack", "upload": "999999", "before": "", "team": "", "reason": "x"},
    ).content.decode()
    assert "このラウンドで有効なアップロードに ID 999999 のものはありません。" in refused
    assert "<h2>有効なアップロード</h2>" in refused
    assert "数えられている" not in refused
