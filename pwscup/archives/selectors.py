"""Reading results archives."""


def archives_console(*, competition):
    """What the console's competition page shows of the results archives (``None``: nothing)."""
    return None


def archives_for(*, user, competition):
    """The archives the competition page offers ``user`` (``None``: nothing)."""
    return None
