"""Issue 35: a finished game's analysis is kept for each depth it was judged at (the
expert's, the default, and the master's), the depth part of the key. The analyses kept
before were the expert's: they are carried over as such.

The table is made anew under its name (SQLite cannot change a primary key in place),
its rows copied.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

_COPIED = "game_id, actions, version, report, created"


def _table(name: str, *, with_depth: bool) -> None:
    depth = [sa.Column("depth", sa.Text(), primary_key=True)] if with_depth else []
    op.create_table(
        name,
        sa.Column("game_id", sa.Text(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("actions", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        *depth,
        sa.Column("report", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )


def upgrade() -> None:
    _table("analyses_by_depth", with_depth=True)
    op.execute(
        f"INSERT INTO analyses_by_depth ({_COPIED}, depth) SELECT {_COPIED}, 'expert' FROM analyses"
    )
    op.drop_table("analyses")
    op.rename_table("analyses_by_depth", "analyses")


def downgrade() -> None:
    _table("analyses_by_depth", with_depth=False)
    op.execute(
        f"INSERT INTO analyses_by_depth ({_COPIED}) "
        f"SELECT {_COPIED} FROM analyses WHERE depth = 'expert'"
    )
    op.drop_table("analyses")
    op.rename_table("analyses_by_depth", "analyses")
