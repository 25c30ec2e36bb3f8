"""What a person at a shared screen types to leave a game, to challenge a turn or to ask
about a cell, read into the engine's actions or answered in words: the plain game
(:mod:`mathable.cli.hotseat`) and the full screen (:mod:`mathable.tui`) read them alike.
The engine decides the rest (local ruling L1, C12): a challenge is handed to
:meth:`Game.play <mathable.engine.protocol.Game.play>` for its seat, and a refusal is
worded as the terminal games word it (:func:`challenge_refusal`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from mathable.engine.actions import LEAVE_REASONS, Abort, Challenge, Leave, Place
from mathable.engine.errors import IllegalMove, MathableError
from mathable.engine.protocol import ActionRefused, Game, View
from mathable.i18n import _, command_name, lazy, typed_command

from .words import clean

LEAVING_WORDS = (*LEAVE_REASONS, "abort")
"""The typed words that leave a game or call it off (``resign``, ``abort``; ``flag`` and
``claim`` belong to the online clock and are refused at one screen)."""


def leaving_open(game: Game, seat: int | None) -> tuple[str, ...]:
    """What ``seat`` may type to leave now: ``resign``, and ``abort`` while the engine
    allows it (L1); nothing for a computer seat's turn or a seat out of the game."""
    if not game.can_leave(seat):
        return ()
    return ("resign", "abort") if game.can_abort(seat) else ("resign",)


def leave_request(
    game: Game, line: str, seat: int | None, computers: Collection[int]
) -> Leave | Abort | str:
    """The :class:`Leave` or :class:`Abort` a person typed (``resign``, ``abort``, for
    ``seat`` or for the seat or name after the word), or why it is refused."""
    words = typed_command(line).split(maxsplit=1)
    keyword = words[0].lower()
    if keyword not in ("resign", "abort"):
        return _(
            "{word} is for online games with a clock: at one screen, type {resign}",
            word=keyword,
            resign=command_name("resign"),
        )
    word = command_name(keyword)
    found = _whose(game, words, seat, word)
    if isinstance(found, str):
        return found
    seat = found
    name = game.players[seat]
    if seat in computers:
        return _("{name} is a computer player: computers never resign", name=name)
    if game.is_over:
        return _("the game is over")
    if not game.can_leave(seat):
        return _("{name} has left the game already", name=name)
    if keyword == "abort":
        if not game.can_abort(seat):
            return _(
                "a game is aborted only before each player has moved: {resign} instead",
                resign=command_name("resign"),
            )
        return Abort(seat)
    return Leave(seat, "resign")


def _whose(game: Game, words: Sequence[str], seat: int | None, word: str) -> int | str:
    """The seat a typed command is for: the seat or name after the command word (in
    ``words``), else ``seat``; or why none is (``word``: the command as typed)."""
    if len(words) > 1:
        who = words[1].strip()
        named = [s for s, p in enumerate(game.players) if p.casefold() == who.casefold()]
        if who.isascii() and who.isdigit() and int(who) < len(game.players):
            return int(who)
        if named:
            return named[0]
        # TRANSLATORS: {word} is resign, abort or challenge, as the player types it
        return _(
            "no player {name} here: type {word}, or {word} and a seat from 0",
            name=repr(clean(who)),
            word=word,
        )
    if seat is None:
        # TRANSLATORS: {word} is resign, abort or challenge, as the player types it
        return _("whose? type {word} and the seat from 0, like {word} 0", word=word)
    return seat


def challenge_request(
    game: Game, line: str, seat: int | None, computers: Collection[int]
) -> Challenge | str:
    """The :class:`Challenge` a person typed at one screen (C12: any opponent of the
    player who made the turn may challenge it, whoever is to move, as on the web): for
    ``seat`` (the person at the screen), or for the seat or name after the word
    (``challenge 2``, ``challenge Cy``); or why it is refused. The engine says the rest
    (the maker, a seat that left, nothing to challenge)."""
    words = typed_command(line).split(maxsplit=1)
    found = _whose(game, words, seat, command_name("challenge"))
    if isinstance(found, str):
        return found
    if not game.house_rules.table_referee:
        return _("there are no challenges without the table-referee house rule (C12)")
    if found in computers:
        return _(
            "{name} is a computer player: it challenges on its own when asked",
            name=game.players[found],
        )
    return Challenge(by=found)


def challenge_refusal(game: Game, seat: int, refusal: ActionRefused) -> str:
    """The words of a challenge by ``seat`` that :meth:`Game.play
    <mathable.engine.protocol.Game.play>` refused, as the terminal games have always
    said them (C12, L1): at one screen a challenge may be made for another seat
    (``challenge 2``), so the refusal names the seat where the engine's says "you".
    The engine decides; only its :attr:`~ActionRefused.kind` is read here."""
    name = game.players[seat]
    if refusal.kind == "over":
        return str(IllegalMove(lazy("the game is over"), rule="C11"))
    if refusal.kind not in ("left", "challenge"):
        return str(refusal)
    if not any("challenge" in game.available(s) for s in range(len(game.players))):
        # no opponent may challenge now: the turn is no longer open to a challenge
        return str(
            IllegalMove(
                lazy("only the turn just ended can be challenged, before the next player moves"),
                rule="C12",
            )
        )
    if refusal.kind == "left":
        return str(IllegalMove(lazy("{name} has left the game", name=name), rule="L1"))
    return str(
        IllegalMove(
            lazy("{name} made that turn: only an opponent may challenge it", name=name),
            rule="C12",
        )
    )


def explain_cell(game: Game, view: View, typed: str) -> tuple[list[str], bool]:
    """Issue 18, ``explain I8``: the explanation of the piece on that cell or pile (the
    most recent finished turn that placed it) or, on an empty cell (or a pile whose top
    no turn explains), what each piece the seat places from now would make there
    (equations and points, C3-C6, Q2). Lines to show, and whether the target was refused.
    The terminal game and the Textual app both answer with it."""
    try:
        cell = game.cell_names.parse(typed[:20])
    except MathableError as exc:
        return [str(exc)], True
    name, here = game.cell_names.name(cell), view.surface[cell]
    for turn in reversed(game.explain_turns()):
        for explained in turn:
            if explained.target == name and explained.value == here:
                return [explained.text()], False
    log = game.log
    for index in range(len(log) - 1, -1, -1):  # placed in the turn still being played
        action = log[index]
        if isinstance(action, Place) and action.cell == cell and action.value == here:
            try:
                return [game.replayed(index).explain(action).text()], False
            except NotImplementedError:
                break
    if here != -1 and game.game_type.surface == "board":
        # TRANSLATORS: a cell's name, and its value: no turn placed it (a printed token)
        return [_("{cell} holds {value}: no turn placed it", cell=name, value=here)], False
    found = [game.explain(Place(cell, value)) for value in sorted(set(view.playable))]
    legal = [e for e in found if e.legal]
    if not legal:
        return [_("None of your pieces goes on {cell}.", cell=name)], False
    # TRANSLATORS: a placement in the notation (I8=12), then its explanation
    return [
        _("{placement}: {explanation}", placement=f"{name}={e.value}", explanation=e.text())
        for e in legal
    ], False
