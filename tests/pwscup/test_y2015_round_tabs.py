"""The 2015 round page as five tabs: what each tab holds, the open phase's form first on
Submit, the flow and "What to do now" from the round's stage, the redirects to Submit, and
the Rules tab's worked example computed by the scorer."""

import datetime as dt

import pandas as pd
import pytest
from django.urls import reverse
from django.utils import timezone

import scoring
from pwscup.competitions.models import Phase
from pwscup.competitions.services import phase_set
from pwscup.kinds.tabs import DATA, OVERVIEW, RESULTS, RULES, SUBMIT, TABS, tab_url
from pwscup.pwscup2015 import explanations, overview
from pwscup.pwscup2015.models import Pwscup2015Round
from tests.pwscup.factories import freeze, scored, upload

pytestmark = pytest.mark.django_db
HOUR = dt.timedelta(hours=1)


def page(client, world, tab, query="") -> str:
    response = client.get(tab_url(world.round, tab) + query)
    assert response.status_code == 200
    return response.content.decode()


def test_every_tab_marks_itself_current_and_holds_its_content(world, client):
    client.force_login(world.users["a"])
    expected = {
        OVERVIEW: ['data-testid="game"', 'data-testid="flow"', 'data-testid="now"'],
        DATA: ['data-testid="download-original"', 'data-testid="download-kit"'],
        RULES: ['data-testid="metric-words"', 'data-testid="worked-example"'],
        SUBMIT: ['data-testid="upload-form"', 'id="jobs"', 'data-testid="quota"'],
        RESULTS: ['data-testid="history-chart"', 'id="jobs"'],
    }
    for tab, _label in TABS:
        html = page(client, world, tab)
        assert f'data-testid="tab-{tab}" aria-current="page"' in html, tab
        for marker in expected[tab]:
            assert marker in html, (tab, marker)
    assert 'data-testid="download-sample"' in page(client, world, DATA)
    assert 'data-testid="download-toolkit"' in page(client, world, DATA)
    rules = page(client, world, RULES)
    assert 'data-testid="scoring-guide"' in rules and 'data-testid="cli-command"' in rules
    assert 'data-testid="undefined-note-U2"' in rules  # what "–" means in a score table


def test_the_overview_says_the_game_in_plain_words_before_the_papers_terms(world, client):
    html = page(client, world, OVERVIEW)  # a visitor
    game = html.index("re-identification")
    assert game < html.index("QI (quasi-identifiers)") and game < html.index("E1–E4")
    assert 'data-testid="team-register"' in html  # the sign-up box for a visitor
    assert 'data-testid="flow"' in html


def test_submit_shows_the_open_phases_form_first(world, client):
    client.force_login(world.users["a"])
    html = page(client, world, SUBMIT)
    assert html.index('data-testid="upload-form"') < html.index('data-testid="attack-phase"')
    assert 'data-testid="attack-form"' not in html
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    freeze(world)
    html = page(client, world, SUBMIT)
    assert 'data-testid="upload-form"' not in html
    form, line = html.index('data-testid="attack-form"'), html.index('data-testid="frozen"')
    assert form < line < html.index('id="jobs"')
    assert html.index('data-testid="attack-quota"') < line
    assert 'data-testid="target-teamB"' in html and 'data-testid="target-teamA"' not in html
    data = page(client, world, DATA)
    assert 'data-testid="targets-card"' in data and 'data-testid="target-teamB"' in data


def test_a_closed_phase_says_so_in_one_line(make_world, client):
    world = make_world(anonymization_open=False, attack_open=False)
    client.force_login(world.users["a"])
    html = page(client, world, SUBMIT)
    assert 'data-testid="upload-form"' not in html and 'data-testid="attack-form"' not in html
    assert html.count('class="card phase-line"') == 2
    assert "Closed on" in html and "Opens on" not in html  # the attack phase awaits the freeze


def test_the_fragment_is_served_on_the_tabs_own_address(world, client):
    client.force_login(world.users["a"])
    upload(world, "a", world.original)
    for tab in (SUBMIT, RESULTS):
        html = page(client, world, tab)
        assert f'data-fragment-url="{tab_url(world.round, tab)}?' in html
        fragment = page(client, world, tab, "?fragment=1")
        assert fragment.lstrip().startswith('<div data-pending="1" data-testid="jobs">')
        assert "<html" not in fragment and "data-live-updates" in fragment
    assert 'data-live="history-charts"' in page(client, world, RESULTS, "?fragment=1")
    assert 'data-live="history-charts"' not in page(client, world, SUBMIT, "?fragment=1")


def test_uploads_choices_and_notes_go_back_to_submit(world, client):
    client.force_login(world.users["a"])
    args = [world.competition.slug, world.round.slug]
    submit = tab_url(world.round, SUBMIT)
    answer = client.post(reverse("anonymization_upload", args=args), {"file": ""})
    assert answer.status_code == 302 and answer["Location"] == submit
    done = scored(world, "a", seed=1)
    answer = client.post(reverse("submission_select", args=[done.pk]))
    assert answer["Location"] == submit
    answer = client.post(reverse("submission_note", args=[done.pk]), {"note": "k=2"})
    assert answer["Location"] == submit
    assert (
        f'href="{submit}"'
        in client.get(reverse("submission_note", args=[done.pk])).content.decode()
    )


def test_results_links_follow_the_pages_own_rules(world, client):
    client.force_login(world.users["a"])
    html = page(client, world, RESULTS)
    assert 'data-testid="leaderboard-link"' not in html and 'data-testid="final-link"' not in html
    world.anonymization.leaderboard_public = True
    world.anonymization.save()
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    world.round.refresh_from_db()
    html = page(client, world, RESULTS)
    for link in ("leaderboard-link", "matrix-link", "final-link"):
        assert f'data-testid="{link}"' in html


def phases_at(world, *, anonymization: str, attack: str) -> overview.RoundPhases:
    return overview.RoundPhases(world.anonymization, world.attack, anonymization, attack)


@pytest.mark.parametrize(
    ("anonymization", "attack", "frozen", "published", "stage", "now"),
    [
        ("upcoming", "upcoming", False, False, overview.BEFORE, 0),
        ("open", "upcoming", False, False, overview.ANONYMIZATION, 1),
        ("closed", "upcoming", False, False, overview.AWAITING_FREEZE, 2),
        ("closed", "upcoming", True, False, overview.AWAITING_ATTACK, 2),
        ("closed", "open", True, False, overview.ATTACK, 3),
        ("closed", "closed", True, False, overview.AWAITING_RESULTS, 4),
        ("closed", "closed", True, True, overview.RESULTS_PUBLISHED, None),
    ],
)
def test_the_stage_sets_the_flow_and_what_to_do_now(
    world, anonymization, attack, frozen, published, stage, now
):
    settings = world.round.pwscup2015
    settings.frozen_at = timezone.now() if frozen else None
    settings.results_published = published
    phases = phases_at(world, anonymization=anonymization, attack=attack)
    assert overview.round_stage(round=world.round, phases=phases) == stage
    flow = overview.round_flow(round=world.round, phases=phases, stage=stage)
    assert len(flow) == 5
    states = [step.state for step in flow]
    if now is None:
        assert states == ["done"] * 5
    else:
        assert states == ["done"] * now + ["now"] + ["later"] * (4 - now)
    steps = overview.round_next_steps(
        round=world.round, phases=phases, stage=stage, has_submission=False
    )
    urls = {step.url for step in steps}
    wanted = {
        overview.BEFORE: RULES,
        overview.ANONYMIZATION: DATA,
        overview.AWAITING_FREEZE: RESULTS,
        overview.AWAITING_ATTACK: DATA,
        overview.ATTACK: SUBMIT,
        overview.AWAITING_RESULTS: RESULTS,
        overview.RESULTS_PUBLISHED: RESULTS,
    }
    assert tab_url(world.round, wanted[stage]) in urls, (stage, steps)
    assert all(step.text and step.action for step in steps if step.url), steps


def test_an_incomplete_round_and_an_unscheduled_attack_say_so_with_no_link(world):
    phases = phases_at(world, anonymization="closed", attack="upcoming")
    for stage, words in (
        (overview.NOT_OPEN, "not open yet"),
        (overview.AWAITING_ATTACK, "has not been scheduled"),
    ):
        if stage == overview.AWAITING_ATTACK:
            phases = overview.RoundPhases(world.anonymization, None, "closed", "")
        (step,) = overview.round_next_steps(
            round=world.round, phases=phases, stage=stage, has_submission=True
        )
        assert words in step.text and not step.url, (stage, step)


def test_what_to_do_now_follows_the_team(world, client):
    client.force_login(world.users["a"])
    first = page(client, world, OVERVIEW)
    assert "Download your data and the kit." in first
    assert f'href="{tab_url(world.round, DATA)}" data-testid="now-1"' in first
    scored(world, "a", seed=1)
    later = page(client, world, OVERVIEW)
    assert "Upload a better anonymized CSV until" in later
    assert f'href="{tab_url(world.round, SUBMIT)}" data-testid="now-1"' in later


def test_the_data_tab_waits_for_the_phase(make_world, client):
    world = make_world(slug="early")
    now = timezone.now()
    phase_set(
        round=world.round,
        kind=Phase.Kind.ANONYMIZATION,
        opens_at=now + HOUR,
        closes_at=now + 2 * HOUR,
    )
    client.force_login(world.users["a"])
    html = page(client, world, DATA)
    assert 'data-testid="data-later"' in html
    assert 'data-testid="download-original"' not in html
    assert 'data-testid="download-sample"' not in html


def test_every_metric_has_a_plain_sentence():
    assert set(explanations.SENTENCES) == set(scoring.ALL_METRICS)


def test_the_worked_example_is_what_the_scorer_computes():
    columns = list(explanations.EXAMPLE_COLUMNS)
    original = pd.DataFrame(explanations.EXAMPLE_ORIGINAL, columns=columns)
    copy = pd.DataFrame(explanations.EXAMPLE_COPY, columns=columns)
    config = scoring.load_config(explanations.EXAMPLE_CONFIG, original)
    before = scoring.evaluate(original, original, config)
    after = scoring.evaluate(original, copy, config)
    for metric, shown_before, shown_after in explanations.EXAMPLE_SCORES:
        assert before[metric] == pytest.approx(shown_before, abs=5e-5), metric
        assert after[metric] == pytest.approx(shown_after, abs=5e-5), metric
    worst = max(after[m] for m in scoring.ATTACK_METRICS)
    assert explanations.example_worst_cases() == (1, pytest.approx(worst, abs=5e-5))
