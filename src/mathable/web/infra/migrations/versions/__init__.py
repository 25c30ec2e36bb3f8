"""One module per schema revision, oldest first (Alembic reads their ``revision``)."""
