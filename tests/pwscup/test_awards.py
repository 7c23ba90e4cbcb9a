"""Judged awards: the services' checks and audit lines, the console's pages (posted as the
browser renders them, and who may open them), the awards on the competition's page and the
round's results pages in both languages, and the archive's ``awards.csv``."""

import csv
import io

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from pwscup.accounts.models import Award
from pwscup.accounts.selectors import AwardLine, awards_csv, awards_of
from pwscup.accounts.services import award_create, award_delete, award_update, team_create
from pwscup.archives.builder import write_archive
from pwscup.archives.selectors import ArchiveRounds
from pwscup.competitions.models import AuditEntry
from pwscup.competitions.selectors import round_ranking_version
from pwscup.competitions.services import competition_create
from pwscup.kinds.tabs import tab_url
from pwscup.pwscup2015.services import round_results_set
from tests.pwscup.archive_world import archive_zip, manifest
from tests.pwscup.factories import freeze, scored
from tests.pwscup.rendered_forms import form_fields_of, post_as_rendered, post_data

pytestmark = pytest.mark.django_db

BEST = {"name_en": "Best presentation", "name_ja": "最優秀発表賞"}


@pytest.fixture
def other(django_user_model):
    """Another competition with its own organizer and team."""
    organizer = django_user_model.objects.create_user("other-org", password="pw")
    competition = competition_create(name="Other cup", slug="other", organizers=[organizer])
    team = team_create(competition=competition, name="Elsewhere", slug="elsewhere")
    return {"organizer": organizer, "competition": competition, "team": team}


def record(world, letter="a", *, round=None, **fields):
    return award_create(
        user=world.organizer,
        competition=world.competition,
        team=world.teams[letter],
        round=round,
        **{**BEST, **fields},
    )


def awards_url(world) -> str:
    return reverse("console:awards", args=[world.competition.slug])


# --- Services --------------------------------------------------------------------------


def test_recording_an_award_keeps_it_and_leaves_an_audit_line(world):
    award = record(world, round=world.round, name_en="  Best attack ", citation=" Fast. ")
    assert (award.name_en, award.citation, award.created_by) == (
        "Best attack",
        "Fast.",
        world.organizer,
    )
    entry = AuditEntry.objects.get(action=AuditEntry.Action.AWARD_RECORDED)
    assert (entry.competition, entry.round, entry.user) == (
        world.competition,
        world.round,
        world.organizer,
    )
    assert entry.detail == {"award": "Best attack", "team": "Team A"}


@pytest.mark.parametrize(
    ("fields", "key"),
    [
        ({"name_en": "  "}, "name_en"),
        ({"name_ja": ""}, "name_ja"),
        ({"name_en": "x" * 201}, "name_en"),
        ({"citation": "x" * 2001}, "citation"),
        ({"order": -1}, "order"),
        ({"order": 40_000}, "order"),
    ],
)
def test_an_award_needs_both_names_and_bounded_fields(world, fields, key):
    with pytest.raises(ValidationError) as refused:
        record(world, **fields)
    assert key in refused.value.message_dict
    assert not Award.objects.exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.AWARD_RECORDED).exists()


def test_an_award_names_a_team_and_a_round_of_its_own_competition(world, make_world, other):
    with pytest.raises(ValidationError) as refused:
        award_create(
            user=world.organizer, competition=world.competition, team=other["team"], **BEST
        )
    assert "team" in refused.value.message_dict
    elsewhere = make_world(slug="elsewhere")
    with pytest.raises(ValidationError) as refused:
        record(world, round=elsewhere.round)
    assert "round" in refused.value.message_dict
    assert not Award.objects.exists()


def test_editing_and_removing_an_award_are_audited(world):
    award = record(world)
    assert award_update(user=world.organizer, award=award, team=world.teams["a"], **BEST) is False
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.AWARD_EDITED).exists()
    changed = award_update(
        user=world.organizer,
        award=award,
        team=world.teams["b"],
        round=world.round,
        citation="Clear slides.",
        **BEST,
    )
    assert changed is True
    award.refresh_from_db()
    assert (award.team, award.round, award.citation) == (
        world.teams["b"],
        world.round,
        "Clear slides.",
    )
    edited = AuditEntry.objects.get(action=AuditEntry.Action.AWARD_EDITED)
    assert sorted(edited.detail["changed"]) == ["citation", "round", "team"]
    award_delete(user=world.organizer, award=award)
    assert not Award.objects.exists()
    removed = AuditEntry.objects.get(action=AuditEntry.Action.AWARD_REMOVED)
    assert removed.detail == {"award": "Best presentation", "team": "Team B"}


def test_an_award_of_a_round_gives_the_round_a_new_ranking_version(world):
    before = round_ranking_version(round=world.round)
    award = record(world, round=world.round)
    assert round_ranking_version(round=world.round) == before + 1
    unchanged = {"team": world.teams["a"], "round": world.round, **BEST}
    assert award_update(user=world.organizer, award=award, **unchanged) is False
    assert round_ranking_version(round=world.round) == before + 1
    award_delete(user=world.organizer, award=award)
    assert round_ranking_version(round=world.round) == before + 2


def test_the_name_follows_the_language_and_falls_back_to_the_other():
    line = AwardLine(1, "Best attack", "最優秀攻撃賞", "Team A", "teamA", "", None, None, 0)
    with translation.override("ja"):
        assert line.name == "最優秀攻撃賞"
    with translation.override("en"):
        assert line.name == "Best attack"
    only_english = AwardLine(1, "Best attack", "", "Team A", "teamA", "", None, None, 0)
    with translation.override("ja"):
        assert only_english.name == "Best attack"


def test_awards_of_lists_in_order_and_by_round(world):
    whole = record(world, "b", name_en="Committee's prize", order=2)
    first = record(world, round=world.round, order=1)
    assert [line.pk for line in awards_of(competition=world.competition)] == [first.pk, whole.pk]
    assert [line.pk for line in awards_of(competition=world.competition, round=world.round)] == [
        first.pk
    ]
    line = awards_of(competition=world.competition)[0]
    assert (line.team_name, line.round_slug, line.round_name) == ("Team A", "r1", "Round")


# --- The console -----------------------------------------------------------------------


def test_the_organizer_records_an_award_with_the_form_as_rendered(world, client):
    assert not world.organizer.is_superuser
    client.force_login(world.organizer)
    response = post_as_rendered(
        client,
        awards_url(world),
        "award-form",
        {
            "name_en": "Best attack",
            "name_ja": "最優秀攻撃賞",
            "team": str(world.teams["b"].pk),
            "round": str(world.round.pk),
            "citation": "Found every record.",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    award = Award.objects.get()
    assert (award.name_ja, award.team, award.round, award.order) == (
        "最優秀攻撃賞",
        world.teams["b"],
        world.round,
        0,
    )
    page = client.get(awards_url(world)).content.decode()
    assert f'data-testid="console-award-{award.pk}"' in page and "最優秀攻撃賞" in page
    edit = reverse("console:award_edit", args=[world.competition.slug, award.pk])
    response = post_as_rendered(client, edit, "award-form", {"round": "", "order": "3"})
    assert response.status_code == 302
    award.refresh_from_db()
    assert (award.round, award.order, award.name_en) == (None, 3, "Best attack")
    # Remove is a link to a page that asks first, as the console's other removals do.
    remove = reverse("console:award_remove", args=[world.competition.slug, award.pk])
    assert f'href="{remove}"' in client.get(awards_url(world)).content.decode()
    response = post_as_rendered(client, remove, "award-remove-form")
    assert response.status_code == 302
    assert not Award.objects.exists()


@pytest.mark.parametrize(
    ("language", "link", "question"),
    [
        ("en", "Remove", "Remove the award Best attack (Team B)?"),
        ("ja", "削除", "賞「最優秀攻撃賞」（Team B）を削除しますか？"),
    ],
)
def test_removing_an_award_asks_first_in_both_languages(world, client, language, link, question):
    """A judged award records the judges' decision: its Remove (削除, the word its page asks
    with, not a member's 外す) opens a page naming it (GET removes nothing), with the
    console's confirm button and a way back."""
    award = record(world, "b", name_en="Best attack", name_ja="最優秀攻撃賞")
    client.force_login(world.organizer)
    remove = reverse("console:award_remove", args=[world.competition.slug, award.pk])
    listing = client.get(awards_url(world), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'data-testid="award-remove-{award.pk}">{link}</a>' in listing
    page = client.get(remove, HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    html = page.content.decode()
    assert question in html.replace("&#x27;", "'"), html[:3000]
    assert 'data-testid="award-remove-confirm"' in html
    assert f'href="{awards_url(world)}"' in html  # Cancel
    assert Award.objects.filter(pk=award.pk).exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.AWARD_REMOVED).exists()
    response = client.post(remove, post_data(form_fields_of(html, "award-remove-form")))
    assert response.status_code == 302 and not Award.objects.exists()


def test_the_forms_choices_are_the_competitions_own(world, client, other, make_world):
    elsewhere = make_world(slug="elsewhere")
    client.force_login(world.organizer)
    fields = {
        f["name"]: f
        for f in form_fields_of(client.get(awards_url(world)).content.decode(), "award-form")
    }
    teams = {option["value"] for option in fields["team"]["options"]} - {""}
    rounds = {option["value"] for option in fields["round"]["options"]} - {""}
    assert teams == {str(team.pk) for team in world.teams.values()}
    assert rounds == {str(world.round.pk)}
    assert str(other["team"].pk) not in teams and str(elsewhere.round.pk) not in rounds


def test_the_form_lists_each_round_by_its_own_name(world, client):
    """The competition's own page lists its rounds by their names, as its other pages do:
    "予選 / Preliminary", not the competition's name before it."""
    world.round.name = "予選 / Preliminary"
    world.round.save(update_fields=["name"])
    client.force_login(world.organizer)
    fields = {
        f["name"]: f
        for f in form_fields_of(client.get(awards_url(world)).content.decode(), "award-form")
    }
    texts = {o["value"]: o["text"].strip() for o in fields["round"]["options"]}
    assert texts[str(world.round.pk)] == "予選 / Preliminary", texts
    assert world.competition.name not in "".join(texts.values())


@pytest.mark.parametrize(
    "fill",
    [
        {"team": "OTHER"},  # a team of another competition
        {"round": "ELSEWHERE"},
        {"team": "not-a-number"},
        {"order": "abc"},
        {"order": "-5"},
        {"name_en": "   "},
        {"name_ja": "x" * 500},
    ],
)
def test_bad_input_in_the_form_is_answered_with_the_form_never_a_500(
    world, client, other, make_world, fill
):
    elsewhere = make_world(slug="elsewhere")
    values = {"OTHER": str(other["team"].pk), "ELSEWHERE": str(elsewhere.round.pk)}
    client.force_login(world.organizer)
    page = client.get(awards_url(world)).content.decode()
    typed = {"name_en": "Best", "name_ja": "最優秀賞", "team": str(world.teams["a"].pk)}
    typed.update({key: values.get(value, value) for key, value in fill.items()})
    response = client.post(awards_url(world), post_data(form_fields_of(page, "award-form"), typed))
    assert response.status_code == 200
    assert 'class="errorlist' in response.content.decode()
    assert not Award.objects.exists()


def test_unknown_awards_are_refused_cleanly(world, client, other):
    foreign = award_create(
        user=other["organizer"], competition=other["competition"], team=other["team"], **BEST
    )
    client.force_login(world.organizer)
    slug = world.competition.slug
    assert client.get(reverse("console:award_edit", args=[slug, 999_999])).status_code == 404
    # An award of another competition is not reachable through this one's address.
    assert client.get(reverse("console:award_edit", args=[slug, foreign.pk])).status_code == 404
    assert client.post(reverse("console:award_remove", args=[slug, foreign.pk])).status_code == 404
    assert client.get(reverse("console:award_remove", args=[slug, foreign.pk])).status_code == 404
    record(world)
    assert Award.objects.count() == 2


@pytest.mark.parametrize("role", ["anon", "participant", "other_organizer"])
def test_only_the_competitions_organizers_open_the_awards_pages(world, client, other, role):
    award = record(world)
    slug = world.competition.slug
    urls = [
        ("get", awards_url(world)),
        ("post", awards_url(world)),
        ("get", reverse("console:award_edit", args=[slug, award.pk])),
        ("post", reverse("console:award_edit", args=[slug, award.pk])),
        ("get", reverse("console:award_remove", args=[slug, award.pk])),
        ("post", reverse("console:award_remove", args=[slug, award.pk])),
    ]
    user = {"participant": world.users["a"], "other_organizer": other["organizer"]}.get(role)
    if user is not None:
        client.force_login(user)
    for method, url in urls:
        response = getattr(client, method)(url, {**BEST, "team": world.teams["a"].pk, "order": 0})
        # A visitor is sent to log in; an account that does not organize the competition
        # gets the console's 404 (the same as for a competition that does not exist).
        assert response.status_code == (302 if role == "anon" else 404), (method, url)
        assert b"Best presentation" not in response.content
    assert Award.objects.get() == award and award.name_en == "Best presentation"


def test_the_console_competition_page_links_to_the_awards(world, client):
    record(world)
    client.force_login(world.organizer)
    page = client.get(reverse("console:competition", args=[world.competition.slug]))
    assert awards_url(world) in page.content.decode()


# --- Where awards are shown ------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "shown", "not_shown"), [("en", "Best", "最優秀"), ("ja", "最優秀", "Best")]
)
def test_the_competition_page_shows_every_award_in_the_readers_language(
    world, client, language, shown, not_shown
):
    record(world, name_en="Best presentation", name_ja="最優秀発表賞", citation="Clear.")
    record(world, "b", round=world.round, name_en="Best attack", name_ja="最優秀攻撃賞")
    url = reverse("competition_detail", args=[world.competition.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    section = page[page.index('data-testid="awards"') :]
    assert f"{shown}" in section and not_shown not in section
    assert "Team A" in section and "Team B" in section and "Clear." in section
    assert "(Round)" in section


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_rounds_results_pages_show_its_awards_and_follow_an_edit(world, client, language):
    award = record(world, "b", round=world.round, name_en="Best attack", name_ja="最優秀攻撃賞")
    record(world, name_en="Committee's prize", name_ja="審査員特別賞")  # the whole competition
    client.force_login(world.users["c"])
    url = tab_url(world.round, "results")
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    name = "最優秀攻撃賞" if language == "ja" else "Best attack"
    assert f'data-testid="award-{award.pk}"' in page and name in page
    assert "Committee" not in page and "審査員特別賞" not in page
    overview = client.get(tab_url(world.round, "overview")).content.decode()
    assert 'data-testid="awards"' not in overview
    award_update(
        user=world.organizer,
        award=award,
        team=world.teams["b"],
        round=world.round,
        name_en="Best attack ever",
        name_ja="最強攻撃賞",
    )
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert ("最強攻撃賞" if language == "ja" else "Best attack ever") in page
    award_delete(user=world.organizer, award=award)
    assert 'data-testid="awards"' not in client.get(url).content.decode()


def test_a_kept_leaderboard_page_is_sent_again_with_a_new_award(make_world):
    """The 2015 leaderboard answers 304 from versions: an award of its round gives the
    round a new ranking version, so the browser's copy is not reused."""
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    freeze(world)
    round_results_set(round=world.round, published=True)
    client = Client()
    client.force_login(world.users["c"])
    client.get(reverse("home"))  # the CSRF cookie, as a browser has it
    url = reverse("leaderboard", args=[world.competition.slug, world.round.slug])
    page = client.get(url)
    assert page.status_code == 200 and page.has_header("ETag")
    assert client.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    award = record(world, round=world.round)
    again = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 200
    assert f'data-testid="award-{award.pk}"' in again.content.decode()


def test_awards_csv_lists_every_award_with_formulas_neutralised(world):
    record(world, round=world.round, order=1, citation='=HYPERLINK("x")')
    record(world, "b", name_en="Committee's prize", name_ja="審査員特別賞", order=2)
    rows = list(csv.reader(io.StringIO(awards_csv(competition=world.competition).decode())))
    assert rows == [
        ["order", "award_en", "award_ja", "team", "team_slug", "round", "citation"],
        ["1", "Best presentation", "最優秀発表賞", "Team A", "teamA", "r1", '\'=HYPERLINK("x")'],
        ["2", "Committee's prize", "審査員特別賞", "Team B", "teamB", "", ""],
    ]


def test_the_archive_holds_the_awards_in_both_variants(make_world):
    world = make_world()
    record(world, round=world.round)
    for with_slides in (True, False):
        sink = io.BytesIO()
        write_archive(
            sink,
            competition=world.competition,
            version=1,
            secrets=[],
            rounds=ArchiveRounds(),
            created_at=timezone.now(),
            with_slides=with_slides,
        )
        members = archive_zip(sink.getvalue())
        assert members["awards.csv"].decode().splitlines()[1].startswith("0,Best presentation,")
        assert "awards.csv" in {member["name"] for member in manifest(members)["members"]}
        assert "awards.csv" in members["README.md"].decode()
