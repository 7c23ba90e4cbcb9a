"""A team's releases: an upload of release j refused when its step is closed, frozen or not
open yet, else kept through the core's upload pipeline (``upload_keep``) and checked by a
worker (``release_check``) together with the team's releases 1 … j−1, with the core's job
state machine."""

from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.core.errors import Refused
from pwscup.core.stored import stored_bytes
from pwscup.sequential import engine, selectors
from pwscup.sequential.models import Release, SequentialRound
from pwscup.sequential.services.common import CHECK_RELEASE_TASK
from pwscup.sequential.services.masters import master_frame
from pwscup.submissions import broker
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.models import PENDING
from pwscup.submissions.services.jobs import JobStop, job_execute
from pwscup.submissions.services.uploads import UploadWindow, upload_keep
from pwscup.submissions.services.windows import window_check


def _refuse_step(*, sequential: SequentialRound, team: Team, step: int, now) -> None:
    n = sequential.n_releases
    if not 1 <= step <= n:  # 404, as the API answers a release it does not have in a URL
        raise Refused(
            _("Release %(j)s does not exist: this round has %(n)s.") % {"j": step, "n": n},
            status=404,
        )
    if step > sequential.frozen_steps:  # a frozen release is refused as frozen, below
        window_check(
            label=selectors.release_label(step),
            # Online, a later release opens when the one before is frozen, below.
            opens_at=selectors.release_opens_at(sequential, step, now),
            closes_at=sequential.close_of(step),
            time_zone=sequential.round.timezone,
            now=now,
        )
    open_steps = selectors.open_steps(sequential=sequential, now=now)
    if step not in open_steps:
        if step <= sequential.frozen_steps:
            raise Refused(_("Release %(j)s is frozen.") % {"j": step}, status=403)
        raise Refused(
            _("Release %(j)s opens when release %(i)s is frozen.") % {"j": step, "i": step - 1},
            status=403,
        )
    selectors.team_master_required(sequential=sequential, team=team)


def release_window(*, sequential: SequentialRound, team: Team, step: int) -> UploadWindow:
    """The window a release upload counts against: the team's uploads of release ``step``
    and the round's per-release limits (rejected releases are free)."""
    return UploadWindow.limited_by(
        sequential,
        uploads=Release.objects.filter(sequential=sequential, team=team, step=step),
        total_message=_("Your team has used all %(limit)s uploads of release %(j)s.")
        % {"j": step, "limit": "%(limit)s"},
    )


def _prefix(*, sequential: SequentialRound, team: Team, step: int) -> list[Release]:
    """The team's releases 1 … step−1 the new one is checked with (frozen, else latest
    valid); refused when one is missing."""
    prefix = selectors.team_sequence(sequential=sequential, team=team, upto=step - 1)
    missing = [j for j, release in enumerate(prefix, start=1) if release is None]
    if not missing:
        return prefix
    pending = Release.objects.filter(
        sequential=sequential,
        team=team,
        step=missing[0],
        status__in=PENDING,
    ).exists()
    if pending:
        raise Refused(
            _(
                "Your release %(j)s is still being checked: upload release %(k)s once it is "
                "valid (releases are checked together with the earlier ones)."
            )
            % {"j": missing[0], "k": step}
        )
    raise Refused(
        _(
            "Your team has no valid release %(j)s: upload it first (releases are checked "
            "together with the earlier ones)."
        )
        % {"j": missing[0]}
    )


def _file_name(release: Release) -> str:
    """How the check's messages name a release's file: as the team uploaded it
    (``my_release.csv``), though it is kept as ``release_<j>.csv``."""
    return release.original_filename or f"release_{release.step}.csv"


def release_upload(
    *,
    sequential: SequentialRound,
    team: Team,
    user,
    step: int,
    uploaded_file,
    now=None,
    send_job: bool = True,
) -> Release:
    """Keep ``release_<step>.csv`` as uploaded (QUEUED, through the core's upload pipeline)
    and send its check to a worker (``release_check``): it is validated with the team's
    earlier releases, and a rejected release ends FAILED with the spec's message.
    ``send_job=False``: the caller runs ``release_check`` itself, at once (the demo's
    baseline releases, each checked before the next is uploaded: a running worker must not
    take one of them halfway)."""
    now = now or timezone.now()

    def step_open() -> None:
        # Under the team's row lock: a freeze (which locks the round's row) is seen before
        # or after, never half.
        sequential.refresh_from_db(fields=["frozen_steps", "opens_at"])
        _refuse_step(sequential=sequential, team=team, step=step, now=now)
        _prefix(sequential=sequential, team=team, step=step)

    release = upload_keep(
        model=Release,
        window=release_window(sequential=sequential, team=team, step=step),
        team=team,
        uploaded_file=uploaded_file,
        stored_name=f"release_{step}.csv",
        now=now,
        check=step_open,
        sequential=sequential,
        step=step,
        user=user,
    )
    if send_job:
        broker.job_send(CHECK_RELEASE_TASK, release.pk)
    return release


def release_check(*, release_id: int, task_id: str = "", worker: str = "") -> None:
    """The check's job (QUEUED → RUNNING → FINISHED/FAILED, the submissions' state machine:
    a task delivered twice does no harm, a run taken over after a worker died writes
    nothing): validate the release after the team's releases 1 … j−1 and score 1 … j."""

    def compute(release: Release) -> dict:
        sequential, team = release.sequential, release.team
        try:
            releases = [*_prefix(sequential=sequential, team=team, step=release.step), release]
        except Refused as refusal:
            raise JobStop(JobMessage(text=refusal.message)) from None
        outcome = engine.sequence_check(
            master_frame(master=selectors.team_master(sequential=sequential, team=team)),
            [stored_bytes(each.file) for each in releases],
            sequential.config,
            current=release.step,
            names=[_file_name(each) for each in releases],
        )
        return {"results": outcome.results, "per_person": outcome.per_person_csv}

    job_execute(
        model=Release, pk=release_id, compute=compute, task_id=task_id, worker=worker, timed=True
    )
