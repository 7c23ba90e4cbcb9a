"""The models' tables and columns by name, quoted for the database in use, for the few reads
written as SQL on the hottest paths (every round page's versions, ``pwscup.accounts.
page_versions``; the live poll's 304, ``pwscup.submissions.selectors``). Django builds an
ORM query again on every call and keeps no compiled one; these reads are written once per
process from the models' metadata, so a renamed table or column follows the model."""

from django.db import connection


def table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def column(model, field: str) -> str:
    """``field``'s column (a relation's: its ``_id`` column); the primary key's by ``"pk"``."""
    if field == "pk":
        return connection.ops.quote_name(model._meta.pk.column)
    return connection.ops.quote_name(model._meta.get_field(field).column)
