"""The scorer round's lifecycle actions (being written: a placeholder)."""


def scorer_actions(round_) -> dict:
    return {}
