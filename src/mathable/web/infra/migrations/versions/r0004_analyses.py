"""Issue 13: finished games' analyses are kept in the database, so each is computed once
for every process and every restart (they cost a second or more of CPU each).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.Text(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("actions", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("report", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
