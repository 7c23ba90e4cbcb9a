"""The toy's writes, built only from the core's services."""

from django.core.exceptions import ValidationError
from django.utils import timezone

from pwscup.competitions.services import phase_set, round_of_kind_create, round_phases_close
from pwscup.kinds.round_basics import RoundBasics
from pwscup.notifications.services import notify_results_published
from pwscup.submissions import broker
from pwscup.submissions.services.jobs import job_execute
from pwscup.submissions.services.uploads import UploadWindow, upload_keep
from pwscup.submissions.services.windows import phase_window_check
from tests.kinds.toy.models import ToyRound, ToyUpload

SCORE_TOY = "tests.toykind.score"
UPLOAD_PHASE = "upload"  # the toy's one phase (its key; ``ToyGameKind.phase_labels`` names it)


def toy_config_check(config: dict) -> dict:
    """The toy's configuration: ``size``, an integer (1 when not given)."""
    size = config.get("size", 1)
    if not isinstance(size, int):
        raise ValidationError({"size": "size must be an integer"})
    return {"size": size}


def toy_round_create(
    *, competition, name, slug, opens_at, closes_at, daily_limit=None, total_limit=None
):
    round_ = round_of_kind_create(
        basics=RoundBasics(competition=competition, name=name, slug=slug), kind="toygame", config={}
    )
    phase_set(
        round=round_,
        kind=UPLOAD_PHASE,
        opens_at=opens_at,
        closes_at=closes_at,
        daily_limit=daily_limit,
        total_limit=total_limit,
    )
    return round_


def toy_round_close(*, round) -> int:
    """Close the round's phases now (the console's *Close now*); returns how many closed."""
    return round_phases_close(round=round)


def toy_round_publish(*, round) -> None:
    """Close the phases, publish the results and tell the participants."""
    round_phases_close(round=round)
    ToyRound.objects.update_or_create(round=round, defaults={"published": True})
    notify_results_published(round=round)


def toy_upload(*, round, team, uploaded_file, now=None) -> ToyUpload:
    now = now or timezone.now()
    phase = round.phases.get()

    def window_open():
        phase.refresh_from_db()
        phase_window_check(phase=phase, now=now)

    upload = upload_keep(
        model=ToyUpload,
        window=UploadWindow(
            round=round,
            uploads=ToyUpload.objects.filter(round=round, team=team),
            daily_limit=phase.daily_limit,
            total_limit=phase.total_limit,
        ),
        team=team,
        uploaded_file=uploaded_file,
        stored_name="toy.csv",
        now=now,
        check=window_open,
        round=round,
    )
    upload.dispatch = broker.job_send(SCORE_TOY, upload.pk)
    return upload


def toy_score(*, upload_id: int, task_id: str = "", worker: str = "") -> None:
    """The toy's job: the score is the number of lines (a file without one fails)."""

    def compute(upload: ToyUpload) -> dict:
        with upload.file.open("rb") as handle:
            lines = [line for line in handle.read().splitlines() if line.strip()]
        if not lines:
            raise ValueError("no line")
        return {"score": float(len(lines))}

    job_execute(
        model=ToyUpload,
        pk=upload_id,
        compute=compute,
        what=f"toy {upload_id}",
        task_id=task_id,
        worker=worker,
    )
