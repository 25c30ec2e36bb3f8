"""Issue 15: who sits at each game, game results and ratings, presence, running clocks.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a game with a clock that has not ended (the clock timers resume these only)
    op.add_column(
        "games",
        sa.Column("running_clock", sa.Boolean(), nullable=False, server_default=sa.text("false")),
    )
    op.execute("UPDATE games SET running_clock = true WHERE spec LIKE '%\"clock\": {%'")
    op.create_index("ix_games_running_clock", "games", ["running_clock"])
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Text(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Text(), sa.ForeignKey("players.id"), nullable=False),
    )
    op.create_index("ix_game_players_player", "game_players", ["player_id", "game_id"])
    op.create_table(
        "results",
        sa.Column("game_id", sa.Text(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("variant", sa.Text(), nullable=False),
        sa.Column("pace", sa.Text(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("finished", sa.Float(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("scores", sa.Text(), nullable=False),
        sa.Column("ranks", sa.Text(), nullable=False),
    )
    op.create_index("ix_results_finished", "results", ["finished"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Text(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.Text(), primary_key=True),
        sa.Column("pace", sa.Text(), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "pace", "rating"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.Text(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Text(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.Column("deviation_before", sa.Float(), nullable=False),
        sa.Column("deviation_after", sa.Float(), nullable=False),
    )
    op.create_table(
        "presence",
        sa.Column("game_id", sa.Text(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("process", sa.Text(), primary_key=True),
        sa.Column("seen", sa.Float(), nullable=False),
        sa.Column("connected", sa.Boolean(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("presence")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_results_finished", table_name="results")
    op.drop_table("results")
    op.drop_index("ix_game_players_player", table_name="game_players")
    op.drop_table("game_players")
    op.drop_index("ix_games_running_clock", table_name="games")
    op.drop_column("games", "running_clock")
