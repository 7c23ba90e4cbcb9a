"""The DP round's sample submission, end to end on the real Celery worker: downloaded from the
Data tab's link, uploaded through the level page's form as it is, checked by the worker
(accepted), then scored after the close like any estimate."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pwscup.dp.models import DPRound, Estimate
from pwscup.kinds.tabs import DATA, RESULTS, tab_url
from scoring.dp.utility import l2
from tests.pwscup.dp_world import TOY_Z, build_dp_world, close_now
from tests.support import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_sample_estimate_uploads_as_is_is_accepted_by_the_worker_and_scored(
    celery_worker_process,
):
    world = build_dp_world(slug="dpsample")
    c, r = world.competition.slug, world.round.slug
    client = Client()
    client.force_login(world.users["a"])
    data = client.get(tab_url(world.round, DATA)).content.decode()
    link = re.search(r'href="([^"]+)" download data-testid="dp-sample-download"', data)[1]
    sample = client.get(link)
    assert sample.status_code == 200
    name = re.search(r'filename="([^"]+)"', sample["Content-Disposition"])[1]

    upload = client.post(
        reverse("dp:estimate_upload", args=[c, r, "eps-1"]),
        {"file": SimpleUploadedFile(name, sample.content, content_type="text/csv")},
    )
    assert upload.status_code == 302
    estimate = Estimate.objects.get(dp_round=world.dp_round, team=world.teams["a"])
    wait_for(
        lambda: Estimate.objects.filter(pk=estimate.pk, status__in=["finished", "failed"]).exists(),
        timeout=120,
        what="the worker to check the sample estimate",
    )
    estimate.refresh_from_db()
    assert estimate.status == Estimate.Status.FINISHED, estimate.message_text
    level = client.get(reverse("dp:level", args=[c, r, "eps-1"])).content.decode()
    assert f'data-testid="dp-verdict-{estimate.pk}" data-status="finished"' in level
    assert "Mean L2" not in level and not estimate.scores  # no score before the close

    close_now(world)
    client.get(tab_url(world.round, RESULTS))  # a view after the close sends the scoring
    wait_for(
        lambda: DPRound.objects.filter(pk=world.dp_round.pk, scored_at__isnull=False).exists(),
        timeout=120,
        what="the worker to score the closed round",
    )
    estimate.refresh_from_db()
    uniform = (l2([10 / 6] * 6, TOY_Z) + l2([5, 5], [4, 6])) / 2
    assert estimate.scores["mean_l2"] == pytest.approx(uniform, abs=1e-12)
    assert estimate.scores["mean_spearman"] == 0.0  # every cell ties
    results = client.get(tab_url(world.round, RESULTS)).content.decode()
    assert f'data-testid="dp-result-l2-eps-1">{uniform:.4f}<' in results
    board = client.get(reverse("dp:leaderboard", args=[c, r])).content.decode()
    assert f'data-testid="dp-l2-eps-1-teama">{uniform:.4f}<' in board
