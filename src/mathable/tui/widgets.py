"""The pieces of the full-screen game's window: the surface, the rack and the command line
(which hand clicks and keys to the app), the score panel fitted to its width, the player
card, and typed text made safe to draw on one line."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual import events
from textual.widgets import Input, Static

from mathable.i18n import _, lazy, lazy_context, pgettext
from mathable.render.words import LEFT_MARKS

from .rules import by_piece


def shown(text: object) -> str:
    """A typed string (or a text of the engine, in the current language) as it can be
    drawn on one line: control characters (which a terminal would obey, not show) written
    as escapes; everything else, brackets included, as is."""
    return "".join(
        ch.encode("unicode_escape").decode("ascii") if unicodedata.category(ch) == "Cc" else ch
        for ch in str(text)
    )


def owner(name: str, piece: str) -> str:
    """Whose pieces the rack line shows: ``Ann's rack``, ``Your hand`` (for a player
    called You), one message each, as languages say it in their own order."""
    if name.strip().casefold() == "you":
        return by_piece(
            piece, token=lazy("Your rack"), tile=lazy("Your rack"), card=lazy("Your hand")
        )
    name = shown(name)
    # translated with the name first, then the word ("{name} : chevalet"): no article
    # or preposition that a name would have to agree with ("de Ann", issue 33)
    return by_piece(
        piece,
        # TRANSLATORS: the rack line's label. Put the name first, then a colon and the
        # word, so that no name needs an elision or an article: "{name} : chevalet"
        token=lazy_context("rack line", "{name}'s rack", name=name),
        tile=lazy_context("rack line", "{name}'s rack", name=name),
        # TRANSLATORS: the label of a player's hand of cards. Put the name first, then a
        # colon and the word, so no name needs an elision: "{name} : main"
        card=lazy_context("rack line", "{name}'s hand", name=name),
    )


def unit_word(unit: str) -> str:
    """The scores' column heading, in the current language: points, or rounds won in a
    match (the same messages as :data:`mathable.render.panels` shows)."""
    if unit == "rounds":
        # TRANSLATORS: a column heading of the scores: rounds won (Mathable Quattro)
        return pgettext("column", "rounds")
    # TRANSLATORS: a column heading of the scores: points scored
    return pgettext("column", "points") if unit == "points" else unit


def fit(text: str | Text, width: int) -> Text:
    """``text`` on one line of at most ``width`` cells, cut with an ellipsis if it must."""
    out = text.copy() if isinstance(text, Text) else Text(shown(text))
    out.no_wrap = True
    if out.cell_len > width:
        out.truncate(max(width, 1), overflow="ellipsis")
    return out


def card_text(unseen: Mapping[int, int]) -> Text:
    """C13's player card, whole in a narrow side panel: a run of three values or more,
    next to each other in the set and each unseen as many times, is written from its
    first to its last (``1…3×6``, ``16…90``: every value of the set from 16 to 90 once);
    ``m`` shows the card value by value (issue 33)."""
    # TRANSLATORS: the player card (C13): the values of the pieces not seen yet follow
    text = Text(_("unseen:") + " ", style="bold")
    runs: list[list[int]] = []  # [first, last, count, length]
    for value, count in unseen.items():
        if runs and count and runs[-1][2] == count:
            runs[-1][1] = value
            runs[-1][3] += 1
        else:
            runs.append([value, value, count, 1])
    parts: list[str] = []
    for first, last, count, length in runs:
        if not count:
            continue
        times = f"×{count}" if count > 1 else ""
        if length >= 3:
            parts.append(f"{first}…{last}{times}")
        else:
            between = [v for v in unseen if first <= v <= last]
            parts += [f"{v}{times}" for v in between]
    # TRANSLATORS: the player card (C13) when every piece has been seen
    text.append(" ".join(parts) if parts else pgettext("unseen", "none"))
    return text


@runtime_checkable
class Clickable(Protocol):
    """An app that takes clicks on the surface and the rack (:class:`MathableApp`): the
    widgets below it hand their clicks up without importing it."""

    def board_clicked(self, x: int, y: int) -> None: ...

    def rack_clicked(self, x: int, y: int = 0) -> None: ...


@dataclass(frozen=True)
class ScoreBoard:
    """Every player's name and score (and rack size), fitted to the width it is drawn in:
    one line a player when the names fit, else the name on a line of its own above the
    numbers, cut with an ellipsis only when even that line is too narrow (the move list,
    ``m``, and the cover show full names)."""

    players: tuple[str, ...]
    scores: tuple[int, ...]
    to_move: int | None
    rack_sizes: tuple[int, ...]
    unit: str
    rack_word: str
    left: tuple[str, ...] = ()
    """Per seat, why it left ("" while in): marked after its name, ``(resigned)``."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text("\n").join(self.lines(options.max_width))

    def lines(self, width: int) -> list[Text]:
        """The panel as lines of at most ``width`` cells."""
        scores = [str(s) for s in self.scores]
        sizes = [str(n) for n in self.rack_sizes]
        score_w = max(len(self.unit), *map(len, scores))
        size_w = max(len(self.rack_word), *map(len, sizes))
        marks_left = [
            # TRANSLATORS: beside a player's name in the scores: the player left the game
            f" ({LEFT_MARKS.get(why) or _('left')})" if why else ""
            for why in (self.left or ("",) * len(self.players))
        ]
        names_w = max(
            cell_len(shown(p)) + len(m) for p, m in zip(self.players, marks_left, strict=True)
        )
        room = width - 2 - 1 - score_w - 1 - size_w
        marks = ["▶ " if seat == self.to_move else "  " for seat in range(len(self.players))]
        out: list[Text] = []
        if room >= min(names_w, 12):
            name_w = min(names_w, room)
            player = pgettext("column", "player")
            head = f"  {player:<{name_w}} {self.unit:>{score_w}} {self.rack_word:>{size_w}}"
            out.append(fit(Text(head, style="bold"), width))
            for seat, name in enumerate(self.players):
                line = Text(marks[seat])
                line.append_text(self._label(name, marks_left[seat], name_w))
                line.pad_right(name_w - line.cell_len + 2)
                line.append(f" {scores[seat]:>{score_w}} {sizes[seat]:>{size_w}}")
                out.append(fit(line, width))
            return out
        out.append(fit(Text(f"{self.unit} · {self.rack_word}", style="bold"), width))
        for seat, name in enumerate(self.players):
            label = self._label(name, marks_left[seat], max(width - 2, 1))
            out.append(fit(Text(marks[seat]) + label, width))
            out.append(fit(f"  {scores[seat]} · {sizes[seat]}", width))
        return out

    @staticmethod
    def _label(name: str, mark: str, width: int) -> Text:
        """A name cut to ``width`` with its mark of a seat that left kept whole after it
        (while there is room for a few letters of the name)."""
        if not mark or width - len(mark) < 4:
            return fit(name + mark, width)
        return fit(name, width - len(mark)) + Text(mark, style="dim")


class SurfaceWidget(Static):
    """The board or the piles; clicks become targets."""

    can_focus = True

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, Clickable):
            app.board_clicked(event.x, event.y)


class RackView(Static):
    """The rack of the person at the screen, wrapped over as many lines as it needs; a
    click picks a piece."""

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, Clickable):
            app.rack_clicked(event.x, event.y)


class CommandLine(Input):
    """The line notation is typed in, every key taken in the order it came (issue 33).
    Textual runs a field's Enter, Backspace or arrows only once the key has gone round
    the app, after the letters typed since: typed fast, ``:F7=2⏎:F8=7⏎`` was sent as
    ``F7=2:F8=7``. Here they act at once, Enter empties the line as it sends it, and
    the board gets the keys back only once the app has read what was sent, if nothing
    was typed meanwhile (:meth:`MathableApp.on_input_submitted`)."""

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable:
            for binding in self._bindings.key_to_bindings.get(event.key, ()):
                event.stop()
                event.prevent_default()
                await self.run_action(binding.action)
                return
        await super()._on_key(event)

    async def action_submit(self) -> None:
        typed = self.value
        self.value = ""
        self.post_message(self.Submitted(self, typed))
