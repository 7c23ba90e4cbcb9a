"""The scorer round's rankings for the competition's standings (being written: a placeholder)."""


def ranking_keys(round_):
    return []


def published_rankings(round_):
    return []
