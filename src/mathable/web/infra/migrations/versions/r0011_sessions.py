"""Issue 30: sessions kept on the server, one row per log-in (or per guest who wrote).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.Text(), primary_key=True),
        sa.Column("player_id", sa.Text(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("last_seen", sa.Float(), nullable=False),
        sa.Column("user_agent", sa.Text(), nullable=False),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    op.create_index("ix_sessions_last_seen", "sessions", ["last_seen"])


def downgrade() -> None:
    op.drop_index("ix_sessions_last_seen", "sessions")
    op.drop_index("ix_sessions_player", "sessions")
    op.drop_table("sessions")
