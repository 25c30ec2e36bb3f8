"""The API's shapes: what clients send (input models) and what they get back (response
models), so ``/docs`` shows every payload as it is.

Response models mirror JSON the engine already writes (a view's ``to_dict``, a game
type's ``capabilities()``, ``analysis_report``): their known keys are typed here, and
``extra="allow"`` lets a game's own keys (a board's ``board``, the piles' ``pile_sizes``)
and keys the engine adds later pass through unchanged. Keys are only ever added.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictInt,
    StrictStr,
    Tag,
    TypeAdapter,
)

from mathable.ai import BOTS
from mathable.games.registry import GAMES

SEED_LIMIT = 2**53
"""Seeds are below 2^53 (issue 29): every JSON reader, a browser's JavaScript included,
holds such a number exactly, so the seed a page shows deals the same game when typed
into the new-game form. The server draws its seeds below it and a chosen seed of 2^53
or more is refused (``seed: less than 9007199254740992``). Games stored before, and
records made elsewhere, may hold a larger seed: their views carry it as a string of
its digits (:func:`~.service.shown_seed`)."""

STORED_INT = 2**31 - 1
"""The largest whole number a request may give where one is compared with a stored one (a
chat message's id, a seq, a step): what a 32-bit ``INTEGER`` column holds on PostgreSQL.
Checked in the request (``le=STORED_INT``) before any store sees it (issue 30): a larger
one overflowed SQLite's and PostgreSQL's integers, a 500."""

MAX_SEATS = 4
"""Seats in a game at most (the most any game takes)."""

# -- what clients send ---------------------------------------------------------------


class Seat(BaseModel):
    """One seat of a new game: a person (with a name) or a computer player."""

    name: str = Field(default="", max_length=40, description="The player's name.")
    bot: str | None = Field(default=None, description=f"A computer level: {', '.join(BOTS)}.")


Mode = Literal["online", "screen"]
"""Where a game is played: ``online`` from several devices (each person's seat on its
own link), or ``screen``, everyone at one screen (pass and play, or against the computer)."""


class NewGame(BaseModel):
    """A game to create."""

    variant: str = Field(default="classic", description=", ".join(GAMES))
    players: list[Seat] = Field(min_length=2, max_length=4)
    mode: Mode | None = Field(
        default=None,
        description="online (each person on their own device: the default with two or more "
        "people) or screen (everyone at one screen; the default with one person).",
    )
    seat: int | None = Field(
        default=None,
        ge=0,
        le=MAX_SEATS - 1,
        description="Online: the seat the creator plays (0-based; the first person's seat "
        "by default). The other people's seats get invitation links.",
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        lt=SEED_LIMIT,
        description="Deals the same game again: at one screen or against the computer only. "
        "Online games are dealt by the server and their seed is shown at the end (O1). "
        "Below 2^53 (9007199254740992), which every JSON reader holds exactly; a string of "
        "digits is taken too.",
    )
    house_rules: dict[str, bool] = Field(
        default_factory=dict,
        description="Options the game offers (its capabilities' house_rules): "
        "table_referee, allow_undo, strict, hints. hints (the computer's best turns "
        "and analysis during the game, O2) is on by default at one screen, off online.",
    )
    rounds: int = Field(
        default=1, ge=1, le=99, description="Rounds of a match, for games played in rounds."
    )
    clock: dict[str, Any] | None = Field(
        default=None,
        description='A time control: {"minutes": 5, "increment": 3} (live: minutes per '
        'player, seconds added per turn) or {"days": 3} (correspondence); a player out of '
        "time loses (two players) or leaves the game (three or four).",
    )
    rated: bool = Field(default=False, description="Rated or casual (stored and shown).")


class Act(BaseModel):
    """An action for the seat whose token is given."""

    token: str | None = Field(
        default=None,
        description=(
            "The seat's secret token, from its link; omit it for the seat your session "
            "cookie holds (bound when you took it)."
        ),
    )
    action: str = Field(
        max_length=100,
        description="I8=12, J8=16+, end, pass, exchange 3,5…; undo when the view's undo says so",
    )
    seq: int | None = Field(
        default=None,
        ge=0,
        le=STORED_INT,
        description="The actions seen so far: refused (409) if the game moved on.",
    )


class ActionIn(BaseModel):
    """A seat's action on its game's socket, ``{"action": "I8=12", "seq": n}``: the
    socket's form of :class:`Act` (its seat is the socket's; other keys are ignored)."""

    action: StrictStr
    seq: StrictInt | None = None


class SyncIn(BaseModel):
    """``{"type": "sync"}`` on a game's socket: send the whole view again (a client whose
    view is not where a patch starts)."""

    type: Literal["sync"]


def _client_kind(message: Any) -> str:
    """Which message a socket frame is: ``sync`` by its type, any other an action."""
    return "sync" if isinstance(message, dict) and message.get("type") == "sync" else "action"


ClientIn = Annotated[
    Annotated[ActionIn, Tag("action")] | Annotated[SyncIn, Tag("sync")],
    Discriminator(_client_kind),
]
"""What a client sends on a game's socket (as lila-ws's ``ClientIn``): one model per kind."""

CLIENT_IN: TypeAdapter[ActionIn | SyncIn] = TypeAdapter(ClientIn)
"""Reads a socket frame's JSON object into its :data:`ClientIn` model."""


class Join(BaseModel):
    """Claim a seat with its invitation (once: the invitation then stops working)."""

    invite: str = Field(max_length=100, description="The code of the invitation link.")


class Rematch(BaseModel):
    """A player's rematch: the token of their seat in the finished game."""

    token: str | None = Field(
        default=None,
        description=(
            "The seat's secret token, from its link; omit it for the seat your session "
            "cookie holds (bound when you took it)."
        ),
    )


class SeatToken(BaseModel):
    """A player's request about their game (resign, abort): their seat's token."""

    token: str | None = Field(
        default=None,
        description=(
            "The seat's secret token, from its link; omit it for the seat your session "
            "cookie holds (bound when you took it)."
        ),
    )


class Transcript(BaseModel):
    """A paper score sheet to score."""

    text: str = Field(max_length=200_000, description="One line per turn, as on a score sheet.")
    variant: str = "classic"


# -- what clients get ----------------------------------------------------------------


class Open(BaseModel):
    """A response mirroring engine JSON: unknown keys pass through unchanged."""

    model_config = ConfigDict(extra="allow")


class SquareOut(BaseModel):
    kind: str
    label: str


class BoardOut(BaseModel):
    """A board to draw: its size and every square, row by row."""

    size: int
    squares: list[SquareOut]


class TargetOut(Open):
    name: str
    kind: str
    label: str


class CapabilitiesOut(Open):
    """What a game is played on and which actions it has: all a front end draws from."""

    name: str
    title: str
    summary: str
    version: int
    min_players: int
    max_players: int
    rack_size: int
    piece: str = Field(description="token, tile or card")
    surface: str = Field(description="board or piles")
    columns: int = Field(description="targets per row of the surface")
    targets: list[TargetOut] = Field(description="every cell or pile, row after row")
    actions: list[str] = Field(description="the action keywords this game has")
    exchange_exactly: int | None
    house_rules: list[str]
    rounds: bool
    score_unit: str
    open_racks: bool
    score_sheets: bool
    bonus: int
    deducts_rack: bool


class VariantOut(BaseModel):
    """A game of the family; ``board`` only for games played on a board."""

    name: str
    title: str
    summary: str
    min_players: int
    max_players: int
    rack_size: int
    board: BoardOut | None = None
    capabilities: CapabilitiesOut


class BotOut(BaseModel):
    name: str = Field(description="the level, as the API takes it (greedy)")
    title: str = Field(description="the level's name in the reader's language")
    description: str
    slow: bool = Field(
        False,
        description="its turns may take a few seconds (the master): for a game a person "
        "chooses to wait in, not for clocked lobby games or tournaments",
    )


class SeatTokenOut(BaseModel):
    """A seat of a new game. ``token`` opens it: keep it secret. Online, only the
    creator's own seat has one; every other person's seat has an ``invite`` link instead,
    which gives whoever follows it first a fresh token of that seat, once."""

    seat: int
    name: str
    bot: str | None
    token: str | None
    invite: str | None = Field(
        default=None, description="the invitation link's path, to send to that seat's player"
    )
    claimed: bool = Field(default=False, description="whether a person holds this seat")


class CreatedOut(BaseModel):
    id: str
    mode: Mode = "screen"
    seats: list[SeatTokenOut]
    existing: bool = Field(
        default=False,
        description="an uploaded record: the game made from it before (no tokens: the "
        "browser that uploaded it holds them)",
    )


class JoinedOut(BaseModel):
    """A claimed invitation: the seat and its token, given once, to this player only."""

    id: str
    seat: int
    name: str
    token: str


class GameSummaryOut(BaseModel):
    """A game in the list of games."""

    id: str
    created: float
    variant: str
    players: list[str]
    bots: list[str | None]
    scores: list[int]
    actions: int
    over: bool
    to_move: str | None
    mode: Mode = "screen"


class TurnSummaryOut(Open):
    """A finished turn; a computer's exchange or pass also has its ``reason`` (issue 35:
    why it placed nothing), a text in the reader's language."""

    seat: int
    notation: str
    points: int
    note: str
    explanations: list[str] = Field(
        default_factory=list,
        description="each placement of the turn explained: its equations and points (issue 18)",
    )
    no_fit: bool = Field(
        default=False,
        description="the turn ended by itself: pieces were left in hand and none fitted (issue 32)",
    )


class PublicViewOut(Open):
    """What a seat (or a spectator) may know of any game, plus the game's own keys (a
    board: ``board``, ``turn``, ``turns``...; piles: ``piles``, ``pile_sizes``...)."""

    variant: str
    seat: int | None
    players: list[str]
    rack: list[int]
    rack_sizes: list[int]
    scores: list[int]
    bag_size: int
    to_move: int
    unseen: dict[str, int]
    house_rules: dict[str, bool]
    over: bool
    end_reason: str
    open_racks: list[list[int]]
    surface: list[int] = Field(description="the value on each target, -1 where empty")
    playable: list[int] = Field(description="the pieces the seat places from now")
    available: list[str] = Field(description="the action keywords the seat may use now")
    summaries: list[TurnSummaryOut]
    status: str
    left: list[str] = Field(
        default_factory=list,
        description="per seat, why it left the game (resign, flag: out of time, claim: gone "
        "and claimed), '' for a seat still in (local ruling L1: its score frozen, its turns "
        "skipped)",
    )
    recent: list[str] = Field(
        description="targets of the last finished turn and the turn under way, to highlight"
    )
    last_turns: list[list[str]] = Field(
        default_factory=list,
        description="per seat, the targets of its last finished turn (empty if it placed "
        "nothing or has not played yet; never the turn under way), to mark each apart",
    )
    target_notes: list[str] = Field(description="a short note per target (a pile's count)")
    notice: str = Field(description="a message for the opening of a game, or ''")


class SeatInfoOut(BaseModel):
    name: str
    bot: str | None
    bot_name: str | None = Field(
        default=None, description="a computer seat's level in the reader's language"
    )
    claimed: bool = Field(
        default=True, description="a person's seat: whether its invitation was taken"
    )


class RatingChangeOut(BaseModel):
    """A seat's rating change in a rated game (issue 15, "Ratings")."""

    seat: int
    player: str = Field(description="the player's id")
    before: int
    after: int
    change: int = Field(description="after - before, as shown (+12)")
    provisional: bool = Field(description="the new rating is still provisional (shown with ?)")


class PresenceOut(BaseModel):
    """A seat's presence."""

    connected: bool
    since: int | None = Field(
        default=None,
        description="milliseconds since the epoch: connected since, or away since (null: "
        "never seen)",
    )


class ViewOut(PublicViewOut):
    """A game as one seat (its token given) or a spectator sees it, with the actions
    that seat may play now (``legal``) and, once over, the winners."""

    id: str
    seq: int = Field(
        description="events so far: the actions, and the undos (house rule allow_undo), so "
        "it only grows; send it with an action (refused 409 if the game moved on)"
    )
    undo: bool = Field(
        default=False,
        description="whether this seat may send undo now (house rule allow_undo, V-B): it "
        "takes back the seat's own last action and the computer players' replies after it, "
        "while no other person has played since (at one screen and online alike)",
    )
    seats: list[SeatInfoOut]
    title: str
    mode: Mode = Field(default="screen", description="online or screen (one screen)")
    legal: list[str] = Field(
        description="the actions the seat may play now, in notation, but for exchanges: "
        "not listed (127 choices of 7 tokens); `available` says whether one may exchange"
    )
    winners: list[int] | None = None
    clock: dict[str, int] | None = Field(
        default=None, description='the time control ({"minutes", "increment"} or {"days"})'
    )
    clocks: list[int] | None = Field(
        default=None,
        description="milliseconds left per seat, derived from the stored events' times "
        "(null without a clock); the running seat's keeps running after the view is sent",
    )
    running: int | None = Field(default=None, description="the seat whose clock runs")
    rated: bool = Field(default=False, description="a rated game (an aborted one never is)")
    rating_changes: list[RatingChangeOut] | None = Field(
        default=None,
        description="once a rated game is over: each seat's rating before and after, and "
        "the change shown (null: not rated)",
    )
    abort: bool = Field(
        default=False, description="whether this seat may abort now (before each player moved)"
    )
    seed: int | str | None = Field(
        default=None,
        description="the deal's seed, once the game is over: a number below 2^53, or for "
        "an older game dealt from a larger seed the string of its digits (exact in every "
        "JSON reader either way)",
    )
    rematch: str | None = Field(
        default=None,
        description="once over: the id of the rematch a player asked for (each player takes "
        "their seat in it with POST /api/games/{id}/rematch)",
    )
    presence: list[PresenceOut] | None = Field(
        default=None,
        description="online: per seat, whether its player has the game open (in any server "
        "process; computer players always) and since when (null: until a socket here "
        "follows the game)",
    )
    claim_after: float | None = Field(
        default=None,
        description="online, not by correspondence, not over: the seconds the seat to move "
        "must have been disconnected before another player may claim (POST .../claim)",
    )


class HintTurnOut(BaseModel):
    turn: str = Field(description="the turn in notation")
    points: int | None = Field(description="None where the game counts rounds won")
    cells: list[str] = Field(description="the cells or piles it places on")


class HintOut(BaseModel):
    turns: list[HintTurnOut]


class ReplayOut(BaseModel):
    step: int
    total: int
    action: str | None = Field(description="the last action replayed, in notation")
    view: PublicViewOut
    racks: list[list[int] | None] = Field(
        default_factory=list,
        description="every seat's rack after those actions, once the game is over; in a "
        "game still played only the viewer's own (and racks that lie face up), null for "
        "the others",
    )
    turns: list[ReplayTurnOut] = Field(
        default_factory=list,
        description="every finished turn of the game, with the steps it starts and ends at",
    )


class ReplayTurnOut(TurnSummaryOut):
    start: int = Field(description="the actions played before the turn")
    step: int = Field(description="the actions played once it was over: the step to show it")


class BestPlacementOut(BaseModel):
    cell: str
    value: int


class AnalysedTurnOut(Open):
    turn: int
    player: str
    played: str
    points: int | None
    best: str
    best_points: int | None
    loss: int | None
    step: int | None = Field(
        None, description="the actions played before the turn: its position is the replay's"
    )
    best_placements: list[BestPlacementOut] = Field(
        default_factory=list, description="the best turn's placements, to draw on the surface"
    )
    equity_loss: float | None = Field(
        None, description="the equity given away, in points (board games; issue 35)"
    )
    win_before: float | None = Field(
        None, description="the mover's chance of winning with the best turn, in percent"
    )
    win_after: float | None = Field(
        None, description="the mover's chance of winning after the turn played, in percent"
    )
    why: str | None = Field(None, description="why the best turn is better, or why it exchanged")


class AnalysedPlayerOut(Open):
    player: str
    accuracy: float | None


class AnalysisOut(Open):
    """Per turn: what was played against the best available; per player: accuracy.
    Version 3 (issue 35) judges board turns by equity and the chance of winning
    (``ai.analysis``); a kept version-2 report has those fields null."""

    version: int | None = Field(None, description="the report's version (3; 2 had none)")

    turns: list[AnalysedTurnOut]
    players: list[AnalysedPlayerOut]


class ScoredPlacementOut(BaseModel):
    cell: str
    value: int
    points: int
    extra: bool


class ScoredTurnOut(BaseModel):
    line: int
    player: str
    kind: str
    points: int
    bonus: int
    total: int
    exchanged: int
    placements: list[ScoredPlacementOut]


class ScoresheetOut(BaseModel):
    turns: list[ScoredTurnOut]
    totals: dict[str, int]
