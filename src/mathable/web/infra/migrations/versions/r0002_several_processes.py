"""Issue 13, several processes over one database: a change stamp on games (the SQLite
change feed sees a claimed seat), and an index for the list of games, newest first.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("stamp", sa.BigInteger(), nullable=False, server_default=sa.text("0")),
    )
    op.create_index("ix_games_stamp", "games", ["stamp"])
    op.create_index("ix_games_created", "games", ["created"])


def downgrade() -> None:
    op.drop_index("ix_games_created", table_name="games")
    op.drop_index("ix_games_stamp", table_name="games")
    op.drop_column("games", "stamp")
