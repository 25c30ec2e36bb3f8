"""Issue 15: the chat of each game (players' and spectators' rooms) and its reports.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Text(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("room", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Text()),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("seat", sa.Integer()),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False, server_default=sa.text("false")),
    )
    op.create_index("ix_chat_game_room_id", "chat", ["game_id", "room", "id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Text(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("message_id", sa.Integer(), sa.ForeignKey("chat.id")),
        sa.Column("reporter", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reports")
    op.drop_index("ix_chat_game_room_id", table_name="chat")
    op.drop_table("chat")
