"""The Alembic migrations of the event store's schema (see :mod:`mathable.web.infra.db`)."""
