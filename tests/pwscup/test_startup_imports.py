"""What a process of the platform loads as it starts (the web server's, the worker's, each
``manage.py``'s): Django set up and the URLs resolved, on a local folder for the files."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
import django
django.setup()
from django.urls import resolve
resolve("/")
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_a_process_on_a_local_folder_never_loads_boto3(tmp_path):
    # boto3 costs 120 ms of a start; only a storage error needs its exception class
    # (pwscup.core.storage.bucket_errors), and a bucket's storage loads it itself.
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="pwscup.settings.test",
        PWSCUP_MEDIA_ROOT=str(tmp_path / "media"),
        PWSCUP_PREPARED_CACHE_DIR=str(tmp_path / "prepared"),
        PWSCUP_SLIDES_WORK_DIR=str(tmp_path / "slides"),
    )
    env.pop("AWS_STORAGE_BUCKET_NAME", None)
    loaded = json.loads(
        subprocess.run(
            [sys.executable, "-c", PROBE],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
    )
    assert "django" in loaded and "pwscup" in loaded
    assert "boto3" not in loaded
