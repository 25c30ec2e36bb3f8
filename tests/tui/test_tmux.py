"""``mathable play`` in a real terminal (tmux, 80×24), with no options, from the
keyboard alone (issue 33): the new-game screen is started with Enter, a turn played by
keys, and ``q`` saves and names the file."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from mathable.games import registry

TMUX = shutil.which("tmux")
"""``make test`` installs Debian's tmux; without it this test fails with that advice (it
never skips)."""

MATHABLE = Path(sys.executable).with_name("mathable")


class Tmux:
    """One tmux server of our own (its own socket), one window of 80×24."""

    def __init__(self, folder: Path) -> None:
        self.socket = f"mathable-test-{uuid.uuid4().hex[:8]}"
        self.folder = folder

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def start(self, command: str) -> None:
        env = {**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "en", "TERM": "xterm-256color"}
        env.pop("TMUX", None)
        subprocess.run(
            [
                *("tmux", "-L", self.socket, "-f", "/dev/null", "new-session", "-d"),
                *("-x", "80", "-y", "24", "-c", str(self.folder), command),
            ],
            check=True,
            env=env,
        )

    def screen(self) -> str:
        return self.run("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.run("send-keys", key)
            time.sleep(0.05)  # a person's pace; the app never needs it (it buffers)

    def wait(self, found: Callable[[str], bool], what: str, seconds: float = 30) -> str:
        """The screen once ``found`` holds of it (polled: a real terminal has no clock
        to inject); fails with the screen after ``seconds``."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            screen = self.screen()
            if found(screen):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{what} never showed:\n{self.screen()}")

    def stop(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def test_play_with_no_options_starts_and_plays_a_turn_by_keys(tmp_path: Path) -> None:
    assert TMUX is not None, "tmux is not installed: make test installs it (apt-get install tmux)"
    tmux = Tmux(tmp_path)
    tmux.start(f"{MATHABLE} play; sleep 30")
    try:
        tmux.wait(lambda s: "a new game" in s and "Start" in s, "the new-game screen")
        tmux.keys("Enter")  # the defaults: Ann, a person, against the computer
        tmux.wait(lambda s: "▶ Ann" in s and "thinking" not in s, "Ann's turn", 60)
        tmux.keys("h")  # hints are on at one screen (O2): the best turn, in notation
        screen = tmux.wait(lambda s: "Hint:" in s, "a hint")
        hint = re.search(r"Hint: ((?:[A-N]\d+=\d+\+? ?)+)", screen.replace("\n", ""))
        assert hint is not None, screen
        turn = hint[1].strip()
        tmux.keys(":", *turn.split(" ")[0], "Enter")  # one placement typed...
        for word in turn.split(" ")[1:]:
            tmux.keys(":", *word, "Enter")
        tmux.keys("e")  # ...then the turn ended (if the rack is not empty)
        tmux.wait(lambda s: re.search(r"\d\. Ann:", s) is not None, "Ann's turn in the moves")
        tmux.keys("q")
        screen = tmux.wait(lambda s: "Saved to" in s, "the file's name")
    finally:
        tmux.stop()
    (saved,) = tmp_path.glob("mathable-*.json")
    assert saved.name in screen.replace("\n", "")
    game = registry.from_record(saved.read_text())
    assert any(t.seat == 0 and t.notation.startswith(turn.split(" ")[0]) for t in game.summaries())
