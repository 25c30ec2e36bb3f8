"""Issue 37: games on a real board kept by the score keeper, each a setup and an event
log of its own (apart from ``games``, which lists, rates and resumes games played here).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "kept_games",
        sa.Column("id", sa.Text(), primary_key=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("token_hash", sa.Text(), nullable=False),
    )
    op.create_table(
        "kept_entries",
        sa.Column("game_id", sa.Text(), sa.ForeignKey("kept_games.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("entry", sa.Text(), nullable=False),
        sa.Column("turn_id", sa.Text()),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ux_kept_entries_turn", "kept_entries", ["game_id", "turn_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_kept_entries_turn", table_name="kept_entries")
    op.drop_table("kept_entries")
    op.drop_table("kept_games")
