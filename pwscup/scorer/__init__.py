"""The round kind whose game is the organizer's own scoring program (docs/scorer.md): a
Codabench-style program, run in the sandbox of ``scoring.scorer`` on a worker, scores every
release and every attack; the platform plays the two-sided game around it (freeze, targets,
matrix, protection and attack power, publication)."""

KEY = "scorer"
