"""Teams registering at the same moment: real PostgreSQL transactions in threads, each with
its own connection (the sample and master draw races)."""

import threading
import time

from django.db import connection, connections

from pwscup.accounts.services import team_create


def slow_down(monkeypatch, module, name: str, seconds: float = 0.2) -> None:
    """Make ``module.name`` sleep first: it widens the window between "this team has nothing
    drawn yet" and the insert, so registrations without the round's lock collide."""
    original = getattr(module, name)

    def slowed(*args, **kwargs):
        time.sleep(seconds)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, slowed)


def waiting_on_a_lock() -> int:
    """How many backends of this database wait on a lock now (a transaction blocked on a row
    or key another one holds): what a test waits for instead of sleeping a while."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def at_once(calls) -> tuple[list, list[str]]:
    """Run each of ``calls`` (functions of no argument) in its own thread and its own
    database connection, all released at once; what they returned (in the order they
    finished) and every failure (repr), which the callers expect to be none."""
    start = threading.Barrier(len(calls))
    answers, errors = [], []

    def run(call) -> None:
        try:
            start.wait()
            answers.append(call())
        except Exception as error:  # noqa: BLE001 - every failure is the finding
            errors.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers, errors


def register_at_once(competition, captains) -> tuple[list[int], list[str]]:
    """Each captain creates a team in its own thread, all released at once; the teams made
    and every failure (repr), which the callers expect to be none."""

    def register(index: int):
        team = team_create(competition=competition, name=f"Racer {index}", captain=captains[index])
        return team.pk

    return at_once([lambda i=i: register(i) for i in range(len(captains))])
