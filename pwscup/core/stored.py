"""A stored file's bytes, as every kind reads its uploads, its organizer's tables and its
targets back (scoring, downloads, bundles, the archive)."""


def stored_bytes(field_or_file) -> bytes:
    """The whole content of a stored file field (closed again) or of an open file."""
    field_or_file.open("rb")
    try:
        field_or_file.seek(0)
        return field_or_file.read()
    finally:
        if hasattr(field_or_file, "storage"):
            field_or_file.close()
