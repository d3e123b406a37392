"""What the game app offers the apps built on it, so that it never imports them.

``game_stored`` is sent by ``actions`` each time a game is written (a move,
an undo, a counted hint), inside that write's transaction and under the
game's row lock, after the row is saved. A receiver that keeps figures about
games (the leaderboards app) writes them in the same transaction, so they can
never disagree with the game, and sends its own live events on commit.

Arguments: ``game`` (the saved Game), ``action`` ("move", "finish" (the
finishing line, many moves in one write), "undo" or "hint"),
``at`` (the server's time of the write), ``before_home`` and
``before_status`` (the game's cards home and status before it), and ``position``
(the position just stored: a receiver reads the last move from it rather than
replaying the log).

The quick move (``actions.amove``: a socket's move on the event loop, one
statement, no transaction to write in) sends no ``game_stored``. So it is taken
only where every receiver of ``game_stored`` has said, through ``quick_write``,
that it has nothing to write for that game (``allows``); after a quick move has
committed, each one's ``moved`` (if any) is called on the event loop with the same
arguments: it must do no I/O, only compute and send live events
(``game.events.send_to_group``: the acting socket sends them). A receiver that
never called ``quick_write`` keeps every game on the locked path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.dispatch import Signal

game_stored = Signal()


@dataclass(frozen=True, slots=True)
class QuickWrite:
    allows: Callable[[Any], bool]
    moved: Callable[..., None] | None = None
    prepare: Callable[[Any], None] | None = None


_quick: dict[str, QuickWrite] = {}


def quick_write(name: str, allows: Callable[[Any], bool],
                moved: Callable[..., None] | None = None,
                prepare: Callable[[Any], None] | None = None) -> None:
    """A receiver of ``game_stored`` (``name``: its dispatch_uid) says which games it
    lets the quick move write (``allows(game)``), what it does after one (``moved``), and
    what it reads ahead (``prepare(game)``, sync code that may query: called as a board's
    socket opens, so that its first move may be quick too)."""
    _quick[name] = QuickWrite(allows, moved, prepare)


def prepare_quick_writes(game: Any) -> None:
    """A board opens on ``game``: the receivers read what its quick moves will need."""
    for quick in _quick.values():
        if quick.prepare is not None:
            quick.prepare(game)


def allows_quick_write(game: Any) -> bool:
    """Every receiver of game_stored has nothing to write for this game's move."""
    if len(game_stored.receivers) > len(_quick):
        return False  # one of them said nothing: it may write rows in the move's transaction
    return all(quick.allows(game) for quick in _quick.values())


def moved_quickly(**arguments: Any) -> None:
    """A quick move committed: tell the receivers that asked (game_stored's arguments)."""
    for quick in _quick.values():
        if quick.moved is not None:
            quick.moved(**arguments)
