"""The scorer's exception types: a :class:`scoring.errors.ScoringError` with a ``scorer.*`` code.

A :class:`ScorerError` is raised for what is checked before a run (the program's ZIP, its
metadata, its requirements); what happens during a run is a
:class:`scoring.scorer.run.ScorerResult`, never an exception.
"""

from __future__ import annotations

from scoring.errors import ScoringError, Several


class ScorerError(ScoringError):
    """An invalid scoring program, submission ZIP or requirements file."""


class EnvironmentBuildError(ScorerError):
    """The program's environment could not be built; ``log`` is the build's whole log."""

    def __init__(self, code: str, /, *, log: str = "", **params) -> None:
        super().__init__(code, **params)
        self.log = log


class ScorerErrors(Several, ScorerError):
    """Several errors of a round's settings found in one pass (``Several``)."""
