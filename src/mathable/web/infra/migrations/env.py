"""Alembic's environment: run by :func:`mathable.web.infra.db.migrate` when a store opens (or by
the ``alembic`` command with ``script_location`` pointing here). Imported any other way
(the doctest collector), it does nothing."""

from __future__ import annotations

from alembic import context

from mathable.web.infra.db import run_migrations

if hasattr(context, "config"):  # Alembic's context exists only while it runs this file
    run_migrations()
