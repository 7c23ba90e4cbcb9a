"""The DP round's close on the real Celery worker: a page view after the close sends the
score job; the worker scores the estimates and computes the baselines."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from pwscup.dp.models import DPRound, Estimate
from pwscup.dp.services import dp_estimate_upload
from tests.pwscup.dp_world import TOY_Z, build_dp_world, close_now
from tests.support import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_worker_scores_a_closed_round(celery_worker_process):
    world = build_dp_world(slug="dpworker")
    content = ("target,gender,age,count\n" + "".join(
        f"gender_age,{g},{a},{v}\n"
        for (g, a), v in zip([(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")], TOY_Z, strict=True)
    ) + "gender,F,,4\ngender,M,,6\n").encode()  # fmt: skip
    estimate = dp_estimate_upload(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
        uploaded_file=SimpleUploadedFile("estimate.csv", content),
    )  # fmt: skip
    # The worker checks the upload, then scores it after the close.
    wait_for(
        lambda: Estimate.objects.filter(pk=estimate.pk, status="finished").exists(),
        timeout=120,
        what="the worker to check the estimate",
    )
    close_now(world)
    client = Client()
    client.force_login(world.users["b"])
    address = reverse(
        "dp:leaderboard",
        kwargs={"competition_slug": world.competition.slug, "round_slug": world.round.slug},
    )
    assert 'data-testid="dp-scoring"' in client.get(address).content.decode()
    wait_for(
        lambda: DPRound.objects.filter(pk=world.dp_round.pk, scored_at__isnull=False).exists(),
        timeout=120,
        what="the worker to score the closed DP round",
    )
    assert Estimate.objects.get(pk=estimate.pk).scores["mean_l2"] == 0.0
    page = client.get(address).content.decode()
    assert 'data-testid="dp-l2-eps-1-teama"' in page and "dp-baseline-eps-1-BR" in page
