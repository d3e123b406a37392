"""Whether a game's last move may be taken back: one decision for the undo action and
for the ``can_undo`` every payload carries (the board never decides it by a move's
letters, which differ from game to game).

A win of a ranked daily or a race is final. In a ranked game or a race a move that
showed a new card (the game's ``reveals``: a stock turn, a refill, a deal, a flip)
cannot be undone: else turn through the stock, undo to the start, and play with the
order known (DESIGN.md, "Daily challenge")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from .models import Game, Status


def undo_refusal(game: Game, position: Any) -> str | None:
    """Why the last move of ``position`` (the game's current one) may not be undone,
    in the reader's language; None when it may (or when there is nothing to undo)."""
    if not position.moves:
        return None
    if game.status == Status.WON and (game.race or game.ranked):
        return (gettext("a won race is final: it cannot be undone") if game.race
                else gettext("a won ranked daily is final: it cannot be undone"))
    if not (game.ranked or game.race):
        return None
    before = position.copy()
    last = before.undo()
    if not game.rules.reveals(before, last):
        return None
    if game.race:
        return gettext("in a race a move that showed a new card "
                       "(%(move)s) cannot be undone") % {"move": last.notation}
    return gettext("in a ranked daily a move that showed a new card "
                   "(%(move)s) cannot be undone") % {"move": last.notation}


def can_undo(game: Game, position: Any) -> bool:
    return bool(position.moves) and undo_refusal(game, position) is None
