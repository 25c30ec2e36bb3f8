"""The event store as it was before Alembic: games and their events.

A SQLite file made by an older version already has both tables (and no
``alembic_version``): they are kept as they are, and only the revision is recorded.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" not in existing:
        op.create_table(
            "games",
            sa.Column("id", sa.Text(), primary_key=True),
            sa.Column("created", sa.Float(), nullable=False),
            sa.Column("spec", sa.Text(), nullable=False),
            sa.Column("seats", sa.Text(), nullable=False),
        )
    if "events" not in existing:
        op.create_table(
            "events",
            sa.Column("game_id", sa.Text(), sa.ForeignKey("games.id"), primary_key=True),
            sa.Column("seq", sa.Integer(), primary_key=True),
            sa.Column("action", sa.Text(), nullable=False),
            sa.Column("seat", sa.Integer()),
            sa.Column("created", sa.Float(), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("games")
