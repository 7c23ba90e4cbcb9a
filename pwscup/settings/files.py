"""Files: static files, where kept files live (a local folder or an S3-compatible bucket) and
how a stalled bucket is bounded, and the bounds of what is uploaded and kept."""

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from .environment import BASE_DIR, VAR_DIR, env

STATIC_URL = "static/"
STATIC_ROOT = Path(env("DJANGO_STATIC_ROOT", default=str(VAR_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# A bucket that stalls must not take the site down. Each call to it waits at most this long to
# connect and for each read (seconds), and is retried this many times after the first try: a
# bucket that never answers fails a call after about (retries + 1) x read timeout.
PWSCUP_STORAGE_CONNECT_TIMEOUT = env.float("PWSCUP_STORAGE_CONNECT_TIMEOUT", default=2.0)
PWSCUP_STORAGE_READ_TIMEOUT = env.float("PWSCUP_STORAGE_READ_TIMEOUT", default=10.0)
PWSCUP_STORAGE_RETRIES = env.int("PWSCUP_STORAGE_RETRIES", default=2)
# At most this many requests of one web process write an upload to the storage at once; one
# more waits up to PWSCUP_STORAGE_SLOT_WAIT seconds for a slot while its holders are younger
# than that (a healthy storage frees one in milliseconds), and is refused (503, Retry-After)
# then, or at once when every holder has been writing longer (a stalled storage).
# Keep it below GUNICORN_THREADS, so pages that do not touch the storage always find a thread.
PWSCUP_STORAGE_WRITE_SLOTS = env.int("PWSCUP_STORAGE_WRITE_SLOTS", default=2)
PWSCUP_STORAGE_SLOT_WAIT = env.float("PWSCUP_STORAGE_SLOT_WAIT", default=1.0)
# A write the bucket did not answer in time may still land once it answers again: a worker
# deletes its name then, and once more this many seconds later (pwscup.core.storage).
PWSCUP_STORAGE_DISCARD_AGAIN_AFTER = env.float("PWSCUP_STORAGE_DISCARD_AGAIN_AFTER", default=60.0)
# /healthz reports the local storage degraded (503) with less free space than this (bytes).
PWSCUP_MIN_FREE_BYTES = env.int("PWSCUP_MIN_FREE_BYTES", default=512 * 1024**2)


def s3_storage(
    *,
    bucket: str,
    endpoint_url: str | None = None,
    region_name: str | None = None,
    access_key: str | None = None,
    secret_key: str | None = None,
    location: str = "",
    connect_timeout: float | None = None,
    read_timeout: float | None = None,
    retries: int | None = None,
) -> dict:
    """Every kept file (uploads, originals, samples, targets, kits) as a private object in
    ``bucket`` of an S3-compatible server (AWS, MinIO), read and written by django-storages.
    Objects get no ACL of their own (the bucket's private default) and are never
    overwritten: a name is taken once. Every download streams through a view that checks
    who is asking; no object URL is handed out (one would be signed, valid for a minute).
    Every call waits at most ``connect_timeout`` to connect and ``read_timeout`` for each
    read, and is retried ``retries`` times (defaults: the ``PWSCUP_STORAGE_*`` settings).
    """
    from botocore.config import Config

    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint_url,
            "region_name": region_name,
            "access_key": access_key,
            "secret_key": secret_key,
            "location": location,
            "default_acl": None,
            "file_overwrite": False,
            "querystring_auth": True,
            "querystring_expire": 60,
            # A read holds at most this much in memory; a larger object spills to a
            # temporary file (django-storages' default, 0, keeps every object in memory).
            "max_memory_size": 5 * 1024 * 1024,
            # A server that is unreachable or stalls (accepts, never answers) fails a call in
            # seconds (an upload is refused 503, a job retried, /healthz reports it), not after
            # botocore's default minute per read and attempt. ``max_attempts`` counts the
            # retries after the first attempt.
            "client_config": Config(
                connect_timeout=(
                    PWSCUP_STORAGE_CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
                ),
                read_timeout=PWSCUP_STORAGE_READ_TIMEOUT if read_timeout is None else read_timeout,
                retries={
                    "max_attempts": PWSCUP_STORAGE_RETRIES if retries is None else retries,
                    "mode": "standard",
                },
            ),
        },
    }


# With AWS_STORAGE_BUCKET_NAME set, every host (web, workers) reads and writes the bucket, so
# workers on other machines need no shared folder; unset, files stay under MEDIA_ROOT and the
# embedded demo needs no server. The standard variables of django-storages and boto3.
if env("AWS_STORAGE_BUCKET_NAME", default=""):
    STORAGES["default"] = s3_storage(
        bucket=env("AWS_STORAGE_BUCKET_NAME"),
        endpoint_url=env("AWS_S3_ENDPOINT_URL", default=None),
        region_name=env("AWS_S3_REGION_NAME", default=None),
        access_key=env("AWS_ACCESS_KEY_ID", default=None),
        secret_key=env("AWS_SECRET_ACCESS_KEY", default=None),
        location=env("AWS_LOCATION", default=""),
    )

# Uploaded and generated files are private: there is deliberately no MEDIA_URL route;
# every file is served by a view that checks who is asking.
MEDIA_ROOT = Path(env("PWSCUP_MEDIA_ROOT", default=str(VAR_DIR / "media")))
# Originals, samples, truths and uploads are readable by the platform's account (and its
# group, e.g. a backup job) only, never by every local user as Django's default 0644 would.
FILE_UPLOAD_PERMISSIONS = 0o640
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o750
# The participants' toolkit wheel (pwscup/core/toolkit.py) is built here on first use;
# a deployment builds it ahead (scripts/build_toolkit, the Docker image).
PWSCUP_TOOLKIT_DIR = Path(env("PWSCUP_TOOLKIT_DIR", default=str(VAR_DIR / "toolkit")))
# The worker host's own cache of prepared originals (pwscup/pwscup2015/prepared.py): on each
# host's local disk, never shared; bounded, least recently used first.
PWSCUP_PREPARED_CACHE_DIR = Path(
    env("PWSCUP_PREPARED_CACHE_DIR", default=str(VAR_DIR / "prepared"))
)
PWSCUP_PREPARED_CACHE_BYTES = env.int("PWSCUP_PREPARED_CACHE_BYTES", default=4 * 1024**3)
# An organizer's scoring program (pwscup/scorer/, docs/scorer.md), on each worker host's local
# disk: programs and data packs unpacked once (by digest), the programs' environments (by the
# hash of their requirements) and each run's work folder; the sandbox's user (nobody) reads it.
PWSCUP_SCORER_DIR = Path(env("PWSCUP_SCORER_DIR", default=str(VAR_DIR / "scorer")))
# pip's options when a program's environment is built: the platform's, never the organizer's
# ("--index-url https://mirror/simple", "--no-index --find-links /wheels").
PWSCUP_SCORER_PIP_OPTIONS = env("PWSCUP_SCORER_PIP_OPTIONS", default="")
# How a run's sandbox starts (docs/operations.md, "The scoring program's sandbox"): "bwrap"
# (bubblewrap, the default) or "command", a container runtime's command line as a template
# (scoring.scorer.launchers.CommandLauncher: {mounts}, {env}, {prlimit}, {command}, {workdir},
# {memory_mb}, …), with the words of one mount (read-only, writable) and of one variable.
PWSCUP_SCORER_SANDBOX = env("PWSCUP_SCORER_SANDBOX", default="bwrap")
PWSCUP_SCORER_SANDBOX_COMMAND = env("PWSCUP_SCORER_SANDBOX_COMMAND", default="")
PWSCUP_SCORER_SANDBOX_MOUNT_RO = env(
    "PWSCUP_SCORER_SANDBOX_MOUNT_RO", default="-v {source}:{target}:ro"
)
PWSCUP_SCORER_SANDBOX_MOUNT_RW = env(
    "PWSCUP_SCORER_SANDBOX_MOUNT_RW", default="-v {source}:{target}"
)
PWSCUP_SCORER_SANDBOX_ENV = env("PWSCUP_SCORER_SANDBOX_ENV", default="--env {name}={value}")
if PWSCUP_SCORER_SANDBOX not in ("bwrap", "command"):
    raise ImproperlyConfigured(
        f"PWSCUP_SCORER_SANDBOX is {PWSCUP_SCORER_SANDBOX!r}: expected bwrap or command."
    )
if PWSCUP_SCORER_SANDBOX == "command" and not PWSCUP_SCORER_SANDBOX_COMMAND.strip():
    raise ImproperlyConfigured(
        "PWSCUP_SCORER_SANDBOX is command: set PWSCUP_SCORER_SANDBOX_COMMAND, the runtime's "
        "command-line template (docs/operations.md)."
    )
PWSCUP_MAX_UPLOAD_BYTES = env.int("PWSCUP_MAX_UPLOAD_BYTES", default=50 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# Form fields per request (Django's default: 1,000). The round wizard's roles form sends up to
# three check boxes per column of the table (a QI: qi, match_qi, cross; an SA: sa, euc_sa,
# number_domain): Django's default refused a table of 330 columns with a bare 400. The fields
# stay bounded by DATA_UPLOAD_MAX_MEMORY_SIZE; beyond this count the 400 page says so.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 10_000
# Failed uploads cost no quota but are kept: bounded per team per (round-local) day, and the
# bytes a team may have stored over all its uploads.
PWSCUP_MAX_FAILED_UPLOADS_PER_DAY = env.int("PWSCUP_MAX_FAILED_UPLOADS_PER_DAY", default=50)
PWSCUP_MAX_STORED_BYTES_PER_TEAM = env.int(
    "PWSCUP_MAX_STORED_BYTES_PER_TEAM", default=2 * 1024 * 1024 * 1024
)
# A team's slides (pwscup/presentations/): a PDF of at most this size, whatever a window allows.
PWSCUP_SLIDES_MAX_BYTES = env.int("PWSCUP_SLIDES_MAX_BYTES", default=20 * 1024 * 1024)
# The preview's renderer (pwscup/presentations/preview.py): its temporary folders (never the
# system's temp folder) and the address space each poppler tool may use.
PWSCUP_SLIDES_WORK_DIR = Path(env("PWSCUP_SLIDES_WORK_DIR", default=str(VAR_DIR / "slides-work")))
PWSCUP_SLIDES_RENDER_MEMORY_BYTES = env.int("PWSCUP_SLIDES_RENDER_MEMORY_BYTES", default=1024**3)
# A competition bundle (pwscup/bundles/): the ZIP as uploaded (under nginx's 64m request
# cap, scripts/docker/nginx.conf, with room for the form), then what it decompresses to, and
# how many members it may hold; a bundle past any of them is refused unread.
PWSCUP_BUNDLE_MAX_UPLOAD_BYTES = env.int("PWSCUP_BUNDLE_MAX_UPLOAD_BYTES", default=60 * 1024**2)
PWSCUP_BUNDLE_MAX_BYTES = env.int("PWSCUP_BUNDLE_MAX_BYTES", default=1024**3)
PWSCUP_BUNDLE_MAX_FILES = env.int("PWSCUP_BUNDLE_MAX_FILES", default=500)
