"""A database brought to an older revision, as a server of that version left it: to test
what a migration does with the rows it finds."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection

from mathable.web.infra.db import MIGRATIONS


def upgrade_to(connection: Connection, revision: str) -> None:
    """Run the migrations up to ``revision`` only, on ``connection`` (in its transaction)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)
