"""Drawing the full-screen game: every widget refreshed from the view of the person at the
screen, never from asking which game it holds."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.text import Text

from mathable.ai.turnreasons import turn_reasons
from mathable.engine.protocol import View
from mathable.i18n import Text as LazyText
from mathable.i18n import _, pgettext
from mathable.render import panels

from .rules import worded
from .screens import styled
from .seats import SeatsApp
from .widgets import ScoreBoard, card_text, fit, owner, shown, unit_word

TILE = 5
"""Characters per rack piece: four for the value, one space."""
MIN_WIDTH = 80
"""The narrowest terminal for any game: the key bar needs it."""
SIDE_MIN = 16
"""The narrowest side panel (scores, player card, moves), its border included."""
BELOW_BOARD = 7
"""Lines under the board at the smallest size: a rack line, the command line, four
message lines (turns, message, status) and the key bar."""


class DrawingApp(SeatsApp):
    """The game drawn from the view of the person at the screen: the surface with its
    marks and cursor, the rack, the messages, the scores and the move list, fitted to
    the terminal (or a request to enlarge it)."""

    def say(self, text: str | Text, *, error: bool = False) -> None:
        """Show a message under the board (``text`` is never read as markup)."""
        message = text.copy() if isinstance(text, Text) else Text(text)
        if error:
            message.stylize("bold red")
        self.message = message
        if self.widgets and self.game is not None:
            self.refresh_all()

    def minimum_size(self) -> tuple[int, int]:
        """The smallest terminal the game in play is whole in: its surface beside the
        narrowest side panel, and the rack, command, message lines and key bar below."""
        assert self.game is not None
        drawing = self._surface_drawing(self.game.view(None))
        width = max((cell_len(line.plain) for line in drawing.split()), default=0)
        height = len(drawing.split())
        return max(width + SIDE_MIN, MIN_WIDTH), height + BELOW_BOARD

    def _surface_drawing(self, view: View) -> Text:
        """The surface and its legend as one text (the legend only if the game has one)."""
        surface = self.surface
        drawing = surface.draw(
            view.surface,
            recent=view.recent_targets,
            marks=self.marks,
            cursor=self.cursor if self.viewer() is not None else None,
            notes=view.target_notes,
        )
        legend = surface.legend()
        if legend.plain:
            drawing = drawing.copy()
            drawing.append_text(legend)
        drawing.rstrip()
        return drawing

    def _fit(self) -> bool:
        """Show the game, or a request to enlarge the terminal below its minimum size."""
        need_w, need_h = self.minimum_size()
        width, height = self.size
        small = width < need_w or height < need_h
        for part in self.parts:
            part.display = not small
        notice = self.widgets["too-small"]
        notice.display = small
        if small:
            notice.update(
                Text(
                    _(
                        "enlarge the terminal to at least {needed}\n(it is {size}; q quits)",
                        needed=f"{need_w}×{need_h}",
                        size=f"{width}×{height}",
                    ),
                    justify="center",
                )
            )
        return not small

    def refresh_all(self) -> None:
        game = self.game
        if game is None or not self.widgets or not self.widgets["board"].is_attached:
            return  # before the screen is built, or after it is gone (a late timer)
        if not self._fit():
            return
        seat = self.viewer()
        view = game.view(seat)
        self.available = frozenset(view.available)
        self.notes = view.target_notes
        self.widgets["board"].update(self._surface_drawing(view))
        rack = self._rack(view, seat)
        self.widgets["rack"].update(rack)
        board_lines = self.minimum_size()[1] - BELOW_BOARD
        # what the board, the rack, the command line and the key bar leave to messages
        room = self.size.height - board_lines - len(rack.split()) - 2
        self.widgets["message"].update(self._messages(view, room))
        self.widgets["status"].update(self._status(view))
        self.widgets["card"].update(card_text(view.unseen))
        self.widgets["moves"].update(self._move_list(view, newest_first=True))
        self.refresh_bindings()

    def _rack(self, view: View, seat: int | None) -> Text:
        """The pieces of the person at the screen, wrapped; the racks left once the game
        is over; else a word on why none is shown."""
        assert self.game is not None
        kind = self.game.game_type
        if view.over:
            left = self._racks_left(view)
            return Text("\n").join(left) if left else Text("")
        if seat is None:
            if self.waiting_cover:
                return Text(_("(the screen is covered)"), style="dim")
            # TRANSLATORS: under the board when nobody's rack is shown (computers play)
            return Text(_("(watching)"), style="dim")
        per_line = self._per_line()
        tiles = Text()
        for index, value in enumerate(view.playable):
            if index and index % per_line == 0:
                tiles.append("\n")
            chosen = index == self.selected_index
            tiles.append(
                f"{value:^{TILE - 1}}",
                style="bold black on yellow" if chosen else "bold black on white",
            )
            tiles.append(" ")
        whose = owner(view.players[seat], kind.piece)
        if len(view.playable) > 9:
            whose = _("{owner} (1-9, 0, then . and ,)", owner=whose)
        last = tiles.plain.rsplit("\n", 1)[-1]
        room = self.size.width - cell_len(last) - 1
        if cell_len(whose) > room:
            tiles.append("\n")
            room = self.size.width
        tiles.append_text(fit(Text(" " + whose, style="dim"), room))
        return tiles

    def _per_line(self) -> int:
        """Rack pieces per line at the present width."""
        return max(1, self.size.width // TILE)

    def _racks_left(self, view: View) -> list[Text]:
        """At the end: each player's pieces left and what they cost (C11), one line each."""
        assert self.game is not None
        kind = self.game.game_type
        if not view.open_racks or not any(view.open_racks):
            return []
        deducted = view.to_dict().get("deductions")
        lines = []
        for seat, rack in enumerate(view.open_racks):
            name = fit(view.players[seat], 24)
            if rack:
                pieces = " ".join(map(str, rack))
                line = styled(_("{name}: {pieces} left", pieces=pieces), name=name)
            else:
                line = styled(_("{name}: nothing left"), name=name)
            if isinstance(deducted, list) and seat < len(deducted) and kind.deducts_rack:
                line.append(f", −{deducted[seat]}", style="bold")
            lines.append(fit(line, max(self.size.width, 20)))
        return lines

    def _messages(self, view: View, lines: int) -> Text:
        """The message block, at most ``lines`` lines: the other players' turns since
        the person at the screen last played (every computer action), the last message,
        and the game's status with a thinking mark while a computer plays."""
        assert self.game is not None
        width = max(self.size.width, 20)
        status = Text()
        if view.status:
            status.append(str(view.status), style="bold")
        if self.thinking is not None:
            if status.plain:
                status.append("   ")
            name = shown(view.players[self.thinking])
            status.append(_("{name} is thinking…", name=name), style="italic")
        message = self.message.copy()
        message_lines = len(message.wrap(Console(width=width), width)) if message.plain else 0
        kept: list[Text] = []
        if status.plain:
            kept.append(fit(status, width))
        room = max(lines - len(kept), 0)
        if message.plain and message_lines <= room:
            room -= message_lines
        elif message.plain:
            message = fit(message, width)
            room -= 1
        turns = self._recent_turns(view)[-room:] if room > 0 else []
        block = [*turns, *([message] if message.plain else []), *kept]
        return Text("\n").join(block)

    def _recent_turns(self, view: View) -> list[Text]:
        """The turns played since the person at the screen last played, as the game
        writes them, and the actions of a computer turn under way."""
        assert self.game is not None
        kind = self.game.game_type
        width = max(self.size.width, 20)
        person = self.viewer()
        if person is None and not view.over and view.to_move not in self.bots:
            person = view.to_move
        mine = [i for i, t in enumerate(view.summaries) if t.seat == person]
        start = mine[-1] + 1 if mine else 0
        start = max(start, len(view.summaries) - len(view.players) + 1)
        out = [
            fit(panels.summary_text(view.players, turn, kind), width)
            for turn in view.summaries[start:]
        ]
        if self.bot_seat is not None and self.bot_actions:
            line = Text(shown(view.players[self.bot_seat]), style="bold")
            line.append(" " + " ".join(self.bot_actions) + " …")
            out.append(fit(line, width))
        return out

    def _status(self, view: View) -> RenderableType:
        """Every player's name and score (with rack sizes) and the bag."""
        assert self.game is not None
        kind = self.game.game_type
        board = ScoreBoard(
            view.players,
            view.scores,
            None if view.over else view.to_move,
            view.rack_sizes,
            unit_word(kind.score_unit),
            panels.holder(kind),
            view.left,
        )
        if kind.piece == "card":
            # TRANSLATORS: how many cards are left in Mathable Quattro's reserve
            extra = Text(_("reserve: {count}", count=view.bag_size))
        else:
            # TRANSLATORS: how many tokens or tiles are left in the bag
            extra = Text(_("bag: {count}", count=view.bag_size))
        return Group(board, extra)

    def _move_list(self, view: View, *, newest_first: bool = False) -> Text:
        """The finished turns as the game writes them (``view.summaries``), every one,
        wrapped to the width; in the side panel the newest first (its box scrolls)."""
        assert self.game is not None
        points = self.game.game_type.score_unit == "points"
        # TRANSLATORS: the heading of the list of turns played
        out = Text(pgettext("panel", "moves"), style="bold")
        turns = list(enumerate(view.summaries, start=1))
        reasons = self._computer_reasons()
        for number, turn in reversed(turns) if newest_first else turns:
            line = Text(f"{number:>3}. ")
            line.append(shown(view.players[turn.seat]))
            line.append(f": {worded(turn.notation)}")
            if points:
                line.append(f" ({turn.points})")
            if turn.note:
                line.append(f", {shown(turn.note)}", style="italic")
            reason = reasons.get(number - 1)
            if reason is not None:  # issue 35: why a computer exchanged or passed
                line.append(f" — {shown(str(reason))}", style="italic")
            out.append("\n")
            out.append_text(line)
        return out

    def _computer_reasons(self) -> dict[int, LazyText]:
        """Why each computer's exchange or pass was no placement (issue 35), by finished
        turn: worked out once per turn and kept with the game
        (:mod:`mathable.ai.turnreasons`; about 0.1 ms a turn, a tenth of a second at most
        where placements were open), never again on a redraw."""
        assert self.game is not None
        found = turn_reasons(self.game, self.bots)
        if found is None:
            return {}
        found.explain_waiting()
        return found.reasons
