"""Where the client keeps the server's address and the personal token: the user's config
directory, in a file only its owner may read (0600)."""

import json
import os
import sys
from pathlib import Path

FILE_NAME = "credentials.json"


def config_dir() -> Path:
    """``$PWSCUP_CONFIG_DIR``, else ``%APPDATA%\\pwscup`` on Windows, else
    ``$XDG_CONFIG_HOME/pwscup`` (``~/.config/pwscup``)."""
    if os.environ.get("PWSCUP_CONFIG_DIR"):
        return Path(os.environ["PWSCUP_CONFIG_DIR"])
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "pwscup"
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "pwscup"


def save_credentials(*, url: str, token: str) -> Path:
    folder = config_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / FILE_NAME
    # Created 0600 from the start (never readable by others, even for a moment).
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump({"url": url, "token": token}, handle)
    os.chmod(path, 0o600)  # an older file keeps its mode on O_TRUNC
    return path


def load_credentials() -> dict | None:
    """``{"url", "token"}`` as ``login`` kept them; ``None`` when there are none, or when the
    file is not what ``login`` writes (edited by hand, cut short): log in again."""
    path = config_dir() / FILE_NAME
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except ValueError:  # not JSON, or not UTF-8
        return None
    if not isinstance(kept, dict) or not all(
        isinstance(kept.get(k), str) for k in ("url", "token")
    ):
        return None
    return kept
