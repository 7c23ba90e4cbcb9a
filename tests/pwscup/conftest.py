"""Fixtures for the platform tests: a small round on the first rows of the Adult fixture."""

import pytest

from tests.support import (  # noqa: F401 - re-exported for the tests
    adult_config,
    adult_head,
    build_world,
    csv_upload,
    noisy_copy,
    table_bytes,
    wait_for,
)


@pytest.fixture
def make_world(db):
    return build_world


@pytest.fixture
def world(make_world):
    return make_world()
