"""Issue 14, records: a game made from an uploaded record keeps the record's fingerprint
(the SHA-256 of its canonical JSON), so uploading the same record again opens that game
instead of adding a second one. Unique: two uploads at once make one game.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("fingerprint", sa.Text(), nullable=True))
    op.create_index("ux_games_fingerprint", "games", ["fingerprint"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_games_fingerprint", table_name="games")
    op.drop_column("games", "fingerprint")
