"""The one reader of the environment (django-environ): ``.env`` is read once, never over a
variable already set, and every settings module takes ``env`` and the folders from here."""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parents[2]

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

VAR_DIR = Path(env("PWSCUP_VAR_DIR", default=str(BASE_DIR / "var")))
