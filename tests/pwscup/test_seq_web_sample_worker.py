"""The Data tab's sample release uploads as is: downloaded and uploaded through the pages'
views, the real Celery worker accepts it (valid, m-invariant), in a batch round and in an
online round at release 2 after release 1 froze."""

import pytest

from pwscup.sequential.models import Release
from tests.pwscup.seq_web_world import (
    fixture_config,
    freeze,
    sample,
    seq_world,
    tab,
    upload_file,
    url,
)
from tests.support import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def upload_the_sample(client, world) -> Release:
    """Download the sample, upload it with the Submit tab's form, wait for the worker."""
    name, content = sample(client, world)
    step = int(name.removeprefix("release_").removesuffix(".csv"))
    response = client.post(
        url(world, "sequential:seq-release-send"),
        {"step": str(step), "file": upload_file(content, name)},
    )
    assert response.status_code == 302 and response["Location"] == tab(world, "submit") + "#uploads"
    release = Release.objects.filter(team=world.teams["a"], step=step).latest("pk")
    wait_for(
        lambda: Release.objects.filter(
            pk=release.pk, status__in=[Release.Status.FINISHED, Release.Status.FAILED]
        ).exists(),
        timeout=120,
        what="the worker to check the sample release",
    )
    release.refresh_from_db()
    assert release.status == Release.Status.FINISHED, release.message
    assert release.worker, "checked by the worker"
    assert release.results["MINV"] >= world.sequential.config["m"]
    page = client.get(response["Location"]).content.decode()
    assert f'data-testid="upload-{release.pk}"' in page and 'data-testid="accepted"' in page
    return release


def test_batch_the_sample_is_accepted_by_the_worker(client, celery_worker_process):
    world = seq_world(
        slug="seqsamplebatch", config={**fixture_config("zhang_config.json"), "mode": "batch"}
    )
    client.force_login(world.users["a"])
    first = upload_the_sample(client, world)
    assert first.step == 1
    # Release 1 is valid: the sample is now release 2, built on it.
    second = upload_the_sample(client, world)
    assert second.step == 2 and second.results["MINV"] == 2


def test_online_release_2_s_sample_is_accepted_after_release_1_froze(client, celery_worker_process):
    world = seq_world(slug="seqsampleonline")
    client.force_login(world.users["a"])
    assert upload_the_sample(client, world).step == 1
    freeze(world)
    second = upload_the_sample(client, world)
    assert second.step == 2 and second.results["n"] == 2
