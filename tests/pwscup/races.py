"""Teams registering at the same moment: real PostgreSQL transactions in threads, each with
its own connection (the sample and master draw races)."""

import threading
import time

from django.db import connections

from pwscup.accounts.services import team_create


def slow_down(monkeypatch, module, name: str, seconds: float = 0.2) -> None:
    """Make ``module.name`` sleep first: it widens the window between "this team has nothing
    drawn yet" and the insert, so registrations without the round's lock collide."""
    original = getattr(module, name)

    def slowed(*args, **kwargs):
        time.sleep(seconds)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, slowed)


def register_at_once(competition, captains) -> tuple[list[int], list[str]]:
    """Each captain creates a team in its own thread, all released at once; the teams made
    and every failure (repr), which the callers expect to be none."""
    start = threading.Barrier(len(captains))
    created, errors = [], []

    def register(index: int) -> None:
        try:
            start.wait()
            team = team_create(
                competition=competition, name=f"Racer {index}", captain=captains[index]
            )
            created.append(team.pk)
        except Exception as error:  # noqa: BLE001 - every failure is the finding
            errors.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=register, args=(i,)) for i in range(len(captains))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return created, errors
