"""The synthetic round's console: created through the two-step form by an organizer who is
not a superuser; every mistake shown next to its field; nobody else may open the pages; the
panel shows the draws (disjoint or not), the counts and the states, in both languages."""

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.storage import default_storage
from django.urls import reverse
from django.utils import timezone

from pwscup.accounts.services import organizer_grant, user_create
from pwscup.competitions.models import AuditEntry, Phase, Round
from pwscup.competitions.services import competition_create
from pwscup.synthetic.models import SyntheticRound, TeamDraw
from tests.pwscup.syn_world import ROLES, adult_rows, syn_world, upload_file

pytestmark = pytest.mark.django_db

ROWS = 3000


@pytest.fixture
def organizer(client):
    """A staff organizer of ``syncon`` (not a superuser), logged in, with three teams."""
    from pwscup.accounts.services import membership_add, team_create

    user = user_create(username="syncon-org", password="pw")
    competition = competition_create(name="Syn console", slug="syncon", organizers=[])
    organizer_grant(user=user, competition=competition)
    user.refresh_from_db()
    assert user.is_staff and not user.is_superuser
    for letter in "ab":
        team = team_create(competition=competition, name=f"Team {letter}", slug=f"team{letter}")
        membership_add(team=team, user=user_create(username=f"syncon-{letter}", password="pw"))
    client.force_login(user)
    return competition


def create_url(competition) -> str:
    return reverse("synthetic_console:create", args=[competition.slug])


def settings_url(competition) -> str:
    return reverse("synthetic_console:settings", args=[competition.slug])


def local(moment) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M")


def settings_post(**changes) -> dict:
    """Step 2's fields for Adult's header: the roles of ``ROLES``, small sizes, open now."""
    now = timezone.now().astimezone(dt.UTC)
    data = {f"role_{k}": role for k, role in enumerate(ROLES.values())}
    data.update(
        name="合成データ / Synthetic",
        slug="synth",
        label="income",
        n_holdout=500,
        n_train=300,
        n_challenge=80,
        n_aux=300,
        max_rows="",
        fpr_levels="0.1, 0.01",
        u_ml_min=0.8,
        u_1_max=0.1,
        timezone="UTC",
        release_opens_at=local(now - dt.timedelta(hours=1)),
        release_closes_at=local(now + dt.timedelta(days=7)),
        release_daily_limit=5,
        release_total_limit="",
        attack_opens_at=local(now + dt.timedelta(days=7)),
        attack_closes_at=local(now + dt.timedelta(days=14)),
        attack_daily_limit=10,
        attack_total_limit="",
        attack_target_limit=2,
    )
    data.update(changes)
    return data


def upload(client, competition, content=None, name="adult.csv"):
    return client.post(
        create_url(competition),
        {"original": upload_file(adult_rows(ROWS) if content is None else content, name)},
    )


def field_errors(html: str, field: str) -> str:
    """The text of the error list next to ``field`` (its ``data-field`` block)."""
    match = re.search(rf'data-field="{field}">(.*?)</div>', html, re.S)
    assert match, f"no field {field} on the page"
    errors = re.search(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', match.group(1), re.S)
    return re.sub(r"<[^>]+>", " ", errors.group(1)) if errors else ""


def test_step_one_proposes_roles_and_label_and_step_two_creates_the_round(client, organizer):
    response = upload(client, organizer)
    assert response.status_code == 302 and response["Location"] == settings_url(organizer)
    page = client.get(settings_url(organizer)).content.decode()
    assert "3000 rows" in page or "3,000 rows" in page
    # numbers → numeric, text → categorical; the label is the last categorical column.
    for k, role in enumerate(ROLES.values()):
        assert re.search(rf'name="role_{k}" value="{role}"[^>]*checked', page), (k, role)
    assert re.search(r'<option value="income" selected>', page)
    assert re.search(r'name="density_bandwidth" value="0.1"', page)
    response = client.post(settings_url(organizer), settings_post(density_bandwidth="0.05"))
    assert response.status_code == 302, field_errors(response.content.decode(), "label")
    round_ = Round.objects.get(competition=organizer, slug="synth")
    assert response["Location"] == reverse("console:round", args=[organizer.slug, "synth"])
    synthetic = SyntheticRound.objects.get(round=round_)
    assert round_.kind == "synthetic" and round_.original_rows == ROWS
    assert round_.config["fpr_levels"] == [0.1, 0.01] and round_.config["n_challenge"] == 80
    assert round_.config["density_bandwidth"] == 0.05
    assert len(synthetic.holdout) == 500 and len(synthetic.aux) == 300
    assert TeamDraw.objects.filter(synthetic=synthetic).count() == 2
    release = round_.phases.get(kind="release")
    attack = round_.phases.get(kind=Phase.Kind.ATTACK)
    assert release.daily_limit == 5 and attack.daily_limit == 10
    assert (attack.target_limit, release.target_limit) == (2, None)
    assert attack.opens_at == release.closes_at
    assert AuditEntry.objects.filter(round=round_, action=AuditEntry.Action.ROUND_CREATED).exists()
    # The draft is gone: step 2 sends back to step 1.
    assert client.get(settings_url(organizer))["Location"] == create_url(organizer)


def test_the_draft_survives_a_form_error_and_is_deleted_when_the_round_is_made(client, organizer):
    upload(client, organizer)
    stored = client.session[f"synthetic-round-draft-{organizer.pk}"]["file"]
    assert stored.startswith("private/synthetic/") and default_storage.exists(stored)
    bad = client.post(settings_url(organizer), settings_post(n_challenge=82))
    assert bad.status_code == 200 and default_storage.exists(stored)
    assert client.post(settings_url(organizer), settings_post()).status_code == 302
    assert not default_storage.exists(stored)


def capacity(html: str) -> str:
    match = re.search(r'data-testid="syn-capacity">(.*?)</(?:p|dd)>', html, re.S)
    assert match, "the page does not say how many teams get rows of their own"
    return match.group(1)


def test_step_two_says_how_many_teams_the_sizes_hold_before_the_round_exists(client, organizer):
    # Proposed for 3,000 rows: holdout 517, aux 206, 206 members and 40 challenge rows a
    # team: (3000 - 723) // 226 = 10 teams; as posted back (500, 300, 300, 82 refused):
    # (3000 - 800) // 341 = 6.
    upload(client, organizer)
    page = client.get(settings_url(organizer)).content.decode()
    assert "3000 rows holds 10 teams with rows of their own" in capacity(page)
    bad = client.post(settings_url(organizer), settings_post(n_challenge=82)).content.decode()
    assert "holds 6 teams" in capacity(bad)
    page = client.get(settings_url(organizer), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "割り当てられるのは 10 チームまで" in capacity(page)
    unreadable = client.post(settings_url(organizer), settings_post(n_train="x")).content
    assert 'data-testid="syn-capacity"' not in unreadable.decode()


def test_the_capacity_says_row_for_a_table_of_one_row(client, organizer):
    upload(client, organizer, adult_rows(1))
    page = client.post(settings_url(organizer), settings_post()).content.decode()
    assert "the table of 1 row holds 0 teams with rows of their own" in capacity(page)


def test_a_lost_draft_is_reported_not_replaced(client, organizer):
    upload(client, organizer)
    default_storage.delete(client.session[f"synthetic-round-draft-{organizer.pk}"]["file"])
    response = client.post(settings_url(organizer), settings_post(), follow=True)
    page = response.content.decode()
    assert "no longer kept" in page and "upload it again" in page
    assert not Round.objects.filter(slug="synth").exists()


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"n_challenge": 82}, "n_challenge", ["n_challenge", "multiple of 4", "82"]),
        ({"label": "age"}, "label", ["age", "categorical"]),
        ({"fpr_levels": "0.1, x"}, "fpr_levels", ["x", "not a number"]),
        ({"fpr_levels": "0.1, 1.5"}, "fpr_levels", ["fpr_levels", "between 0 and 1"]),
        ({"density_bandwidth": 0}, "density_bandwidth", ["density_bandwidth", "positive"]),
        ({"density_bandwidth": "wide"}, "density_bandwidth", ["number"]),
        ({"u_1_max": -0.1}, "u_1_max", ["u_1_max", "between 0 and 1"]),
        ({"u_ml_min": -0.5}, "u_ml_min", ["u_ml_min", "≥ 0", "-0.5"]),
        ({"n_train": 0}, "n_train", ["1"]),
        ({"min_rows": 1000, "max_rows": 900}, "min_rows", ["min_rows", "900", "1000"]),
        ({"slug": "not a slug"}, "slug", ["letters, digits, hyphens"]),
        ({"timezone": "Mars/Olympus"}, "timezone", ["Mars/Olympus"]),
    ],
)
def test_a_bad_setting_is_shown_next_to_its_field(client, organizer, changes, field, words):
    upload(client, organizer)
    response = client.post(settings_url(organizer), settings_post(**changes))
    assert response.status_code == 200
    errors = field_errors(response.content.decode(), field)
    for word in words:
        assert word in errors, (field, errors)
    assert not Round.objects.filter(competition=organizer, slug="synth").exists()


def test_the_fewest_rows_of_a_release_are_set_and_shown_to_the_teams(client, organizer):
    # PWSCup 2020 took releases of 1,000 to 100,000 rows; the form had no least number.
    upload(client, organizer)
    response = client.post(settings_url(organizer), settings_post(min_rows=250, max_rows=100000))
    assert response.status_code == 302, response.content.decode()[:2000]
    round_ = Round.objects.get(competition=organizer, slug="synth")
    assert round_.config["min_rows"] == 250 and round_.config["max_rows"] == 100000
    panel = client.get(reverse("console:round", args=[organizer.slug, "synth"]))
    assert "250 to 100,000" in panel.content.decode()


def test_every_bad_setting_is_shown_at_once_next_to_its_field(client, organizer):
    """An organizer sees all that is wrong in one try: the label, the challenge set's size,
    the bandwidth and both utility gates, each under its field."""
    upload(client, organizer)
    changes = {"label": "age", "n_challenge": 82, "density_bandwidth": 0}
    changes |= {"u_ml_min": -1, "u_1_max": 2}
    html = client.post(settings_url(organizer), settings_post(**changes)).content.decode()
    assert "categorical" in field_errors(html, "label")
    assert "multiple of 4" in field_errors(html, "n_challenge")
    assert "positive" in field_errors(html, "density_bandwidth")
    assert "≥ 0" in field_errors(html, "u_ml_min")
    assert "(got 2" in field_errors(html, "u_1_max")
    assert not Round.objects.filter(competition=organizer, slug="synth").exists()


def test_one_post_shows_the_windows_the_settings_the_cells_and_the_rows_errors(client, organizer):
    """The windows' order, the settings, a column's role against its cells and the sizes
    against the table's rows are all checked on one post (the finding took four tries)."""
    upload(client, organizer)
    now = timezone.now()
    workclass = list(ROLES).index("workclass")
    wrong = settings_post(
        attack_opens_at=local(now + dt.timedelta(days=1)),
        fpr_levels="0.1, 2",
        density_bandwidth=0,
        n_holdout=3900,
        **{f"role_{workclass}": "numeric"},
    )
    html = client.post(settings_url(organizer), wrong).content.decode()
    assert "once the release phase has closed" in field_errors(html, "attack_opens_at")
    assert "between 0 and 1" in field_errors(html, "fpr_levels")
    assert "positive" in field_errors(html, "density_bandwidth")
    roles = re.search(r'data-testid="syn-column-errors">(.*?)</ul>', html, re.S)
    assert roles and "workclass" in roles.group(1)
    assert f"The original table has {ROWS} rows" in html  # n_holdout 3900 of 3000 rows
    # A size at fault: the rows wait for the four sizes, the rest is still shown.
    wrong.update(n_challenge=50)
    html = client.post(settings_url(organizer), wrong).content.decode()
    assert "multiple of 4" in field_errors(html, "n_challenge")
    assert "between 0 and 1" in field_errors(html, "fpr_levels")
    assert "workclass" in re.search(r'data-testid="syn-column-errors">(.*?)</ul>', html, re.S)[1]
    assert "once the release phase has closed" in field_errors(html, "attack_opens_at")
    assert f"The original table has {ROWS} rows" not in html
    assert not Round.objects.filter(competition=organizer).exists()


def test_windows_in_the_wrong_order_are_shown_on_their_fields(client, organizer):
    upload(client, organizer)
    now = timezone.now()
    early = settings_post(attack_opens_at=local(now + dt.timedelta(days=1)))
    html = client.post(settings_url(organizer), early).content.decode()
    assert "once the release phase has closed" in field_errors(html, "attack_opens_at")
    backwards = settings_post(release_closes_at=local(now - dt.timedelta(days=2)))
    html = client.post(settings_url(organizer), backwards).content.decode()
    assert "close after it opens" in field_errors(html, "release_closes_at")
    far = settings_post(attack_closes_at="9999-01-01T00:00")
    html = client.post(settings_url(organizer), far).content.decode()
    assert "9000-12-31" in field_errors(html, "attack_closes_at")
    assert not Round.objects.filter(competition=organizer, slug="synth").exists()


def test_a_numeric_role_on_a_text_column_names_the_column_over_the_roles(client, organizer):
    upload(client, organizer)
    workclass = list(ROLES).index("workclass")
    response = client.post(
        settings_url(organizer), settings_post(**{f"role_{workclass}": "numeric"})
    )
    html = response.content.decode()
    errors = re.search(r'data-testid="syn-column-errors">(.*?)</ul>', html, re.S)
    assert errors and "workclass" in errors.group(1) and "State-gov" in errors.group(1)


def test_a_bad_original_is_refused_on_its_field_at_step_one(client, organizer):
    duplicated = b"age,age,income\n1,2,a\n3,4,b\n"
    html = upload(client, organizer, duplicated).content.decode()
    assert "duplicate column" in field_errors(html, "original")


def test_an_original_with_a_nameless_column_stays_at_step_one(client, organizer):
    html = upload(client, organizer, b"age,,income\n1,2,a\n3,4,b\n").content.decode()
    assert "no name to column(s) 2" in field_errors(html, "original")
    assert f"synthetic-round-draft-{organizer.pk}" not in client.session
    ja = client.post(
        create_url(organizer),
        {"original": upload_file(b"age, ,income\n1,2,a\n", "adult.csv")},
        HTTP_ACCEPT_LANGUAGE="ja",
    ).content.decode()
    assert "名前のない列があります（左から 2 番目）" in field_errors(ja, "original")
    empty = upload(client, organizer, b"", name="empty.csv").content.decode()
    assert field_errors(empty, "original")
    blank = upload(client, organizer, b"\n\n", name="blank.csv").content.decode()
    assert "empty" in field_errors(blank, "original")
    assert f"synthetic-round-draft-{organizer.pk}" not in client.session


def test_japanese_pages_and_errors(client, organizer):
    page = client.get(create_url(organizer), HTTP_ACCEPT_LANGUAGE="ja")
    assert page.status_code == 200 and "元のテーブル" in page.content.decode()
    upload(client, organizer)
    page = client.get(settings_url(organizer), HTTP_ACCEPT_LANGUAGE="ja")
    assert page.status_code == 200 and "列の役割" in page.content.decode()
    html = client.post(
        settings_url(organizer),
        settings_post(label="age", n_challenge=82),
        HTTP_ACCEPT_LANGUAGE="ja",
    ).content.decode()
    assert "カテゴリ列" in field_errors(html, "label")
    # What the value should have been is said in Japanese too (it was quoted in English).
    assert "2 × n_train（600）以下の 4 の倍数" in field_errors(html, "n_challenge")


def test_only_the_competition_s_organizers_open_the_pages(client, organizer):
    outsider = user_create(username="syncon-outsider", password="pw")
    other = user_create(username="syncon-other-org", password="pw")
    competition_create(name="Other", slug="syncon-other", organizers=[other])
    member = get_user_model().objects.get(username="syncon-a")
    for user in (outsider, other, member):
        client.force_login(user)
        for url in (create_url(organizer), settings_url(organizer)):
            assert client.get(url).status_code in (403, 404), (user, url)
        assert upload(client, organizer).status_code in (403, 404)
    client.logout()
    assert client.get(create_url(organizer)).status_code == 302  # to the login page


def test_the_console_lists_the_new_round_button(client, organizer):
    page = client.get(reverse("console:competition", args=[organizer.slug])).content.decode()
    assert create_url(organizer) in page


# --- the panel -----------------------------------------------------------------------------------


def panel(client, world, lang="en") -> str:
    url = reverse("console:round", args=[world.competition.slug, world.round.slug])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


def test_the_panel_shows_draws_counts_and_states_in_both_languages(client):
    from tests.pwscup.syn_world import baseline_release, freeze, release

    world = syn_world(slug="synpanel", seed=2_718_281_828_459_045_235)
    organizer_grant(user=world.organizer, competition=world.competition)
    client.force_login(world.organizer)
    html = panel(client, world)
    assert 'data-testid="syn-panel"' in html
    assert "Disjoint" in re.search(r'data-testid="syn-disjoint">(.*?)</dd>', html, re.S).group(1)
    assert re.search(r'data-testid="syn-holdout">500 rows', html)
    assert re.search(r'data-testid="syn-teams-drawn">3<', html)
    assert "The table holds" in capacity(html)
    assert re.search(r'data-testid="syn-density-bandwidth"><code>0.1</code>', html)
    assert "not frozen yet" in html
    assert "action-freeze" in html and "action-close" in html  # the core lists the actions
    release(world, "a", baseline_release(world, "a"))
    freeze(world)
    html = panel(client, world)
    assert "1 uploaded (1 scored, 0 rejected) by 1 team(s)" in html
    assert "1 release published" in html and "Releases frozen at" in html
    ja = panel(client, world, "ja")
    assert "抽出" in ja and "凍結" in ja and "密度攻撃のバンド幅" in ja
    # Nothing secret: no holdout row number list, no seed.
    assert str(world.synthetic.secret_seed) not in html + ja


def test_the_panel_says_when_member_sets_overlap(client):
    # 1,400 rows: holdout 500 + aux 300 leave 600, for three teams of 300 members and 40
    # non-members: the third cannot get rows of its own.
    world = syn_world(slug="synover", rows=1400)
    organizer_grant(user=world.organizer, competition=world.competition)
    client.force_login(world.organizer)
    html = panel(client, world)
    disjoint = re.search(r'data-testid="syn-disjoint">(.*?)</dd>', html, re.S).group(1)
    assert "Not disjoint" in disjoint and "Team" in disjoint
    # (1400 - 800) // 340: one team gets rows of its own, the panel says so.
    assert "The table holds 1 team with rows of its own" in capacity(html)
    ja = panel(client, world, "ja")
    assert "互いに素ではありません" in ja
    assert "割り当てられるのは 1 チームまで" in capacity(ja)


def test_a_non_organizer_gets_no_panel(client):
    world = syn_world(slug="synnope")
    client.force_login(world.users["a"])
    url = reverse("console:round", args=[world.competition.slug, world.round.slug])
    assert client.get(url).status_code in (403, 404)


def test_the_panel_says_the_results_wait_once_the_attack_phase_has_closed(client):
    # As on the scorer round's panel (PWSCup 2023 walk): frozen, the attack phase closed, the
    # results unpublished; the state said "attack phase" where the round's overview and the
    # console's list of rounds say the results wait for the organizers.
    from pwscup.competitions.services import round_phases_close
    from tests.pwscup.syn_world import baseline_release, freeze, release

    world = syn_world(slug="synwait")
    organizer_grant(user=world.organizer, competition=world.competition)
    client.force_login(world.organizer)
    release(world, "a", baseline_release(world, "a"))
    freeze(world)
    round_phases_close(round=world.round)
    state = re.search(r'data-testid="syn-state">(.*?)</dd>', panel(client, world), re.S).group(1)
    assert "The attack phase is over: the results wait for the organizers." in state
    assert "Releases frozen at" not in state
