"""Schemathesis over the live API (tests/pwscup/test_api_schema.py, test_api_fuzz.py): each
operation of the published OpenAPI schema gets a bounded number of generated requests, derandomized
(the same requests every run), and every answer is checked by schemathesis' checks — never a
5xx, the documented status codes, content types, headers and bodies, and no 400 for a request
the schema calls valid (``positive_data_acceptance``: the schema and the server agree).

Schemathesis' own pytest plugin does not run under this pytest (its parametrize reads
``Function._nodeid``, gone), so each operation's strategy (``operation.as_strategy()``, its
public API) drives a Hypothesis test here, one operation after the other.
"""

import re

from django.urls import resolve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from scoring.bounded_json import MAX_INTEGER

MAX_EXAMPLES = 12  # per operation: about a minute for the whole schema on one core
# For an operation of another round kind than the world's: its round answers 404 before the
# request is read, so fewer generated requests explore as much (tests/pwscup/test_api_fuzz.py
# runs those kinds' operations on their own worlds with the whole budget).
OTHER_KIND_EXAMPLES = 4


def view_module(path_template: str, known: dict) -> str:
    """The module of the view that answers ``path_template`` (its parameters filled from
    ``known``, the others with a placeholder)."""
    path = re.sub(r"\{(\w+)\}", lambda m: str(known.get(m.group(1), "1")), path_template)
    return resolve(path).func.__module__


def past_the_reader(value) -> bool:
    """Whether a generated body holds an integer the API's JSON reader refuses anywhere in it
    (past :data:`scoring.bounded_json.MAX_INTEGER`, a PostgreSQL bigint; docs/api.md,
    ``parse_error``). The schema cannot state that bound for the extra properties a body may
    carry, so such a request is the one schema-valid request the server may refuse with 400,
    on every operation that reads JSON (issue 46, point 7)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) > MAX_INTEGER
    if isinstance(value, dict):
        return any(past_the_reader(item) for item in value.values())
    if isinstance(value, list):
        return any(past_the_reader(item) for item in value)
    return False


def property_test(
    operation,
    *,
    real: dict,
    base_url: str,
    token: str,
    statuses: list,
    mode=GenerationMode.POSITIVE,
    excluded_checks=(),
    examples: int = MAX_EXAMPLES,
):
    """A Hypothesis test of one operation: generated requests (valid ones, or with ``mode``
    NEGATIVE bodies the schema forbids), on the world's objects or on generated path
    parameters, each answer validated against the schema."""

    @given(case=operation.as_strategy(mode), on_real_objects=st.booleans())
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def check(case, on_real_objects):
        if on_real_objects and case.path_parameters:
            case.path_parameters.update(
                {name: real[name] for name in case.path_parameters if name in real}
            )
        # Every check, ``positive_data_acceptance`` included: a request the schema calls valid
        # is never refused with 400; what the server refuses, the schema states (an empty
        # file, a request_id's characters), and a name the schema cannot list (a team, an
        # attribute, a release) that the round does not have is a 404.
        excluded = list(excluded_checks)
        if past_the_reader(case.body):
            excluded.append(positive_data_acceptance)
        response = case.call_and_validate(
            base_url=base_url,
            headers={"Authorization": f"Bearer {token}"},
            excluded_checks=excluded,
        )
        statuses.append(response.status_code)

    return check


def fuzz(
    operations,
    *,
    real_for,
    base_url: str,
    token: str,
    examples_for=lambda operation: MAX_EXAMPLES,
) -> tuple[dict, dict]:
    """Run :func:`property_test` over ``operations``: ``({label: failure}, {label: [status,
    …]})``. ``real_for(operation)`` gives the world's path parameters of the operation. An
    operation that takes a body also gets invalid bodies (answered 4xx, never 5xx).
    ``examples_for(operation)``: its number of generated requests per mode."""
    failures, statuses = {}, {}
    for operation in operations:
        statuses[operation.label] = []
        modes = [GenerationMode.POSITIVE]
        if operation.method.upper() == "POST" and len(operation.body):
            modes.append(GenerationMode.NEGATIVE)
        for mode in modes:
            check = property_test(
                operation,
                real=real_for(operation),
                base_url=base_url,
                token=token,
                statuses=statuses[operation.label],
                mode=mode,
                examples=examples_for(operation),
            )
            try:
                check()
            except Exception as failure:  # noqa: BLE001 - collected, reported together
                failures[f"{operation.label} ({mode.value})"] = failure
    return failures, statuses
