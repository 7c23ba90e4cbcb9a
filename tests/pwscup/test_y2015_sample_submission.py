"""The sample submission of a 2015 round: made from the reader's own data with the kit's
methods, it uploads as is through the upload view and the real worker scores it FINISHED,
in both data modes; it keeps the round's utility gates when a kit method can, and says so
honestly when none can."""

import io

import pandas as pd
import pytest
from django.core.cache import cache
from django.urls import reverse

import scoring
from pwscup.kinds.tabs import DATA, SUBMIT, tab_url
from pwscup.pwscup2015.models import AnonymizationSubmission, Pwscup2015Round
from pwscup.pwscup2015.ranking import passes_gates
from pwscup.pwscup2015.sample import sample_submission, sample_summary
from pwscup.pwscup2015.selectors import team_original_table
from pwscup.submissions.models import Status
from tests.support import wait_for

DONE = (Status.FINISHED, Status.FAILED)


def fetch_sample(client, world) -> tuple[bytes, str]:
    response = client.get(reverse("sample_download", args=[world.competition.slug, "r1"]))
    assert response.status_code == 200
    return response.content, response["Content-Disposition"]


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "mode", [Pwscup2015Round.DataMode.SHARED, Pwscup2015Round.DataMode.PER_TEAM]
)
def test_the_sample_uploads_as_is_and_the_worker_scores_it(
    make_world, client, celery_worker_process, mode
):
    cache.clear()
    world = make_world(slug=f"sample-{mode.replace('_', '-')}", data_mode=mode)
    client.force_login(world.users["a"])
    content, disposition = fetch_sample(client, world)
    assert "teamA_sample_anonymized.csv" in disposition
    # Deterministic: the same bytes again, also when made afresh (not from the cache).
    cache.clear()
    assert fetch_sample(client, world)[0] == content

    answer = client.post(
        reverse("anonymization_upload", args=[world.competition.slug, "r1"]),
        {"file": io.BytesIO(content)},
    )
    assert answer.status_code == 302
    assert answer["Location"] == tab_url(world.round, SUBMIT)
    submission = AnonymizationSubmission.objects.get(team=world.teams["a"])
    status = wait_for(
        lambda: (s := AnonymizationSubmission.objects.get(pk=submission.pk).status) in DONE and s,
        timeout=120,
        what="the sample submission to be scored",
    )
    submission.refresh_from_db()
    assert status == Status.FINISHED, submission.message
    assert set(scoring.METRICS) <= set(submission.scores)
    # It is an anonymization, not the data itself: the kit's example changed something.
    original, _config = team_original_table(round=world.round, team=world.teams["a"])
    sample = pd.read_csv(io.BytesIO(content), dtype=str, keep_default_na=False)
    assert list(sample.columns) == list(original.columns) and len(sample) == len(original)
    assert not sample.equals(original)
    assert submission.scores["U6"] == 1  # the kit example deletes the most outlying row
    # The Submit tab shows it scored, with its scores.
    page = client.get(tab_url(world.round, SUBMIT)).content.decode()
    assert f'data-testid="submission-{submission.pk}" data-status="finished"' in page
    assert 'data-metric="U1"' in page


@pytest.mark.django_db
def test_the_sample_keeps_the_gates_when_a_kit_method_can(make_world):
    cache.clear()
    # U6 ≤ 0 (no row deleted) rules out the kit's example, which deletes one row.
    world = make_world(slug="gated", utility_gates={"U6": 0})
    made = sample_submission(round=world.round, team=world.teams["a"])
    assert made.summary.recipe != "kit_example"
    assert made.summary.passes_gates is True
    original, config = team_original_table(round=world.round, team=world.teams["a"])
    scores = scoring.evaluate(original, scoring.read_table(made.content), config)
    assert passes_gates(scores, world.round)
    # The Data tab reads what was made (from the cache only) and names the method.
    assert sample_summary(round=world.round, team=world.teams["a"]) == made.summary


@pytest.mark.django_db
def test_when_no_method_keeps_the_gates_the_data_tab_says_so(make_world, client):
    cache.clear()
    # S1 ≥ 1000 on 200 rows: no method of the kit reaches it.
    world = make_world(slug="hopeless", utility_gates={"S1": {"min": 1000}})
    made = sample_submission(round=world.round, team=world.teams["a"])
    assert made.summary.passes_gates is False
    assert made.summary.recipe == "one_column"  # the plain copy with one column generalized
    client.force_login(world.users["a"])
    page = client.get(tab_url(world.round, DATA)).content.decode()
    assert 'data-testid="sample-gates"' in page
    assert "listed unranked" in page


@pytest.mark.django_db
def test_a_round_without_gates_does_not_score_the_sample(make_world, monkeypatch):
    cache.clear()
    world = make_world(slug="nogates")

    def no_scoring(*args, **kwargs):
        raise AssertionError("a round without gates needs no scoring to choose its sample")

    monkeypatch.setattr(scoring, "evaluate", no_scoring)
    made = sample_submission(round=world.round, team=world.teams["a"])
    assert made.summary.recipe == "kit_example" and made.summary.passes_gates is None
