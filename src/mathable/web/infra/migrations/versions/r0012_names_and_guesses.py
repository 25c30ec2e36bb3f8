"""Issue 30: names unique by their look-alike key (TR39 skeleton,
:func:`mathable.online.names.key`) and failed log-ins counted per account name,
shared by every server process.

Existing accounts and computer players get their key, the oldest first; a later one whose
key another holds keeps none (it still logs in by its name; a rename must pass the rules).
Guests made before keep none either: their "Guest 1234" names repeated.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from mathable.online.names import key

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("name_skeleton", sa.Text()))
    players = sa.table(
        "players",
        sa.column("id", sa.Text()),
        sa.column("name", sa.Text()),
        sa.column("name_key", sa.Text()),
        sa.column("name_skeleton", sa.Text()),
        sa.column("created", sa.Float()),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(players.c.id, players.c.name)
        .where(players.c.name_key.is_not(None))
        .order_by(players.c.created, players.c.id)
    ).all()
    held: set[str] = set()
    for row in rows:
        skeleton = key(str(row.name))
        if skeleton in held:
            continue
        held.add(skeleton)
        connection.execute(
            sa.update(players).where(players.c.id == row.id).values(name_skeleton=skeleton)
        )
    op.create_index("ux_players_name_skeleton", "players", ["name_skeleton"], unique=True)
    op.create_table(
        "login_failures",
        sa.Column("name_key", sa.Text(), primary_key=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.Column("lockouts", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.Float(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("ix_login_failures_updated", "login_failures", ["updated"])


def downgrade() -> None:
    op.drop_index("ix_login_failures_updated", table_name="login_failures")
    op.drop_table("login_failures")
    with op.batch_alter_table("players") as batch:  # SQLite drops a column by a copy
        batch.drop_index("ux_players_name_skeleton")
        batch.drop_column("name_skeleton")
