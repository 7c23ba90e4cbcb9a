"""Writes of the sequential round: creation, master tables, releases, freezes, attacks.

Every entry point (console, admin, views, the demo command) calls one of these. The maths is
``scoring.sequential``, reached only through :mod:`pwscup.sequential.engine`.

Uploads (releases and attacks) enter through the core's upload pipeline
(``pwscup.submissions.services.uploads.upload_keep``: size, limits, the team's bounds, the
file kept as uploaded) and are checked and scored by a Celery worker with the core's job
state machine (``release_check``, ``attack_score``), watched by the reaper like every kind's
jobs (``SequentialKind.jobs``). ``Release.elapsed_ms`` keeps each check's time.
"""

import datetime as dt
import hashlib
import time
import zoneinfo

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

import scoring
from pwscup.accounts.models import Team
from pwscup.competitions.models import Competition
from pwscup.competitions.services import audit_record, round_of_kind_create
from pwscup.core.errors import Refused
from pwscup.core.files import OrganizerCsv, organizer_csv
from pwscup.notifications.models import Notification
from pwscup.notifications.services import notify
from pwscup.sequential import engine, selectors
from pwscup.sequential.models import (
    Master,
    Release,
    SeqAttack,
    SeqTarget,
    SequenceScore,
    SequentialRound,
)
from pwscup.submissions import broker
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.services.jobs import job_claim, job_complete, job_run
from pwscup.submissions.services.maintenance import AUTO_FREEZE_WAITS_AT_MOST
from pwscup.submissions.services.uploads import (
    UploadWindow,
    format_at,
    original_name,
    upload_keep,
    uploader,
)

KIND_KEY = "sequential"


def _read(field_or_file) -> bytes:
    field_or_file.open("rb")
    try:
        field_or_file.seek(0)
        return field_or_file.read()
    finally:
        if hasattr(field_or_file, "storage"):
            field_or_file.close()


def _upload_bytes(uploaded_file) -> bytes:
    uploaded_file.seek(0)
    data = uploaded_file.read()
    uploaded_file.seek(0)
    return data


def sequential_config_validate(*, config) -> dict:
    """The normalised configuration (spec §12), or a ``ValidationError`` naming the key."""
    if not isinstance(config, dict):
        raise ValidationError(_("The round configuration must be a JSON object."))
    try:
        return engine.config_normalise(config)
    except scoring.ScoringError as error:
        raise ValidationError(str(error)) from None


def _organizer_csv(uploaded_file, *, field: str) -> OrganizerCsv:
    """A master or a pool as the organizer uploaded it, in UTF-8 (converted from an encoding
    recognised for sure), or a ``ValidationError`` on ``field`` naming the likely encoding."""
    try:
        return organizer_csv(_upload_bytes(uploaded_file), name=uploaded_file.name)
    except scoring.ScoringError as error:
        raise ValidationError({field: error.render(get_language())}) from None


def _master_check(*, config: dict, data: bytes, name: str) -> int:
    """Validate a master table (UTF-8) against the configuration; its person count."""
    try:
        return engine.master_persons(engine.master_read(data, config, name=name))
    except scoring.ScoringError as error:
        raise ValidationError({"master": error.render(get_language())}) from None


def _master_create(
    *, sequential: SequentialRound, team: Team | None, csv: OrganizerCsv, persons: int
) -> Master:
    """A master from an organizer's upload: the UTF-8 copy in ``file`` (hashed), the upload
    as it was in ``source`` when it was in another encoding."""
    return Master.objects.create(
        sequential=sequential,
        team=team,
        file=ContentFile(csv.utf8, name="master.csv"),
        source=ContentFile(csv.source, name="master.csv") if csv.source is not None else "",
        source_encoding=csv.encoding,
        sha256=hashlib.sha256(csv.utf8).hexdigest(),
        persons=persons,
    )


@transaction.atomic
def sequential_round_create(
    *,
    competition: Competition,
    name: str,
    slug: str,
    config: dict,
    master_file=None,
    pool_file=None,
    user=None,
    step_closes=None,
    first_close=None,
    step_length=None,
    daily_limit=None,
    total_limit=None,
    auto_freeze=True,
) -> SequentialRound:
    """A new sequential round: the configuration, and a shared master or a pool to draw
    per-team masters from (drawn at once for the teams registered, and again by the
    organizer's "draw" action). Per-team masters may also be uploaded one by one.
    Optionally each release's close (``step_closes``, or ``first_close`` and
    ``step_length``; see ``schedule_set``) and the per-team, per-release upload limits."""
    if master_file is not None and pool_file is not None:
        raise ValidationError({"pool": _("Upload a master table or a pool, not both.")})
    config = sequential_config_validate(config=config)
    if config.get("attack_phase") and master_file is not None:
        raise ValidationError({"master": str(scoring.ConfigError("seq.config.attack_phase"))})
    if pool_file is not None and not config.get("per_team"):
        raise ValidationError(
            {
                "pool": _(
                    "A pool needs the per_team key of the configuration (size, turnover, seed)."
                )
            }
        )
    master_csv = _organizer_csv(master_file, field="master") if master_file is not None else None
    if master_csv is not None:
        persons = _master_check(config=config, data=master_csv.utf8, name="master.csv")
    pool_csv = _organizer_csv(pool_file, field="pool") if pool_file is not None else None
    round_ = round_of_kind_create(
        competition=competition, kind=KIND_KEY, name=name, slug=slug, config=config
    )
    sequential = SequentialRound.objects.create(
        round=round_,
        config=config,
        daily_limit=daily_limit,
        total_limit=total_limit,
        auto_freeze=auto_freeze,
    )
    schedule_set(
        sequential=sequential,
        closes=step_closes or None,
        first_close=first_close,
        step_length=step_length,
    )
    if master_csv is not None:
        _master_create(sequential=sequential, team=None, csv=master_csv, persons=persons)
    if pool_csv is not None:
        sequential.pool_file.save("pool.csv", ContentFile(pool_csv.utf8), save=False)
        if pool_csv.source is not None:
            sequential.pool_source.save("pool.csv", ContentFile(pool_csv.source), save=False)
        sequential.pool_encoding = pool_csv.encoding
        sequential.save(update_fields=["pool_file", "pool_source", "pool_encoding"])
        try:
            masters_draw(sequential=sequential)
        except Refused as refusal:
            raise ValidationError({"pool": refusal.message}) from None
    if user is not None:
        audit(user=user, sequential=sequential, action="create")
    return sequential


def master_upload(*, sequential: SequentialRound, uploaded_file, team: Team | None) -> Master:
    """Replace the shared master (``team=None``) or a team's master; before the first freeze."""
    if sequential.frozen_steps:
        raise Refused(_("Step 1 is frozen: the master tables can no longer change."))
    csv = _organizer_csv(uploaded_file, field="master")
    persons = _master_check(config=sequential.config, data=csv.utf8, name=uploaded_file.name)
    Master.objects.filter(sequential=sequential, team=team).delete()
    return _master_create(sequential=sequential, team=team, csv=csv, persons=persons)


@transaction.atomic
def masters_draw(*, sequential: SequentialRound) -> list[Master]:
    """Draw a master for each team of the competition without one (spec §3, per-team
    masters from the pool, seeded per round); teams with a master keep it."""
    if not sequential.pool_file:
        raise Refused(_("This round has no pool to draw masters from."))
    if sequential.frozen_steps:
        raise Refused(_("Step 1 is frozen: the master tables can no longer change."))
    teams = list(Team.objects.filter(competition=sequential.round.competition).order_by("pk"))
    if not teams:
        return []
    pool = engine.pool_read(_read(sequential.pool_file), sequential.config)
    Master.objects.filter(sequential=sequential, drawn=True).delete()
    kept = set(Master.objects.filter(sequential=sequential).values_list("team_id", flat=True))
    wanted = [team for team in teams if team.pk not in kept]
    per_team = sequential.config.get("per_team") or {}
    try:
        # Disjoint parts of the pool for all the teams, in a fixed order (seeded per round):
        # drawing again after a team joined redraws every drawn master, before step 1 froze.
        drawn = engine.masters_draw(
            pool,
            sequential.config,
            teams=[str(team.pk) for team in teams],
            seed=int(per_team.get("seed", 0)) ^ sequential.secret_seed,
        )
    except scoring.ScoringError as error:
        raise Refused(str(error)) from None
    created = []
    for team in wanted:
        frame = drawn[str(team.pk)]
        created.append(
            Master.objects.create(
                sequential=sequential,
                team=team,
                file=ContentFile(engine.table_bytes(frame), name="master.csv"),
                persons=len(frame),
                drawn=True,
            )
        )
    return created


def master_frame(*, master: Master):
    return engine.master_read(_read(master.file), master.sequential.config, name="master.csv")


# --- releases ----------------------------------------------------------------------------


def _refuse_step(*, sequential: SequentialRound, team: Team, step: int, now) -> None:
    n = sequential.n_releases
    if not 1 <= step <= n:
        raise Refused(
            _("Release %(j)s does not exist: this round has %(n)s.") % {"j": step, "n": n}
        )
    closes_at = sequential.close_of(step)
    if closes_at is not None and now >= closes_at and step > sequential.frozen_steps:
        raise Refused(
            _("Release %(j)s closed at %(at)s; uploads of it are no longer accepted.")
            % {"j": step, "at": format_at(sequential.round.timezone, closes_at)},
            status=403,
        )
    open_steps = selectors.open_steps(sequential=sequential)
    if step not in open_steps:
        if step <= sequential.frozen_steps:
            raise Refused(_("Release %(j)s is frozen.") % {"j": step}, status=403)
        raise Refused(
            _("Release %(j)s opens when release %(i)s is frozen.") % {"j": step, "i": step - 1},
            status=403,
        )
    if selectors.team_master(sequential=sequential, team=team) is None:
        raise Refused(_("The organizers have not given your team a master table yet."))


def release_window(*, sequential: SequentialRound, team: Team, step: int) -> UploadWindow:
    """The window a release upload counts against: the team's uploads of release ``step``
    and the round's per-release limits (rejected releases are free)."""
    return UploadWindow(
        round=sequential.round,
        uploads=Release.objects.filter(sequential=sequential, team=team, step=step),
        daily_limit=sequential.daily_limit,
        total_limit=sequential.total_limit,
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
        status__in=(Release.Status.QUEUED, Release.Status.RUNNING),
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


def _prefix_bytes(*, sequential: SequentialRound, team: Team, step: int) -> list[bytes]:
    return [_read(release.file) for release in _prefix(sequential=sequential, team=team, step=step)]


def release_upload(
    *, sequential: SequentialRound, team: Team, user, step: int, uploaded_file, now=None
) -> Release:
    """Keep ``release_<step>.csv`` as uploaded (QUEUED, through the core's upload pipeline)
    and send its check to a worker (``release_check``): it is validated with the team's
    earlier releases, and a rejected release ends FAILED with the spec's message."""
    now = now or timezone.now()

    def step_open() -> None:
        # Under the team's row lock: a freeze (which locks the round's row) is seen before
        # or after, never half.
        sequential.refresh_from_db(fields=["frozen_steps"])
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
        original_name=original_name(uploaded_file, default=f"release_{step}.csv"),
        uploaded_by=uploader(user),
    )
    broker.job_send(CHECK_RELEASE_TASK, release.pk)
    return release


CHECK_RELEASE_TASK = "pwscup.sequential.tasks.check_release"


def release_check(*, release_id: int, task_id: str = "", worker: str = "") -> None:
    """The check's job (QUEUED → RUNNING → FINISHED/FAILED, the submissions' state machine:
    a task delivered twice does no harm, a run taken over after a worker died writes
    nothing): validate the release after the team's releases 1 … j−1 and score 1 … j."""
    token = job_claim(model=Release, pk=release_id, task_id=task_id, worker=worker)
    if token is None:
        return
    release = Release.objects.select_related("sequential__round", "team").get(pk=release_id)
    sequential, team = release.sequential, release.team
    started = time.perf_counter()
    try:
        prefix = _prefix_bytes(sequential=sequential, team=team, step=release.step)
    except Refused as refusal:
        job_complete(
            model=Release,
            pk=release_id,
            token=token,
            status=Release.Status.FAILED,
            message=JobMessage(text=refusal.message),
        )
        return
    master = selectors.team_master(sequential=sequential, team=team)

    def compute() -> dict:
        outcome = engine.sequence_check(
            master_frame(master=master),
            [*prefix, _read(release.file)],
            sequential.config,
            current=release.step,
        )
        return {"results": outcome.results, "per_person": outcome.per_person_csv}

    status, message, values = job_run(compute, what=f"sequential release {release_id}")
    job_complete(
        model=Release,
        pk=release_id,
        token=token,
        status=status,
        message=message,
        elapsed_ms=round((time.perf_counter() - started) * 1000),
        **values,
    )


@transaction.atomic
def step_freeze(
    *, sequential: SequentialRound, user=None, now=None, step: int | None = None
) -> int | None:
    """Freeze the next step: each team's latest valid release of it that still fits its
    frozen releases becomes final, and each sequence is scored over the frozen prefix. After
    the last step, with the attack phase, the targets are published. Returns the step frozen.

    "Still fits": in batch mode a team may replace release j−1 after uploading release j,
    so release j is checked again with the frozen prefix (its ``last`` column, for one);
    the newest that passes is frozen. In online mode the prefix never changes under it.

    With ``step``, freeze that step only if it is the next one, else return None (so the
    automatic freeze of a step happens once, however many ticks ask for it at once).
    """
    sequential = SequentialRound.objects.select_for_update().get(pk=sequential.pk)
    if step is not None and step != sequential.frozen_steps + 1:
        return None  # ``step`` was frozen meanwhile (the automatic freeze, twice at once)
    step = sequential.frozen_steps + 1
    if step > sequential.n_releases:
        raise Refused(_("Every release of this round is frozen already."))
    teams = Team.objects.filter(competition=sequential.round.competition).order_by("pk")
    scores = {}
    for team in teams:
        chosen, outcome = _release_to_freeze(sequential=sequential, team=team, step=step)
        if chosen is not None:
            Release.objects.filter(pk=chosen.pk).update(is_frozen=True)
        scores[team.pk] = outcome
    sequential.frozen_steps = step
    sequential.save(update_fields=["frozen_steps"])
    for team in teams:
        if selectors.team_master(sequential=sequential, team=team) is None:
            continue
        outcome = scores[team.pk]
        SequenceScore.objects.update_or_create(
            sequential=sequential,
            team=team,
            step=step,
            defaults={
                "complete": outcome is not None,
                "results": outcome.results if outcome else {},
                "per_person": outcome.per_person_csv if outcome else "",
            },
        )
    if sequential.all_frozen and sequential.config.get("attack_phase"):
        targets_publish(sequential=sequential)
    _notify_frozen(sequential=sequential, step=step)
    return step


def schedule_set(
    *,
    sequential: SequentialRound,
    closes: list[dt.datetime] | None = None,
    first_close: dt.datetime | None = None,
    step_length: dt.timedelta | None = None,
) -> list[dt.datetime]:
    """Set when each release closes: explicit times (one per release, increasing), or the
    first release's close and a step length; neither: no deadlines. Returns the closes."""
    closes = schedule_normalise(
        sequential=sequential, closes=closes, first_close=first_close, step_length=step_length
    )
    sequential.step_closes = [at.isoformat() for at in closes]
    sequential.save(update_fields=["step_closes"])
    return closes


def schedule_normalise(
    *, sequential: SequentialRound, closes=None, first_close=None, step_length=None
) -> list[dt.datetime]:
    """The closes ``schedule_set`` would keep (aware, one per release, increasing), or a
    ``ValidationError`` naming the field."""
    n = sequential.n_releases
    if closes is None and first_close is not None:
        if step_length is None or step_length <= dt.timedelta(0):
            raise ValidationError({"step_length": _("Give a positive step length.")})
        closes = [first_close + step_length * j for j in range(n)]
    closes = list(closes or [])
    if closes and len(closes) != n:
        raise ValidationError(
            {
                "step_closes": _("Give one close time per release: %(n)s, not %(k)s.")
                % {"n": n, "k": len(closes)}
            }
        )
    zone = zoneinfo.ZoneInfo(sequential.round.timezone)  # a time without zone: the round's
    closes = [at.replace(tzinfo=zone) if timezone.is_naive(at) else at for at in closes]
    for j in range(1, len(closes)):
        if closes[j] <= closes[j - 1]:
            raise ValidationError(
                {
                    "step_closes": _("Release %(j)s must close after release %(i)s.")
                    % {"j": j + 1, "i": j}
                }
            )
    return closes


def steps_auto_freeze(*, now=None) -> list[tuple[int, int]]:
    """Freeze every release step whose close has passed, in rounds that ask for it (the
    periodic task's work; ``(round id, step)`` of each freeze). Releases uploaded before the
    close and still being checked are waited for (up to ``AUTO_FREEZE_WAITS_AT_MOST``), so
    the freeze sees them. Idempotent and safe when run twice at once (``step_freeze``)."""
    now = now or timezone.now()
    frozen = []
    due = SequentialRound.objects.filter(auto_freeze=True).exclude(step_closes=[])
    for sequential in due.select_related("round__competition").order_by("pk"):
        while not sequential.all_frozen:
            step = sequential.frozen_steps + 1
            closes_at = sequential.close_of(step)
            if closes_at is None or closes_at > now:
                break
            in_flight = Release.objects.filter(
                sequential=sequential,
                step=step,
                created_at__lt=closes_at,
                status__in=(Release.Status.QUEUED, Release.Status.RUNNING),
            ).exists()
            if in_flight and now - closes_at < AUTO_FREEZE_WAITS_AT_MOST:
                break
            if step_freeze(sequential=sequential, now=now, step=step) is None:
                break
            sequential.refresh_from_db()
            audit(user=None, sequential=sequential, action="freeze", automatic=True)
            frozen.append((sequential.round_id, step))
    return frozen


def _release_to_freeze(*, sequential: SequentialRound, team: Team, step: int):
    """(release, its scores over the frozen prefix) or (None, None): the team's newest valid
    release of ``step`` that validates after its frozen releases 1 … step−1."""
    master = selectors.team_master(sequential=sequential, team=team)
    if master is None:
        return None, None
    prefix = selectors.team_sequence(sequential=sequential, team=team, upto=step - 1, frozen=True)
    if any(release is None for release in prefix):
        return None, None  # incomplete already
    frame = master_frame(master=master)
    frozen_bytes = [_read(release.file) for release in prefix]
    candidates = Release.objects.filter(
        sequential=sequential, team=team, step=step, status=Release.Status.FINISHED
    ).order_by("-created_at", "-id")
    for release in candidates:
        try:
            outcome = engine.sequence_check(
                frame, [*frozen_bytes, _read(release.file)], sequential.config, current=step
            )
        except scoring.ScoringError:
            continue  # checked against releases that were since replaced
        return release, outcome
    return None, None


def _participants(sequential: SequentialRound):
    return get_user_model().objects.filter(
        memberships__competition_id=sequential.round.competition_id
    )


def _notify_frozen(*, sequential: SequentialRound, step: int) -> None:
    """Every participant is told once that ``step`` is frozen: in online mode, before the
    last step, that the next release is open; else that their sequence is scored. After the
    last freeze of a round with an attack phase, they are also told the targets are out."""
    from django.urls import reverse

    round_ = sequential.round
    page = reverse("round_detail", args=[round_.competition.slug, round_.slug])
    next_open = selectors.is_online(sequential) and step < sequential.n_releases
    _notify_participants(
        sequential,
        kind=Notification.Kind.RELEASE_FROZEN if next_open else Notification.Kind.SEQUENCE_SCORED,
        event_suffix=f":step{step}",
        url=page,
        params={"step": step, "next": step + 1} if next_open else {"step": step},
    )
    if not (sequential.all_frozen and sequential.config.get("attack_phase")):
        return
    _notify_participants(
        sequential,
        kind=Notification.Kind.ROUND_FROZEN,
        event_suffix=f":seq{step}",
        url=page + "#attack",
    )


def _notify_participants(
    sequential: SequentialRound, *, kind, url: str, event_suffix="", params=None
):
    """Tell every participant once (the event key is the kind, the round and the suffix)."""
    round_ = sequential.round
    notify(
        users=_participants(sequential),
        kind=kind,
        event=f"{kind}:{round_.pk}{event_suffix}",
        params={"round": round_.name, **(params or {})},
        url=url,
    )


# --- attack phase --------------------------------------------------------------------------


def targets_publish(*, sequential: SequentialRound) -> list[SeqTarget]:
    """Publish every complete sequence (spec §10): releases without pids, renumbered; the
    background table; the counterfeit counts. The built-in MAP attackers' accuracies are the
    sequence's ``MAP_N`` and ``MAP_A``."""
    targets = []
    n = sequential.n_releases
    for score in SequenceScore.objects.filter(sequential=sequential, step=n, complete=True):
        team = score.team
        master = selectors.team_master(sequential=sequential, team=team)
        releases = selectors.team_sequence(sequential=sequential, team=team, upto=n, frozen=True)
        files = engine.target_files(
            master_frame(master=master),
            [_read(release.file) for release in releases],
            sequential.config,
            prefix=f"{team.slug}_",
            seed=sequential.secret_seed ^ team.pk,
        )
        target, _created = SeqTarget.objects.update_or_create(
            sequential=sequential,
            team=team,
            defaults={
                "files": files,
                "map_n": score.results.get("MAP_N"),
                "map_a": score.results.get("MAP_A"),
            },
        )
        targets.append(target)
    return targets


def attack_upload(*, target: SeqTarget, team: Team, user, uploaded_file, now=None) -> SeqAttack:
    """Keep a ``pid,guess`` file on another team's sequence as uploaded (QUEUED, through
    the core's upload pipeline) and send its scoring to a worker (``attack_score``)."""
    sequential = target.sequential
    now = now or timezone.now()

    def attack_open() -> None:
        sequential.refresh_from_db(fields=["frozen_steps", "results_published"])
        if not sequential.config.get("attack_phase") or not sequential.all_frozen:
            raise Refused(_("The attack phase is not open."), status=403)
        if sequential.results_published:
            raise Refused(_("The results are published: the attack phase is over."), status=403)
        if target.team_id == team.pk:
            raise Refused(_("A team does not attack its own releases."), status=403)

    attack = upload_keep(
        model=SeqAttack,
        window=UploadWindow(
            round=sequential.round,
            uploads=SeqAttack.objects.filter(target__sequential=sequential, team=team),
        ),
        team=team,
        uploaded_file=uploaded_file,
        stored_name="attack.csv",
        now=now,
        check=attack_open,
        target=target,
        original_name=original_name(uploaded_file, default="attack.csv"),
        uploaded_by=uploader(user),
    )
    broker.job_send(SCORE_ATTACK_TASK, attack.pk)
    return attack


SCORE_ATTACK_TASK = "pwscup.sequential.tasks.score_attack"


def attack_score(*, attack_id: int, task_id: str = "", worker: str = "") -> None:
    """The attack's job (QUEUED → RUNNING → FINISHED/FAILED, the core's state machine): the
    accuracy of the guesses on the target's persons."""
    token = job_claim(model=SeqAttack, pk=attack_id, task_id=task_id, worker=worker)
    if token is None:
        return
    attack = SeqAttack.objects.select_related("target__sequential__round", "target__team").get(
        pk=attack_id
    )
    sequential = attack.target.sequential
    master = selectors.team_master(sequential=sequential, team=attack.target.team)

    def compute() -> dict:
        accuracy = engine.attack_accuracy(
            master_frame(master=master), _read(attack.file), sequential.config
        )
        return {"accuracy": accuracy}

    status, message, values = job_run(compute, what=f"sequential attack {attack_id}")
    job_complete(
        model=SeqAttack, pk=attack_id, token=token, status=status, message=message, **values
    )


def results_publish(*, sequential: SequentialRound, published: bool = True) -> None:
    """Show the leaderboard (and attack matrix) to everyone; participants are told once."""
    from django.urls import reverse

    sequential.results_published = published
    sequential.save(update_fields=["results_published"])
    if published:
        round_ = sequential.round
        _notify_participants(
            sequential,
            kind=Notification.Kind.RESULTS_PUBLISHED,
            url=reverse("sequential:leaderboard", args=[round_.competition.slug, round_.slug]),
        )


def release_bytes_for_download(*, release: Release) -> bytes:
    return _read(release.file)


def step_table_bytes(*, sequential: SequentialRound, team: Team, step: int) -> bytes:
    """``T(step).csv`` of a team's master (``pid,QI…,sa,lsf``; the future is hidden)."""
    master = selectors.team_master(sequential=sequential, team=team)
    if master is None:
        raise Refused(_("The organizers have not given your team a master table yet."))
    return engine.table_bytes(engine.step_table(master_frame(master=master), step))


def master_bytes(*, master: Master) -> bytes:
    return _read(master.file)


AUDIT_ACTIONS = {
    "freeze": "round_frozen",
    "draw": "samples_drawn",
    "publish": "results_published",
    "hide": "results_hidden",
    "master": "round_edited",
    "create": "round_created",
}


def audit(*, user, sequential: SequentialRound, action: str, **detail) -> None:
    """Keep an organizer action in the console's audit log."""
    if action not in AUDIT_ACTIONS:
        return
    round_ = sequential.round
    audit_record(
        user=user,
        competition=round_.competition,
        round=round_,
        action=AUDIT_ACTIONS[action],
        frozen_steps=sequential.frozen_steps,
        **detail,
    )


def team_master_bytes(*, sequential: SequentialRound, team: Team) -> bytes:
    """What a team may download of its master: all of it in batch mode; in online mode the
    persons seen so far, lifespans cut at the visible step (the future stays hidden)."""
    master = selectors.team_master(sequential=sequential, team=team)
    if master is None:
        raise Refused(_("The organizers have not given your team a master table yet."))
    frame = master_frame(master=master)
    if not selectors.is_online(sequential):
        return engine.master_table_bytes(frame)
    upto = selectors.visible_steps(sequential=sequential)
    return engine.table_bytes(engine.master_so_far(frame, upto))
