"""The scorer round's console: created through its form as the browser posts it, by an
organizer who is not a superuser; the program's versions, builds and logs; the data packs;
the slots; the rescore of what an older version scored; the lifecycle actions behind the
core's confirmation page; nobody else may open a page or post a form."""

import datetime as dt
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.accounts.services import membership_add, organizer_grant, team_create, user_create
from pwscup.competitions.models import Phase, Round
from pwscup.competitions.services import competition_create
from pwscup.scorer import services
from pwscup.scorer.models import DataPack, ProgramVersion, Release, ScorerRound, Target, TeamSlot
from scoring.scorer.demo import demo_program_zip
from tests.pwscup.rendered_forms import post_as_rendered
from tests.pwscup.scorer_world import (
    CONFIG,
    program_version,
    release,
    release_bytes,
    scorer_world,
    upload_file,
    zipped,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(client):
    """A staff organizer of ``hccon`` (not a superuser), logged in, with two teams."""
    user = user_create(username="hccon-org", password="pw")
    competition = competition_create(name="Scorer console", slug="hccon", organizers=[])
    organizer_grant(user=user, competition=competition)
    user.refresh_from_db()
    assert user.is_staff and not user.is_superuser
    for letter in "ab":
        team = team_create(competition=competition, name=f"Team {letter}", slug=f"team{letter}")
        membership_add(team=team, user=user_create(username=f"hccon-{letter}", password="pw"))
    client.force_login(user)
    return competition


def create_url(competition) -> str:
    return reverse("scorer_console:create", args=[competition.slug])


def local(moment) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M")


def typed(**changes) -> dict:
    """What the organizer types on the creation page (the rest left as rendered)."""
    now = timezone.now()
    data = {
        "name": "独自採点 / Own scorer",
        "slug": "own",
        "timezone": "UTC",
        "release_col_0_key": "utility",
        "release_col_0_label": "Utility",
        "release_col_0_label_ja": "有用性",
        "release_col_1_key": "size",
        "release_col_1_label": "Size",
        "release_col_1_higher": False,
        "attack_col_0_key": "reidentified",
        "attack_col_0_label": "Re-identified",
        "attack_col_0_label_ja": "再識別率",
        "release_primary": "utility",
        "attack_mode": "all_targets",
        "power_rule": "top_n",
        "top_n": 3,
        "visibility": "band",
        "bands": "0.2, 0.6",
        "gate_0_key": "utility",
        "gate_0_bound": "min",
        "gate_0_value": 50,
        "timeout_seconds": 120,
        "release_opens_at": local(now - dt.timedelta(hours=1)),
        "release_closes_at": local(now + dt.timedelta(days=7)),
        "release_daily_limit": 5,
        "attack_opens_at": local(now + dt.timedelta(days=7)),
        "attack_closes_at": local(now + dt.timedelta(days=14)),
        "attack_daily_limit": 10,
        "attack_target_limit": 3,
    }
    data.update(changes)
    return data


def field_errors(html: str, field: str) -> str:
    """The text of the error list next to ``field`` (its ``data-field`` block)."""
    match = re.search(rf'data-field="{field}">(.*?)</(?:div|td)>', html, re.S)
    assert match, f"no field {field} on the page"
    errors = re.search(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', match.group(1), re.S)
    return re.sub(r"<[^>]+>", " ", errors.group(1)) if errors else ""


def test_the_create_page_renders_in_both_languages(client, organizer):
    english = client.get(create_url(organizer)).content.decode()
    japanese = client.get(create_url(organizer), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "New round scored by your program" in english
    assert "独自の採点プログラムで採点するラウンドの新規作成" in japanese
    assert "日本語の表示名" in japanese and "Japanese label" not in japanese
    assert 'name="release_col_4_key"' in english and 'name="gate_2_value"' in english


def test_the_organizer_creates_a_round_as_the_browser_posts_it(client, organizer):
    response = post_as_rendered(client, create_url(organizer), "scorer-create", typed())
    assert response.status_code == 302, response.content.decode()[:3000]
    round_ = Round.objects.get(competition=organizer, slug="own")
    assert response["Location"] == reverse("console:round", args=[organizer.slug, "own"])
    assert round_.kind == "scorer" and ScorerRound.objects.filter(round=round_).exists()
    config = round_.config
    assert config["release_columns"] == [
        {"key": "utility", "label": "Utility", "label_ja": "有用性", "higher_is_better": True},
        {"key": "size", "label": "Size", "label_ja": "Size", "higher_is_better": False},
    ]
    assert config["attack_columns"][0]["label_ja"] == "再識別率"
    assert config["attack_mode"] == "all_targets" and config["power_rule"] == "top_n"
    assert config["top_n"] == 3 and config["visibility"] == "band"
    assert config["bands"] == [0.2, 0.6]
    assert config["gates"] == [{"key": "utility", "min": 50.0}]
    assert config["limits"]["timeout_seconds"] == 120
    release_phase = round_.phases.get(kind="release")
    attack_phase = round_.phases.get(kind=Phase.Kind.ATTACK)
    assert release_phase.daily_limit == 5 and attack_phase.daily_limit == 10
    assert (attack_phase.target_limit, release_phase.target_limit) == (3, None)
    assert TeamSlot.objects.filter(scorer__round=round_).count() == 2
    panel = client.get(response["Location"]).content.decode()
    assert 'data-testid="scorer-panel"' in panel
    assert "3 uploads per team per target" in panel


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        (
            {"release_primary": "nope"},
            "release_primary",
            ["“Primary release score (its key)”", "nope"],
        ),
        ({"bands": "0.6, 0.2"}, "bands", ["“Bands (thresholds)”", "ascending"]),
        ({"bands": "0.2, x"}, "bands", ["x", "not a number"]),
        ({"timeout_seconds": 0}, "timeout_seconds", ["“Time limit of a run (seconds)”", "86,400"]),
        ({"top_n": 0}, "top_n", ["“N of the top N releases”", "1000"]),
        ({"release_col_2_label": "Orphan"}, "release_col_2_key", ["needs its key"]),
        ({"gate_0_value": ""}, "gate_0_value", ["needs its value"]),
        ({"slug": "not a slug"}, "slug", ["letters, digits, hyphens"]),
        (
            {"release_files_required": "../release.csv"},
            "release_files_required",
            ["“Files a release must hold”", "../release.csv"],
        ),
        ({"attack_files_only": True}, "attack_files_only", ["“An attack holds no other file”"]),
    ],
)
def test_a_bad_setting_is_shown_next_to_its_field(client, organizer, changes, field, words):
    response = post_as_rendered(client, create_url(organizer), "scorer-create", typed(**changes))
    assert response.status_code == 200
    errors = field_errors(response.content.decode(), field)
    for word in words:
        assert word in errors, (field, errors)
    # The settings' keys are not the words of the page: its labels are.
    assert not re.search(r"\b(release_primary|bands|limits|top_n|_files)\b", errors), errors
    assert not Round.objects.filter(competition=organizer, slug="own").exists()


def test_every_bad_setting_is_shown_next_to_its_field_at_once(client, organizer):
    several = typed(top_n=0, timeout_seconds=0, bands="0.6, 0.2", attack_col_0_key="a b")
    html = post_as_rendered(client, create_url(organizer), "scorer-create", several)
    html = html.content.decode()
    assert "1000" in field_errors(html, "top_n")
    assert "86,400" in field_errors(html, "timeout_seconds")
    assert "ascending" in field_errors(html, "bands")
    assert 'data-testid="scorer-attack-columns-errors"' in html
    assert not Round.objects.filter(competition=organizer, slug="own").exists()


def test_dates_out_of_order_and_bad_settings_are_shown_at_once(client, organizer):
    # Dates out of order do not hide a mistyped key nor a taken address: one sending marks
    # them all.
    assert post_as_rendered(client, create_url(organizer), "scorer-create", typed()).status_code
    now = timezone.now()
    wrong = typed(
        name="Another",
        release_primary="utilty",
        release_closes_at=local(now - dt.timedelta(days=1)),
        gate_0_key="privacy",
    )
    html = post_as_rendered(client, create_url(organizer), "scorer-create", wrong)
    html = html.content.decode()
    assert "close after it opens" in field_errors(html, "release_closes_at")
    assert "utilty" in field_errors(html, "release_primary")
    assert 'data-testid="scorer-gates-errors"' in html and "privacy" in html
    assert "already" in field_errors(html, "slug")
    assert Round.objects.filter(competition=organizer).count() == 1


def test_the_organizer_sets_the_files_each_upload_must_hold(client, organizer):
    files = typed(release_files_required="release.csv,\nmodel.json", release_files_only=True)
    response = post_as_rendered(client, create_url(organizer), "scorer-create", files)
    assert response.status_code == 302, response.content.decode()[:3000]
    config = Round.objects.get(competition=organizer, slug="own").config
    assert config["release_files"] == {
        "required": ["release.csv", "model.json"],
        "only_required": True,
    }
    assert config["attack_files"] == {"required": [], "only_required": False}


def test_a_bad_column_is_shown_over_its_table(client, organizer):
    duplicate = typed(release_col_1_key="utility")
    page = post_as_rendered(client, create_url(organizer), "scorer-create", duplicate)
    html = page.content.decode()
    match = re.search(r'data-testid="scorer-release-columns-errors">(.*?)</ul>', html, re.S)
    assert match and "utility" in match.group(1)
    bad_key = typed(attack_col_0_key="a b")
    html = post_as_rendered(client, create_url(organizer), "scorer-create", bad_key)
    assert 'data-testid="scorer-attack-columns-errors"' in html.content.decode()
    assert not Round.objects.filter(competition=organizer, slug="own").exists()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "the ranking program&#x27;s release number in a round total&#x27;s formula"),
        ("ja", "合計の式で順位付けプログラムの公開データの値を表します"),
    ],
)
def test_a_release_column_keyed_as_the_ranking_programs_number_is_refused(
    client, organizer, language, words
):
    # ranked_release is the name a round total gives the ranking program's number.
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: language})
    clash = typed(release_col_1_key="ranked_release")
    html = post_as_rendered(client, create_url(organizer), "scorer-create", clash)
    match = re.search(
        r'data-testid="scorer-release-columns-errors">(.*?)</ul>', html.content.decode(), re.S
    )
    assert match and words in match.group(1)
    assert not Round.objects.filter(competition=organizer, slug="own").exists()


def test_a_table_s_error_names_the_row_and_column_the_page_shows(client, organizer):
    # The second gate row left blank, the third names no column: the config's second gate.
    gate = typed(gate_2_key="nope", gate_2_bound="max", gate_2_value=1)
    html = post_as_rendered(client, create_url(organizer), "scorer-create", gate).content.decode()
    match = re.search(r'data-testid="scorer-gates-errors">(.*?)</ul>', html, re.S)
    assert match and "“Gates, row 3: Release score (key)”" in match.group(1), match
    assert "gates[" not in match.group(1)
    client.cookies["django_language"] = "ja"
    html = post_as_rendered(client, create_url(organizer), "scorer-create", gate).content.decode()
    match = re.search(r'data-testid="scorer-gates-errors">(.*?)</ul>', html, re.S)
    assert match and "「ゲート 3 行目：公開データのスコア（キー）」" in match.group(1), match
    wrong = typed(release_primary="nope")
    html = post_as_rendered(client, create_url(organizer), "scorer-create", wrong).content.decode()
    assert "「公開データの主スコア（キー）」" in field_errors(html, "release_primary")


# --- the panel -------------------------------------------------------------------------------


def console_url(world) -> str:
    return reverse("console:round", args=[world.competition.slug, world.round.slug])


def panel_url(world, name: str, *args) -> str:
    return reverse(f"scorer_console:{name}", args=[world.competition.slug, world.round.slug, *args])


def organizer_client(world) -> Client:
    client = Client()
    client.force_login(world.organizer)
    return client


def section(html: str, testid: str) -> str:
    match = re.search(rf'data-testid="{testid}">(.*?)</section>', html, re.S)
    assert match, f"no section {testid}"
    return match.group(1)


def test_a_program_is_queued_then_built_and_its_log_shown():
    world = scorer_world(slug="hcprog", build=False)
    client = organizer_client(world)
    page = client.get(console_url(world)).content.decode()
    assert "No version is built yet" in section(page, "scorer-program")
    response = client.post(
        panel_url(world, "program"),
        {"program": upload_file(demo_program_zip(), "program.zip", "application/zip")},
    )
    assert response.status_code == 302 and response["Location"] == console_url(world)
    version = ProgramVersion.objects.get(scorer=world.scorer)
    assert version.version == 1 and version.status == ProgramVersion.Status.QUEUED
    program = section(client.get(console_url(world)).content.decode(), "scorer-program")
    assert "Waiting for its build" in program and "v1" in program
    assert version.sha256[:12] in program
    services.program_build(program_id=version.pk)
    version.refresh_from_db()
    assert version.status == ProgramVersion.Status.FINISHED, version.message
    program = section(client.get(console_url(world)).content.decode(), "scorer-program")
    assert "Ready" in program and 'data-testid="scorer-version-current"' in program
    assert "Every run uses v1" in program
    assert 'data-testid="scorer-build-log"' in program
    log_line = version.build_log.strip().splitlines()[0]
    assert log_line.replace("'", "&#x27;").replace('"', "&quot;")[:40] in program
    for command in version.metadata["commands"].values():
        assert command.split()[0] in program
    japanese = client.get(console_url(world), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "採点プログラム" in japanese and "v1 の構築ログ" in japanese


def test_a_program_without_metadata_is_refused_next_to_its_field():
    world = scorer_world(slug="hcbad", build=False)
    client = organizer_client(world)
    bad = zipped({"score.py": b"print('no metadata')\n"})
    response = client.post(
        panel_url(world, "program"), {"program": upload_file(bad, "program.zip", "application/zip")}
    )
    assert response.status_code == 200
    errors = field_errors(response.content.decode(), "program")
    assert "metadata" in errors, errors
    assert not ProgramVersion.objects.filter(scorer=world.scorer).exists()


def test_each_pack_is_uploaded_and_listed_without_its_contents():
    world = scorer_world(slug="hcpack", build=False)
    client = organizer_client(world)
    for role in DataPack.Role.values:
        name = f"new-{role}.zip"
        content = zipped({f"{role}/secret-{role}.csv": b"id,value\n1,2\n", "b.txt": b"x"})
        response = client.post(panel_url(world, "pack", role), {"file": upload_file(content, name)})
        assert response.status_code == 302, response.content.decode()[:2000]
        pack = DataPack.objects.filter(scorer=world.scorer, role=role).first()
        assert pack.original_filename == name and len(pack.members) == 2
    packs = section(client.get(console_url(world)).content.decode(), "scorer-packs")
    for role in DataPack.Role.values:
        assert f"new-{role}.zip" in packs
        assert f"secret-{role}.csv" not in packs
    assert "never shown to a team" in packs
    assert client.get(panel_url(world, "pack", "nonsense")).status_code == 404
    not_zip = client.post(
        panel_url(world, "pack", "public"), {"file": upload_file(b"plain", "p.zip")}
    )
    assert not_zip.status_code == 200 and field_errors(not_zip.content.decode(), "file")


def test_a_slot_is_set_and_the_holder_swaps():
    world = scorer_world(slug="hcslot", build=False)
    client = organizer_client(world)
    a, c = world.teams["a"], world.teams["c"]
    assert TeamSlot.objects.get(scorer=world.scorer, team=a).slot == 1
    response = client.post(panel_url(world, "slot"), {"team": c.pk, "slot": 1})
    assert response.status_code == 302
    assert TeamSlot.objects.get(scorer=world.scorer, team=c).slot == 1
    assert TeamSlot.objects.get(scorer=world.scorer, team=a).slot == 3
    slots = section(client.get(console_url(world)).content.decode(), "scorer-slots")
    assert re.search(r"Team C</td><td><code>team_01/", slots)
    refused = client.post(panel_url(world, "slot"), {"team": c.pk, "slot": 0})
    assert refused.status_code == 200 and field_errors(refused.content.decode(), "slot")


def test_rescore_queues_what_an_older_version_scored():
    world = scorer_world(slug="hcres", letters="ab")
    first = release(world, "a", release_bytes(noise=0))
    second = release(world, "b", release_bytes(noise=20, seed=1))
    assert first.status == second.status == Release.Status.FINISHED
    newer = program_version(world, demo_program_zip())
    assert newer.version == 2 and newer.status == ProgramVersion.Status.FINISHED
    client = organizer_client(world)
    rescore = section(client.get(console_url(world)).content.decode(), "scorer-rescore")
    assert "Not scored by v2: 2 release(s) and 0 attack(s)." in rescore
    assert "Rescore with v2" in rescore
    response = client.post(panel_url(world, "rescore"))
    assert response.status_code == 302
    statuses = set(Release.objects.filter(scorer=world.scorer).values_list("status", flat=True))
    assert statuses == {Release.Status.QUEUED}
    assert client.get(panel_url(world, "rescore")).status_code == 405


def test_the_panel_counts_uploads_by_status():
    world = scorer_world(slug="hccount", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", b"not,a,release\n")
    counts = section(client_page(world), "scorer-counts")
    row = re.search(r'data-testid="scorer-release-counts">(.*?)</tr>', counts, re.S).group(1)
    cells = re.findall(r'<td class="num">(\d+)</td>', row)
    finished = Release.objects.filter(status=Release.Status.FINISHED).count()
    failed = Release.objects.filter(status=Release.Status.FAILED).count()
    assert finished + failed == 2
    assert cells[-1] == "2" and str(finished) in cells and str(failed) in cells


def test_the_panel_names_a_declared_score_no_scored_upload_holds():
    # The organizer declared "fidelity", which the demo program never writes: once a release
    # is scored the panel says so, in the reader's language; "utility" is written.
    columns = [
        {"key": "utility", "label": "Utility", "higher_is_better": True},
        {"key": "fidelity", "label": "Fidelity", "label_ja": "忠実度", "higher_is_better": True},
    ]
    world = scorer_world(slug="hcunwr", letters="a", config={**CONFIG, "release_columns": columns})
    assert 'data-testid="scorer-unwritten-release"' not in client_page(world)  # nothing scored
    release(world, "a", release_bytes(noise=0))
    assert Release.objects.get().status == Release.Status.FINISHED
    client = organizer_client(world)
    for language, words in (
        ("en", "No scored release holds the score fidelity"),
        ("ja", "スコア fidelity"),
    ):
        page = client.get(console_url(world), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        notice = page.split('data-testid="scorer-unwritten-release">')[1].split("</p>")[0]
        assert words in notice and "utility" not in notice, notice
    assert 'data-testid="scorer-unwritten-attack"' not in page


def client_page(world) -> str:
    return organizer_client(world).get(console_url(world)).content.decode()


# --- who may ---------------------------------------------------------------------------------


def test_a_team_member_gets_404_on_every_console_url():
    world = scorer_world(slug="hcdeny", build=False)
    member = Client()
    member.force_login(world.users["a"])
    urls = [
        reverse("scorer_console:create", args=[world.competition.slug]),
        console_url(world),
        panel_url(world, "program"),
        panel_url(world, "pack", "reference"),
        panel_url(world, "pack", "truth"),
        panel_url(world, "slot"),
        panel_url(world, "rescore"),
        reverse("console:round_action", args=[world.competition.slug, world.round.slug, "freeze"]),
    ]
    for url in urls:
        assert member.get(url).status_code in (404, 405), url
        assert member.post(url, {"team": world.teams["a"].pk, "slot": 1}).status_code == 404, url
    assert TeamSlot.objects.get(scorer=world.scorer, team=world.teams["a"]).slot == 1
    assert not ScorerRound.objects.filter(pk=world.scorer.pk, frozen_at__isnull=False).exists()


def test_the_panel_forms_are_csrf_protected():
    world = scorer_world(slug="hccsrf", build=False)
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.organizer)
    assert (
        client.post(panel_url(world, "slot"), {"team": world.teams["c"].pk, "slot": 1}).status_code
        == 403
    )
    page = client.get(console_url(world)).content.decode()
    assert page.count("csrfmiddlewaretoken") >= 7


# --- the lifecycle actions ---------------------------------------------------------------------


def action_url(world, name: str) -> str:
    return reverse("console:round_action", args=[world.competition.slug, world.round.slug, name])


def test_freeze_and_publish_through_the_confirmation_page():
    world = scorer_world(slug="hcact", letters="ab")
    release(world, "a", release_bytes(noise=0))
    client = organizer_client(world)
    page = client.get(console_url(world)).content.decode()
    for name in ("freeze", "attack_now", "close"):
        assert f'data-testid="action-{name}"' in page, name
    # Nothing to publish before the freeze: publishing is offered once the releases are frozen.
    assert 'data-testid="action-publish"' not in page
    assert 'data-testid="action-hide"' not in page
    confirm = client.get(action_url(world, "freeze"))
    assert confirm.status_code == 200 and "Freeze the releases" in confirm.content.decode()
    assert not Target.objects.filter(scorer=world.scorer).exists()
    done = client.post(action_url(world, "freeze"), follow=True)
    assert "Froze the round: 1 target published." in done.content.decode()
    assert list(
        Target.objects.filter(scorer=world.scorer).values_list("team__slug", flat=True)
    ) == ["teama"]
    assert ScorerRound.objects.get(pk=world.scorer.pk).frozen_at is not None
    assert 'data-testid="action-publish"' in client.get(console_url(world)).content.decode()
    done = client.post(action_url(world, "publish"), follow=True)
    assert "Results published." in done.content.decode()
    assert ScorerRound.objects.get(pk=world.scorer.pk).results_published
    page = client.get(console_url(world)).content.decode()
    assert 'data-testid="action-hide"' in page and 'data-testid="action-publish"' not in page
    assert client.get(action_url(world, "freeze")).status_code == 404
    client.post(action_url(world, "hide"))
    assert not ScorerRound.objects.get(pk=world.scorer.pk).results_published


def test_open_the_attack_phase_now_freezes_and_opens_it():
    world = scorer_world(slug="hcnow", letters="ab")
    release(world, "b", release_bytes(noise=0))
    client = organizer_client(world)
    done = client.post(action_url(world, "attack_now"), follow=True).content.decode()
    assert "The attack phase is open until" in done and "1 target published" in done
    attack = world.round.phases.get(kind=Phase.Kind.ATTACK)
    assert attack.is_open(timezone.now())
    assert Target.objects.filter(scorer=world.scorer, team=world.teams["b"]).exists()


def test_the_panel_says_the_results_wait_once_the_attack_phase_has_closed():
    # PWSCup 2023 walk: frozen, the attack phase closed by "Close the open phases now", the
    # results not published: the panel's state said "attack phase" while the round's own
    # overview and the console's list of rounds said the results wait for the organizers.
    world = scorer_world(slug="hcwait", letters="ab")
    release(world, "a", release_bytes(noise=0))
    client = organizer_client(world)
    client.post(action_url(world, "attack_now"))
    client.post(action_url(world, "close"))
    assert not world.round.phases.get(kind=Phase.Kind.ATTACK).is_open(timezone.now())
    state = panel_state(client_page(world))
    assert state == "The attack phase is over: the results wait for the organizers."
    client.post(action_url(world, "publish"))
    assert panel_state(client_page(world)) == "Results published"


def panel_state(html: str) -> str:
    """The text of the panel's *State* line."""
    match = re.search(r'data-testid="scorer-state">(.*?)</dd>', html, re.S)
    assert match, "no state line"
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()
