"""The sequential round in a competition bundle (``RoundKind.bundle_export`` / ``bundle_import``;
``pwscup.kinds.bundles``)."""


def round_bundle(round, *, anchor):
    raise NotImplementedError


def round_from_bundle(*, competition, entry, start, user):
    raise NotImplementedError
