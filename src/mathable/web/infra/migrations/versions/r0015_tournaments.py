"""Issue 38: tournaments, each a spec and an event log of its own (joins, pairings, the
games linked to their boards, results), and the claims that let one process only create
a board's game.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Text(), primary_key=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("organizer", sa.Text(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("starts", sa.Float()),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("ix_tournaments_status_created", "tournaments", ["status", "created"])
    op.create_index("ix_tournaments_organizer", "tournaments", ["organizer"])
    op.create_table(
        "tournament_events",
        sa.Column("tournament_id", sa.Text(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_table(
        "tournament_boards",
        sa.Column("tournament_id", sa.Text(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Text()),
        sa.Column("claimed", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_boards")
    op.drop_table("tournament_events")
    op.drop_index("ix_tournaments_organizer", table_name="tournaments")
    op.drop_index("ix_tournaments_status_created", table_name="tournaments")
    op.drop_table("tournaments")
