"""Issue 30: the live games with a computer seat, by their creator's player and address
(a fair share of the computer work, :mod:`mathable.web.infra.botshare`).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_games",
        sa.Column("game_id", sa.Text(), primary_key=True),
        sa.Column("player_id", sa.Text()),
        sa.Column("address", sa.Text()),
        sa.Column("all_computer", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_bot_games_player", "bot_games", ["player_id"])
    op.create_index("ix_bot_games_address", "bot_games", ["address"])


def downgrade() -> None:
    op.drop_index("ix_bot_games_address", "bot_games")
    op.drop_index("ix_bot_games_player", "bot_games")
    op.drop_table("bot_games")
