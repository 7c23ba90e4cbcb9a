"""The test settings' database engine: Django's PostgreSQL backend, emptying the tables the
way a test database is best emptied (``base.DatabaseOperations.sql_flush``)."""
