"""The limits of one sandboxed run (:class:`SandboxLimits`) and their ceilings.

A round sets its own limits within :data:`CEILINGS`; a launcher
(:mod:`scoring.scorer.launchers`) sets them inside the sandbox, and
:func:`scoring.scorer.sandbox.sandbox_run` keeps the wall clock and the output bounds outside.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SandboxLimits:
    """The limits of one run; a round sets its own within :data:`CEILINGS`."""

    timeout_seconds: float = 300.0
    memory_bytes: int = 2 * 1024**3
    processes: int = 256  # threads count too
    output_bytes: int = 256 * 1024**2  # the output folder, and any one file anywhere
    output_files: int = 10_000
    tmp_bytes: int = 256 * 1024**2
    printed_bytes: int = 16 * 1024**2  # past this the program is stopped
    open_files: int = 1_024

    def __post_init__(self) -> None:
        for name, ceiling in CEILINGS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not 0 < value <= ceiling:
                raise ValueError(f"SandboxLimits.{name} must be in (0, {ceiling}], got {value!r}")


CEILINGS = {
    "timeout_seconds": 24 * 3600,
    "memory_bytes": 256 * 1024**3,
    "processes": 4_096,
    "output_bytes": 16 * 1024**3,
    "output_files": 1_000_000,
    "tmp_bytes": 16 * 1024**3,
    "printed_bytes": 1024**3,
    "open_files": 65_536,
}
