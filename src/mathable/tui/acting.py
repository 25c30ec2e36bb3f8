"""What a person does in the full-screen game, forwarded to the engine: notation typed,
pieces picked and placed by key or click, exchanges, leaving, challenges, undo and hints."""

from __future__ import annotations

import re

from mathable.ai.hints import hints
from mathable.engine.actions import Action, Challenge, Exchange, Place, Shake
from mathable.engine.errors import MathableError
from mathable.engine.protocol import ActionRefused
from mathable.i18n import _, command_name, lazy, ngettext, pgettext
from mathable.render.typed import (
    LEAVING_WORDS,
    challenge_refusal,
    challenge_request,
    explain_cell,
    leave_request,
)
from mathable.render.words import leave_question, left_text

from .drawing import TILE
from .rules import by_piece, worded
from .screens import ExchangeScreen, QuestionScreen
from .seats import taken_back
from .turns import TurnsApp
from .widgets import shown

KEYWORD_ACTIONS = (
    "end",
    "pass",
    "challenge",
    "stop",
    "accept",
    "decline",
    "draw",
    "penalty",
    "diago",
)
"""The actions a key plays at once, by their notation keyword (``act('pass')``)."""


class ActingApp(TurnsApp):
    """A person's actions: typed in the notation, keys and clicks (a piece picked, its
    legal targets lit, placed at the cursor), exchanges, leaving (L1), challenges
    (C12), undo (O5) and hints (O2). Every rule is the engine's: a refusal shows its
    reason and changes nothing."""

    def play_text(self, text: str) -> bool:
        """Play an action typed in the notation (``I8=12``, ``A=32``, ``pass``); a typed
        ``resign`` or ``abort`` is asked to confirm first."""
        game = self.game
        if game is None:
            return False
        if text.split()[:1] and text.split()[0].lower() in LEAVING_WORDS:
            self.leave_typed(text)
            return False
        if text.split()[:1] and text.split()[0].lower() == "explain":  # issue 18: explain I8
            lines, refused = explain_cell(game, game.view(self.viewer()), text.partition(" ")[2])
            self.say("\n".join(lines), error=refused)
            return False
        if text.split()[:1] and text.split()[0].lower() == "challenge":  # C12: any opponent
            request = challenge_request(game, text, self.challenging_seat(), self.bots)
            if isinstance(request, str):
                self.say(_("Refused: {reason}", reason=request), error=True)
                return False
            assert request.by is not None  # the seat typed, or the person at the screen
            finished = game.summaries()
            if not self.play(request, request.by):
                return False
            assert finished  # a challenge is of the last finished turn
            by, maker = game.players[request.by], game.players[finished[-1].seat]
            self.say(
                _(
                    "{name} challenged: {maker}'s turn is cut short at its first mistake",
                    name=shown(by),
                    maker=shown(maker),
                )
            )
            return True
        turn = self._whole_turn(text)
        if turn:
            for place in turn:
                if not self.play(place):  # refused with its reason: the rest not tried
                    return False
            self.say(" ".join(worded(game.format_action(place)) for place in turn))
            return True
        try:
            action = game.parse_action(text)
        except MathableError as exc:
            self.say(_("Refused: {reason}", reason=exc), error=True)
            return False
        return self.play(action)

    def _whole_turn(self, text: str) -> list[Place]:
        """A whole turn typed on one line, placements apart by spaces or commas
        (``F7=2 F8=7``, ``F7=2,F8=7``), as the move list writes turns; empty unless it
        holds two placements or more, each as the game reads one (issue 33)."""
        assert self.game is not None
        words = [word for word in re.split(r"[\s,]+", text) if word]
        if len(words) < 2:
            return []
        places: list[Place] = []
        for word in words:
            try:
                action = self.game.parse_action(word)
            except MathableError:
                return []  # not a turn: read as one action, refused with its reason
            if not isinstance(action, Place):
                return []
            places.append(action)
        return places

    def play(self, action: Action, seat: int | None = None) -> bool:
        """Hand a person's action to the engine for ``seat`` (None: the person whose rack
        is shown), which decides whether that seat may play it now (C12: any opponent
        may challenge); a refusal shows its reason, the rule's or the engine's, and
        changes nothing. The engine's refusal of another seat's turn (or of a game over)
        keeps the screen's own words ("It is not your turn.")."""
        game = self.game
        if game is None:
            return False
        if seat is None:
            seat = self.viewer()
        if seat is None:  # nobody's rack is shown (a cover, the game over): nobody acts
            self.say(_("It is not your turn."), error=True)
            return False
        try:
            game.play(seat, action)
        except ActionRefused as exc:
            if isinstance(action, Challenge):
                reason = challenge_refusal(game, seat, exc)
            elif exc.kind in ("over", "turn"):
                self.say(_("It is not your turn."), error=True)
                return False
            else:
                reason = str(exc)
            self.say(_("Refused: {reason}", reason=reason), error=True)
            self.refresh_all()
            return False
        except MathableError as exc:
            self.say(_("Refused: {reason}", reason=exc), error=True)
            self.refresh_all()
            return False
        self.say(worded(game.format_action(action)))
        self.after_action()
        return True

    def action_leave(self, keyword: str) -> None:
        """``R`` (resign) or ``A`` (abort) for the person at the screen."""
        self.leave_typed(keyword)

    def leave_typed(self, line: str) -> None:
        """A person leaves (``resign``) or calls the game off (``abort``), for the seat at
        the screen or the seat or name typed after the word: refused with the reason
        when the engine does not allow it, else asked to confirm, then played (L1)."""
        game = self.game
        if game is None:
            return
        request = leave_request(game, line, self.leaving_seat(), self.bots)
        if isinstance(request, str):
            self.say(_("Refused: {reason}", reason=request), error=True)
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                self.say(_("Play goes on."))
                return
            try:
                game.apply(request)
            except MathableError as exc:
                self.say(_("Refused: {reason}", reason=exc), error=True)
                return
            self.say(f"{shown(left_text(game, request))}.")
            if request.seat == self.covered_for:
                self.covered_for = None  # the next person's rack waits behind the cover
            self.after_action()

        self.push_screen(QuestionScreen(shown(leave_question(game, request))), answered)

    def action_act(self, keyword: str) -> None:
        """Play the keyword action ``keyword`` (``pass``, ``end``, ``diago``...)."""
        if keyword in KEYWORD_ACTIONS:
            self.play_text(keyword)

    def action_pick(self, index: int) -> None:
        self.pick_token(index - 1)

    def action_step_piece(self, delta: int) -> None:
        """Choose the next (or previous) piece of the rack: every piece of a long hand
        is reachable from the keyboard."""
        count = len(self._playable())
        if not count:
            return
        if self.selected_index is None:
            index = 0 if delta > 0 else count - 1
        else:
            index = (self.selected_index + delta) % count
        self.pick_token(index)

    def _playable(self) -> tuple[int, ...]:
        seat = self.human_seat()
        if seat is None or self.game is None:
            return ()
        return self.game.view(seat).playable

    def rack_clicked(self, x: int, y: int = 0) -> None:
        column, offset = divmod(x, TILE)
        if offset < TILE - 1 and column < self._per_line():
            self.pick_token(y * self._per_line() + column)

    def pick_token(self, index: int) -> None:
        """Choose the rack's ``index``-th piece and light up where it may go."""
        rack = self._playable()
        game = self.game
        if game is None or not 0 <= index < len(rack):
            return
        value = rack[index]
        self.selected, self.selected_index = value, index
        targets = self._legal_targets(value)
        self.marks = {t: str(value) for t in targets}
        names = [game.game_type.targets[t].name for t in targets]
        count = len(names)
        listed = ", ".join(names) if 0 < count <= 4 else ""
        if self.surface.cards:
            if listed:
                where = ngettext(
                    "{count} legal pile: {names}",
                    "{count} legal piles: {names}",
                    count,
                    names=listed,
                )
            else:
                where = ngettext("{count} legal pile", "{count} legal piles", count)
            self.say(
                _(
                    "{value} chosen: {where}. Click a pile, or move the cursor and press Enter.",
                    value=value,
                    where=where,
                )
            )
            return
        if listed:
            where = ngettext(
                "{count} legal cell: {names}", "{count} legal cells: {names}", count, names=listed
            )
        else:
            where = ngettext("{count} legal cell", "{count} legal cells", count)
        self.say(
            _(
                "{value} chosen: {where}. Click a cell, or move the cursor and press Enter.",
                value=value,
                where=where,
            )
        )

    def _legal_targets(self, value: int) -> list[int]:
        """The targets a piece ``value`` may be placed on now."""
        assert self.game is not None
        cells: set[int] = set()
        for action in self.game.legal_actions():
            match action:
                case Place(cell=cell, value=placed) if placed == value:
                    cells.add(cell)
        return sorted(cells)

    def board_clicked(self, x: int, y: int) -> None:
        if self.game is None:
            return
        target = self.surface.target_at(x, y, self.notes)
        if target is not None:
            self.cursor = target
            self.action_place_at_cursor()

    def action_cursor(self, dx: int, dy: int) -> None:
        if self.game is None:
            return
        self.cursor = self.surface.moved(self.cursor, dx, dy)
        self.refresh_all()

    def action_place_at_cursor(self) -> None:
        game = self.game
        if game is None or self.selected is None:
            if game is not None and self.human_seat() is not None:
                self.say(
                    by_piece(
                        game.game_type.piece,
                        token=lazy("Choose a token first (1-9, 0, . or click it)."),
                        tile=lazy("Choose a tile first (1-9, 0, . or click it)."),
                        card=lazy("Choose a card first (1-9, 0, . or click it)."),
                    )
                )
            return
        place = Place(self.cursor, self.selected)
        if game.game_type.has("extra") and "extra" in self.available:
            extra = Place(place.cell, place.value, True)
            placements = game.legal_placements()
            if place in placements and extra in placements:
                target = game.game_type.targets[place.cell]
                cell = target.name
                if target.kind == "restriction":
                    question = by_piece(
                        game.game_type.piece,
                        token=lazy(
                            "{cell} is a restriction square: take the extra token now? (rule C7)",
                            cell=cell,
                        ),
                        tile=lazy(
                            "{cell} is a restriction square: take the extra tile now? (rule C7)",
                            cell=cell,
                        ),
                    )
                else:
                    question = by_piece(
                        game.game_type.piece,
                        token=lazy("{cell}: take the extra token now? (rule C7)", cell=cell),
                        tile=lazy("{cell}: take the extra tile now? (rule C7)", cell=cell),
                    )

                def answered(yes: bool | None) -> None:
                    self.play(extra if yes else place)

                self.push_screen(QuestionScreen(question), answered)
                return
        self.play(place)

    def action_exchange(self) -> None:
        seat = self.human_seat()
        game = self.game
        if seat is None or game is None:
            return

        def chosen(values: tuple[int, ...] | None) -> None:
            if values:
                self.play(Exchange(values))

        kind = game.game_type
        screen = ExchangeScreen(game.view(seat).rack, kind.exchange_exactly, kind.piece)
        self.push_screen(screen, chosen)

    def action_undo(self) -> None:
        game = self.game
        if game is None:
            return
        before = self.viewer()
        try:
            game.undo()
            while game.to_move in self.bots and not game.is_over and taken_back(game):
                game.undo()  # take back the bots' replies too, back to a person
            game.apply(Shake.fresh())  # O5: what was drawn is back in the bag, shaken
        except MathableError as exc:
            self.say(str(exc), error=True)
            return
        self.say(_("Taken back."))
        self.selected = self.selected_index = None
        self.marks = {}
        if game.to_move != before:  # another person's turn again: cover their rack first
            self.covered_for = None
        self.refresh_all()
        self.next_turn()

    def action_hint(self) -> None:
        """The best turns for the person to move, found from that person's view; only
        when the hints house rule is on (O2)."""
        game = self.game
        if game is None:
            return
        if not game.house_rules.hints:
            self.say(_("Hints are off in this game (house rule, O2)."), error=True)
            return
        seat = self.human_seat()
        if seat is None:
            self.say(_("Hints are for the player to move, on their turn."), error=True)
            return
        view = game.view(seat)
        found = hints(view)
        if not found:
            others = [k for k in view.available if k not in ("place", "extra", "challenge")]
            # TRANSLATORS: a hint when there is nothing to place and nothing to do
            what = command_name(others[0]) if others else pgettext("hint", "wait")
            for other in others[1:]:
                # TRANSLATORS: two commands to choose from (each may be a list of them)
                what = pgettext(
                    "hint", "{first} or {second}", first=what, second=command_name(other)
                )
            self.say(_("Hint: nothing to place; {what}.", what=what))
            return
        marks: dict[int, str] = {}
        for action in found[0].actions:
            match action:
                case Place(cell=cell, value=value):
                    marks[cell] = str(value)
        self.marks = marks or {cell: "?" for cell in found[0].cells}
        turns = "; ".join(
            worded(h.notation) if h.points is None else f"{worded(h.notation)} ({h.points})"
            for h in found
        )
        self.say(_("Hint: {turns}", turns=turns))
