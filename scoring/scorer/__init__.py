"""An organizer's Codabench-style scoring program, run in a bubblewrap sandbox (docs/scorer.md).

The pieces, in the order a worker uses them:

* :func:`program_unpack` / :func:`program_read` — the program's ZIP and its ``metadata``;
* :func:`environment_ensure` — its Python environment, built once per host and cached;
* :func:`scorer_run` — one run on one submission, ending as a :class:`ScorerResult`.
"""

from scoring.scorer.environment import ScorerEnvironment, environment_ensure
from scoring.scorer.errors import EnvironmentBuildError, ScorerError
from scoring.scorer.launchers import BwrapLauncher, CommandLauncher, Launcher
from scoring.scorer.limits import SandboxLimits
from scoring.scorer.output import ScorerOutput, output_read
from scoring.scorer.program import ScorerProgram, program_read, program_unpack
from scoring.scorer.run import ScorerResult, scorer_run, substitute
from scoring.scorer.unzip import UnzipLimits

__all__ = [
    "BwrapLauncher",
    "CommandLauncher",
    "EnvironmentBuildError",
    "Launcher",
    "SandboxLimits",
    "ScorerEnvironment",
    "ScorerError",
    "ScorerOutput",
    "ScorerProgram",
    "ScorerResult",
    "UnzipLimits",
    "environment_ensure",
    "output_read",
    "program_read",
    "program_unpack",
    "scorer_run",
    "substitute",
]
