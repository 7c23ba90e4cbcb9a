"""The polled jobs fragment is never older in its quota lines than in its jobs.

A fragment that shows the job done makes the page stop polling, so its quota lines must
count the job as done too. Seen in a full run: an upload failed between the two reads and
the page kept "Used today: 1" (tests/e2e/test_live_round_page.py).
"""

from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.pwscup2015.views import tabs as views
from pwscup.submissions.models import Status
from tests.pwscup.factories import upload


def test_a_job_that_fails_while_the_fragment_is_read_is_not_counted(
    make_world, client, monkeypatch
):
    world = make_world(slug="race")
    client.force_login(world.users["a"])
    pending = upload(world, "a", world.original)
    real = views.team_submissions

    def failing_meanwhile(**kwargs):
        # The worker commits the failure while the view reads.
        AnonymizationSubmission.objects.filter(pk=pending.pk).update(status=Status.FAILED)
        return real(**kwargs)

    monkeypatch.setattr(views, "team_submissions", failing_meanwhile)
    html = client.get(tab_url(world.round, SUBMIT) + "?fragment=1").content.decode()
    assert 'data-pending="0"' in html  # the page stops polling on this fragment
    assert "Used today: 0 (no daily limit)" in html
