"""Issue 15: the lobby's seeks (open games waiting for players).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.Text(), primary_key=True),
        sa.Column("owner", sa.Text(), nullable=False),
        sa.Column("owner_name", sa.Text(), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("joined", sa.Text(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("game_id", sa.Text()),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_seeks_status_created", "seeks", ["status", "created"])
    op.create_index("ix_seeks_owner", "seeks", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_seeks_owner", table_name="seeks")
    op.drop_index("ix_seeks_status_created", table_name="seeks")
    op.drop_table("seeks")
