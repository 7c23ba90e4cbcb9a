"""The pwscup2015 round in the competition's results archive (``RoundKind.archive_members`` /
``data_card``; ``pwscup.kinds.archives``)."""


def archive_members(round, *, secrets):
    return []


def data_card(round):
    return {}
