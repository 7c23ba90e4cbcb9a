"""The scorer round's demo (being written: a placeholder)."""


def demo_load(competition, *, organizer) -> None:
    return None
