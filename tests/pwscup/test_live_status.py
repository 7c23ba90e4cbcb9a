"""The live status: one version per scope, bumped by the job state machine, polled with a
conditional GET whose 304 is one indexed read and renders nothing (docs/architecture.md,
"The web tier")."""

import threading

import pytest
from django.db import connection, connections, transaction
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AnonymizationSubmission, RoundOperation, Target
from pwscup.submissions.models import LiveVersion
from pwscup.submissions.registry import job_kinds
from pwscup.submissions.services.jobs import job_claim, job_complete, job_requeue, job_reset
from pwscup.submissions.services.live import live_bump
from pwscup.submissions.services.maintenance import jobs_reap
from tests.pwscup.factories import upload
from tests.pwscup.live_support import live_box, poll

AUTH_TABLES = ('"django_session"', '"auth_user"')


def version(world, team: str | None) -> int:
    row = LiveVersion.objects.filter(
        round=world.round, team=world.teams[team] if team else None
    ).first()
    return row.version if row else 0


def submit_page(client, world) -> str:
    response = client.get(tab_url(world.round, SUBMIT))
    assert response.status_code == 200
    return response.content.decode()


class Rendered:
    """The templates rendered meanwhile (Django's test signal, sent by every render)."""

    def __enter__(self):
        self.names = []
        template_rendered.connect(self._seen)
        return self

    def _seen(self, sender, template, context, **kwargs):
        self.names.append(template.name)

    def __exit__(self, *exc):
        template_rendered.disconnect(self._seen)


@pytest.mark.django_db
def test_an_unchanged_scope_is_a_304_from_one_query_that_renders_nothing(client, world):
    pending = upload(world, "a", world.original)
    client.force_login(world.users["a"])
    url, etag = live_box(submit_page(client, world))
    assert url == reverse("live_team", args=[world.competition.slug, world.round.slug])
    with CaptureQueriesContext(connection) as queries, Rendered() as rendered:
        unchanged = poll(client, url, etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == etag
    # The session and its user (Django's session and auth middleware, on every request of a
    # logged-in user), then ONE query: the access and the version together.
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 3, sql
    assert '"django_session"' in sql[0] and '"auth_user"' in sql[1]
    assert '"submissions_liveversion"' in sql[2]
    assert rendered.names == []
    # The same check sees a render when there is one: the fragment the script then fetches.
    with Rendered() as rendered:
        fragment = client.get(tab_url(world.round, SUBMIT) + "?fragment=1")
    assert "pwscup2015/_jobs.html" in rendered.names
    assert f'data-testid="submission-{pending.pk}" data-status="queued"' in fragment.text


@pytest.mark.django_db
def test_the_real_job_functions_bump_the_version_so_the_next_poll_is_a_200(client, world):
    pending = upload(world, "a", world.original)
    client.force_login(world.users["a"])
    url, etag = live_box(submit_page(client, world))
    assert poll(client, url, etag).status_code == 304
    services.anonymization_submission_score(submission_id=pending.pk)  # claim, then complete
    changed = poll(client, url, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json() == {"etag": changed["ETag"]}
    # The script then fetches the fragment, which shows the score.
    fragment = client.get(tab_url(world.round, SUBMIT) + "?fragment=1").text
    assert f'data-testid="submission-{pending.pk}" data-status="finished"' in fragment
    # And the new ETag is the page's own now: 304 again.
    assert poll(client, url, changed["ETag"]).status_code == 304
    _url, page_etag = live_box(submit_page(client, world))
    assert page_etag == changed["ETag"]


@pytest.mark.django_db
def test_every_transition_bumps_the_team_and_the_round(world):
    model = AnonymizationSubmission
    pending = upload(world, "a", world.original)  # upload_keep: a new QUEUED upload
    steps = [(version(world, "a"), version(world, None))]
    assert steps[0] == (1, 1)
    token = job_claim(model=model, pk=pending.pk, task_id="t1", worker="w1")
    steps.append((version(world, "a"), version(world, None)))
    assert job_requeue(model=model, pk=pending.pk, token=token)
    steps.append((version(world, "a"), version(world, None)))
    token = job_claim(model=model, pk=pending.pk)
    steps.append((version(world, "a"), version(world, None)))
    assert job_complete(model=model, pk=pending.pk, token=token, status="failed")
    steps.append((version(world, "a"), version(world, None)))
    assert job_reset(model=model, pks=[pending.pk]) == 1
    steps.append((version(world, "a"), version(world, None)))
    assert steps == [(n, n) for n in range(1, 7)]
    # A transition that does not happen bumps nothing; another team's scope never moves.
    assert not job_complete(model=model, pk=pending.pk, token=token, status="finished")
    assert (version(world, "a"), version(world, None), version(world, "b")) == (6, 6, 0)


@pytest.mark.django_db
def test_the_reapers_failure_of_an_exhausted_run_bumps_the_version(world, settings):
    import datetime as dt

    from django.utils import timezone

    settings.PWSCUP_SCORING_MAX_ATTEMPTS = 1
    pending = upload(world, "a", world.original)
    long_ago = timezone.now() - dt.timedelta(days=1)
    job_claim(model=AnonymizationSubmission, pk=pending.pk, now=long_ago)
    before = version(world, "a")
    assert jobs_reap()["failed"] == 1
    assert version(world, "a") == before + 1


@pytest.mark.django_db
def test_another_teams_job_leaves_my_poll_unchanged(client, world):
    upload(world, "a", world.original)
    client.force_login(world.users["a"])
    url, etag = live_box(submit_page(client, world))
    other = upload(world, "b", world.original)
    services.anonymization_submission_score(submission_id=other.pk)
    assert poll(client, url, etag).status_code == 304


@pytest.mark.django_db
def test_the_polls_check_access_as_the_pages_do(client, world, make_world):
    team_url = reverse("live_team", args=[world.competition.slug, world.round.slug])
    round_url = reverse("live_round", args=[world.competition.slug, world.round.slug])
    upload(world, "a", world.original)
    etag = f'"live-{world.round.pk}-{world.teams["a"].pk}-1"'
    # A visitor, and a member of another competition's team: the round's 404, even with
    # the right ETag (a 304 would say that the team's jobs did not move).
    assert poll(client, team_url, etag).status_code == 404
    other = make_world(slug="other")
    client.force_login(other.users["a"])
    assert poll(client, team_url, etag).status_code == 404
    assert poll(client, round_url, f'"live-{world.round.pk}-round-1"').status_code == 404
    # A team's member: its own scope; the round's (the console's) is the organizers'.
    client.force_login(world.users["b"])
    own = poll(client, team_url, etag)
    assert (
        own.status_code == 200 and own["ETag"] == f'"live-{world.round.pk}-{world.teams["b"].pk}-0"'
    )
    assert poll(client, team_url, own["ETag"]).status_code == 304
    assert poll(client, round_url, None).status_code == 404
    # The organizer, in no team: no team scope; the round's, in one query too.
    client.force_login(world.organizer)
    assert poll(client, team_url, None).status_code == 404
    first = poll(client, round_url, None)
    assert first.status_code == 200 and first["ETag"] == f'"live-{world.round.pk}-round-1"'
    with CaptureQueriesContext(connection) as queries:
        assert poll(client, round_url, first["ETag"]).status_code == 304
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 3 and all(t in " ".join(sql[:2]) for t in AUTH_TABLES), sql


@pytest.mark.django_db
def test_the_console_round_page_polls_the_rounds_scope(client, world):
    from tests.pwscup.factories import run_operations, scored

    scored(world, "a", seed=1)
    client.force_login(world.organizer)
    console = reverse("console:round", args=[world.competition.slug, world.round.slug])
    client.post(
        reverse("console:round_action", args=[world.competition.slug, world.round.slug, "freeze"])
    )
    assert RoundOperation.objects.filter(round=world.round, status="queued").exists()
    page = client.get(console).text
    url, etag = live_box(page)
    assert url == reverse("live_round", args=[world.competition.slug, world.round.slug])
    assert 'data-pending="1" data-testid="live-operations"' in page
    assert "operations.json" not in page and "console.js" not in page
    assert poll(client, url, etag).status_code == 304
    run_operations()  # the worker runs the freeze
    assert poll(client, url, etag).status_code == 200
    # The page the script then reloads follows the new version, with nothing under way
    # once the built-in attacks are scored too.
    for target in world.round.targets.all():
        services.target_builtin_score(target_id=target.pk)
    page = client.get(console).text
    url, etag = live_box(page)
    assert 'data-pending="0" data-testid="live-operations"' in page
    assert poll(client, url, etag).status_code == 304


def test_every_jobs_scope_paths_exist():
    """A kind's ``JobKind.round_path`` / ``team_path`` name real fields: the query is built."""
    for job in job_kinds():
        if job.round_path is None:
            continue
        fields = [job.round_path] + ([job.team_path] if job.team_path else [])
        str(job.model.objects.values_list(*fields).query)  # a wrong path raises FieldError


@pytest.mark.django_db(transaction=True)
def test_two_first_bumps_at_once_both_count(world):
    """The race of two first bumps: one inserts; the other's insert waits on the unique
    index, fails when the first commits, and falls back to the UPDATE (no bump lost)."""
    inserted = threading.Event()
    errors = []

    def first():
        try:
            with transaction.atomic():
                live_bump(round_id=world.round.pk, team_id=world.teams["a"].pk)
                inserted.set()
                threading.Event().wait(0.5)  # the second bump runs into our uncommitted row
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            inserted.set()
            connections.close_all()

    def second():
        try:
            inserted.wait(5)
            live_bump(round_id=world.round.pk, team_id=world.teams["a"].pk)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert errors == []
    assert version(world, "a") == 2
    assert LiveVersion.objects.filter(round=world.round, team=world.teams["a"]).count() == 1


@pytest.mark.django_db
def test_an_operations_progress_moves_the_rounds_version(world):
    """The console shows "n of m done": each step of a running operation bumps the round's
    version, like its claim and its completion."""
    from tests.pwscup.factories import run_operations, scored

    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    services.round_freeze_request(round=world.round, requested_by=world.organizer)
    before = (version(world, None), version(world, "a"))
    [operation] = run_operations()
    assert operation.status == "finished" and operation.progress_total == 2
    # claim + start + one step per target + complete, and each target's built-in attacks
    # job (a job row of its own, queued by the freeze): the round's version, and the version
    # of the team whose target it is (its page shows its target's built-in rates).
    targets = Target.objects.filter(round=world.round).count()
    assert targets == operation.progress_total == 2
    assert version(world, None) - before[0] == 2 + 1 + operation.progress_total + targets
    assert version(world, "a") == before[1] + 1


def test_the_team_polls_one_read_is_the_orms_reading(world, make_world):
    """``live_team_poll_etag`` is SQL written once: for a member (its scope with a version
    row and without one), a user of no team, a visitor, a round or competition of no such
    slug, it gives what the ORM reads of the same rows (``None`` where the poll must go
    through the page's own access check)."""
    from django.contrib.auth.models import AnonymousUser

    from pwscup.accounts.models import Membership
    from pwscup.accounts.services import user_create
    from pwscup.competitions.models import Round
    from pwscup.submissions.selectors import live_etag_of, live_team_poll_etag

    other = make_world(slug="other-cup")

    def reference(user, competition_slug, round_slug):
        round_ = Round.objects.filter(slug=round_slug, competition__slug=competition_slug).first()
        if not user.is_authenticated or round_ is None:
            return None
        membership = Membership.objects.filter(user=user, competition=round_.competition).first()
        if membership is None:
            return None
        row = LiveVersion.objects.filter(round=round_, team_id=membership.team_id).first()
        return live_etag_of(
            round_id=round_.pk, team_id=membership.team_id, version=row and row.version
        )

    LiveVersion.objects.create(round=world.round, team=world.teams["a"], version=7)
    slugs = (world.competition.slug, world.round.slug)
    cases = [
        (world.users["a"], *slugs),  # a version row
        (world.users["b"], *slugs),  # none yet
        (user_create(username="no-team", password="pw"), *slugs),
        (AnonymousUser(), *slugs),
        (world.users["a"], slugs[0], "no-such-round"),
        (world.users["a"], other.competition.slug, other.round.slug),  # not a member there
    ]
    answers = [live_team_poll_etag(user=u, competition_slug=c, round_slug=r) for u, c, r in cases]
    assert answers == [reference(u, c, r) for u, c, r in cases]
    assert answers[0].endswith('-7"') and answers[1].endswith('-0"') and answers[2:] == [None] * 4
