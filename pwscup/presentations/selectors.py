"""Reading presentation windows and slides."""


def presentations_console(*, competition):
    """What the console's competition page shows of the presentations (``None``: nothing)."""
    return None


def presentations_for(*, user, competition):
    """What the competition page shows ``user`` of the presentations (``None``: nothing)."""
    return None
