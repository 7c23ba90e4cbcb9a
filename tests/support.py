"""Helpers shared by the test packages (import as ``tests.support``)."""

import io
import json
import time
from pathlib import Path

import pandas as pd
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ROWS = 200


def wait_for(predicate, *, timeout: float = 60.0, interval: float = 0.2, what: str = "condition"):
    """Poll ``predicate`` until it returns a truthy value; fail the test after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}")


def adult_head(rows: int = ROWS) -> bytes:
    with open(FIXTURES / "adult.csv", "rb") as handle:
        lines = [next(handle) for _ in range(rows + 1)]
    return b"".join(lines)


def adult_config() -> dict:
    return json.loads((FIXTURES / "adult_round.json").read_text())


def table_bytes(table: pd.DataFrame) -> bytes:
    buffer = io.StringIO()
    table.to_csv(buffer, index=False, lineterminator="\n")
    return buffer.getvalue().encode()


def csv_upload(content: bytes, name: str = "anonymized.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/csv")


def noisy_copy(original: bytes, *, seed: int = 0, delete: int = 0) -> bytes:
    """A valid anonymization: noise on two numeric columns, ``delete`` rows blanked."""
    table = pd.read_csv(io.BytesIO(original), dtype=str, keep_default_na=False)
    order = pd.Series(range(len(table))).sample(frac=1.0, random_state=seed).to_numpy()
    hours = table["hours-per-week"].astype(int) + (order % 3) - 1
    table["hours-per-week"] = hours.clip(lower=1).astype(str)
    table["fnlwgt"] = (table["fnlwgt"].astype(int) + (order % 7) * 100).astype(str)
    if delete:
        table.iloc[order[:delete], :] = ""
    return table_bytes(table)
