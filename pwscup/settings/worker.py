"""Celery: the broker (Redis, or an embedded filesystem broker), the workers' scoring limits
and the periodic tasks (the reaper, the closes of rounds and steps)."""

from .caches import REDIS_URL
from .environment import VAR_DIR, env
from .i18n import TIME_ZONE

# --- Celery -----------------------------------------------------------------------
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
if CELERY_BROKER_URL:
    # An unreachable Redis fails an upload's send within seconds (the upload is kept).
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600, "socket_connect_timeout": 5}
else:
    BROKER_DIR = VAR_DIR / "broker"
    # The embedded broker keeps its messages in these folders; every process may be first.
    for _folder in ("queue", "control"):
        (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", default="pwscup")
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Scoring limits (seconds); the reaper treats a job older than the hard limit as lost.
PWSCUP_SCORING_SOFT_TIME_LIMIT = env.int("PWSCUP_SCORING_SOFT_TIME_LIMIT", default=600)
PWSCUP_SCORING_HARD_TIME_LIMIT = env.int("PWSCUP_SCORING_HARD_TIME_LIMIT", default=660)
PWSCUP_SCORING_MAX_ATTEMPTS = env.int("PWSCUP_SCORING_MAX_ATTEMPTS", default=3)
# The memory a worker process may take for jobs (MiB of address space above what it held once
# warmed; 0: no bound): an allocation beyond it fails the job with a message, it never takes
# down the host (pwscup/submissions/limits.py). A process whose resident memory passed half
# of it after a job is replaced by a fresh one, so what its caches hold never eats the bound.
PWSCUP_SCORING_MEMORY_MB = env.int("PWSCUP_SCORING_MEMORY_MB", default=3072)
CELERY_WORKER_MAX_MEMORY_PER_CHILD = PWSCUP_SCORING_MEMORY_MB * 1024 // 2 or None  # KiB
# The reaper resends jobs lost by a broker restart or a dead worker: every 30 s by
# default, so they are sent again well within 2 minutes. A tick that waited longer than
# one interval for a free worker is dropped (the next one does the same work).
PWSCUP_REAPER_INTERVAL = env.int("PWSCUP_REAPER_INTERVAL", default=30)
# A QUEUED job whose message was sent this many seconds ago is sent again: an upload made
# while the broker was down is scored within this + one reaper interval of its return.
PWSCUP_QUEUED_RESEND_SECONDS = env.int("PWSCUP_QUEUED_RESEND_SECONDS", default=60)
# A RUNNING job claimed less than this many seconds ago is left alone by the reaper (its worker
# may be starting it); a job whose worker died is requeued once its claim is older.
PWSCUP_REAPER_CLAIM_GRACE_SECONDS = env.int("PWSCUP_REAPER_CLAIM_GRACE_SECONDS", default=10)
CELERY_BEAT_SCHEDULE = {
    "reap-stuck-jobs": {
        "task": "pwscup.submissions.tasks.reap_stuck_jobs",
        "schedule": PWSCUP_REAPER_INTERVAL,
        "options": {"expires": PWSCUP_REAPER_INTERVAL},
    },
    "auto-freeze-rounds": {
        "task": "pwscup.pwscup2015.tasks.auto_freeze_rounds",
        "schedule": PWSCUP_REAPER_INTERVAL,
    },
    # Two-sided rounds (synthetic data, the organizer's program): the releases frozen at the
    # release phase's close, where the organizer asked for it (pwscup/submissions/tasks.py).
    "auto-freeze-at-release-close": {
        "task": "pwscup.submissions.tasks.auto_freeze_rounds",
        "schedule": PWSCUP_REAPER_INTERVAL,
        "options": {"expires": PWSCUP_REAPER_INTERVAL},
    },
    # Sequential rounds: each release step frozen at its close (pwscup/sequential/tasks.py).
    "auto-freeze-sequential-steps": {
        "task": "pwscup.sequential.tasks.auto_freeze_steps",
        "schedule": PWSCUP_REAPER_INTERVAL,
        "options": {"expires": PWSCUP_REAPER_INTERVAL},
    },
    # DP rounds: scores and baselines once the release phase has closed (pwscup/dp/tasks.py).
    "score-closed-dp-rounds": {
        "task": "pwscup.dp.tasks.score_closed_dp_rounds",
        "schedule": PWSCUP_REAPER_INTERVAL,
        "options": {"expires": PWSCUP_REAPER_INTERVAL},
    },
}
