"""Issue 36: bot accounts (an API token kept as its SHA-256) and challenges between
players by name, stored so that every server process sees them and they survive a
restart.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_accounts",
        sa.Column("player_id", sa.Text(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("token_hash", sa.Text()),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("token_created", sa.Float()),
    )
    op.create_index("ux_bot_accounts_token_hash", "bot_accounts", ["token_hash"], unique=True)
    op.create_table(
        "challenges",
        sa.Column("id", sa.Text(), primary_key=True),
        sa.Column("challenger", sa.Text(), nullable=False),
        sa.Column("challenger_name", sa.Text(), nullable=False),
        sa.Column("dest", sa.Text(), nullable=False),
        sa.Column("dest_name", sa.Text(), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("game_id", sa.Text()),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("ix_challenges_dest_updated", "challenges", ["dest", "updated"])
    op.create_index("ix_challenges_challenger_updated", "challenges", ["challenger", "updated"])
    op.create_index("ix_challenges_status_created", "challenges", ["status", "created"])


def downgrade() -> None:
    op.drop_index("ix_challenges_status_created", table_name="challenges")
    op.drop_index("ix_challenges_challenger_updated", table_name="challenges")
    op.drop_index("ix_challenges_dest_updated", table_name="challenges")
    op.drop_table("challenges")
    op.drop_index("ux_bot_accounts_token_hash", table_name="bot_accounts")
    op.drop_table("bot_accounts")
