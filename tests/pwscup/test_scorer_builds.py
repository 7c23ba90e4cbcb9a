"""Each worker host records its build of each program version (``ProgramBuild``): the
version's job on the host that took it, a run or a direct call on another host; a ready
host's later runs write nothing; a failed build keeps its log; the console's program panel
lists every host's state and log."""

import pytest
from django.test import override_settings
from django.urls import reverse

from pwscup.scorer import services
from pwscup.scorer.models import ProgramBuild, ProgramVersion, Release
from pwscup.scorer.services.runs import host_name, program_environment
from pwscup.submissions.models import Status
from scoring.scorer.demo import demo_program_zip
from tests.pwscup.bundle_helpers import members_of
from tests.pwscup.scorer_world import (
    release_bytes,
    scorer_world,
    upload_file,
    zipped,
)

pytestmark = pytest.mark.django_db


def _upload(world, data: bytes) -> ProgramVersion:
    return services.program_upload(
        scorer=world.scorer,
        uploaded_file=upload_file(data, "program.zip", "application/zip"),
        user=world.organizer,
    )


def test_each_host_records_its_build_and_the_console_lists_them(client):
    world = scorer_world(slug="hb1", letters="a", build=False)
    version = _upload(world, demo_program_zip())
    services.program_build(program_id=version.pk)  # the job, on this host
    builds = {b.host: b for b in ProgramBuild.objects.filter(version=version)}
    assert set(builds) == {host_name()}
    here = builds[host_name()]
    assert here.state == ProgramBuild.State.READY and here.log
    assert here.started_at is not None and here.finished_at >= here.started_at
    # A second host builds it on its first use (here: the same disk, found built).
    program_environment(version, host="worker-2.example")
    other = ProgramBuild.objects.get(version=version, host="worker-2.example")
    assert other.state == ProgramBuild.State.READY
    # Once ready, a host's runs write nothing more.
    finished = other.finished_at
    program_environment(version, host="worker-2.example")
    other.refresh_from_db()
    assert other.finished_at == finished
    # A run scored on this host uses its ready build.
    world.scorer.refresh_from_db()
    kept = services.release_upload(
        scorer=world.scorer,
        team=world.teams["a"],
        user=world.users["a"],
        uploaded_file=upload_file(release_bytes(noise=0), "release.csv"),
    )
    services.release_score(release_id=kept.pk)
    assert Release.objects.get(pk=kept.pk).status == Status.FINISHED
    assert ProgramBuild.objects.filter(version=version).count() == 2
    client.force_login(world.organizer)
    url = reverse("console:round", args=[world.competition.slug, world.round.slug])
    page = client.get(url).content.decode()
    hosts = page.split('data-testid="scorer-host-builds"', 1)[1].split("</ul>", 1)[0]
    assert f'data-host="{host_name()}"' in hosts and 'data-host="worker-2.example"' in hosts
    assert hosts.count('data-testid="scorer-host-build-log"') == 2
    assert "Build log on worker-2.example" in hosts
    ja = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "worker-2.example での構築ログ" in ja


@override_settings(PWSCUP_SCORER_PIP_OPTIONS="--no-index")
def test_a_failed_build_on_a_host_keeps_its_log():
    world = scorer_world(slug="hb2", letters="a", build=False)
    files = members_of(demo_program_zip())
    files["requirements.txt"] = b"pwscup-no-such-package==0.0.1\n"
    version = _upload(world, zipped(files))
    services.program_build(program_id=version.pk)
    version.refresh_from_db()
    assert version.status == ProgramVersion.Status.FAILED
    build = ProgramBuild.objects.get(version=version, host=host_name())
    assert build.state == ProgramBuild.State.FAILED
    assert "pwscup-no-such-package" in build.log
    # Another host tries on its own first use, and records its own failure.
    with pytest.raises(Exception):  # noqa: B017 - the build's own error, whatever pip says
        program_environment(version, host="worker-3.example")
    assert ProgramBuild.objects.get(version=version, host="worker-3.example").state == "failed"
