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
"""

from django.dispatch import Signal

game_stored = Signal()
