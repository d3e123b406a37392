"""Builders for the St. Helena tests: hand-set tables and readers.

(A plain module beside the tests, like ``engine_builders``: pytest puts this
directory on ``sys.path``.) A table is set on a fresh position of deal 1 by
hand: the rules read only the stock, the piles, the foundations and the
redeals left, so a test names just the cards that matter to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from patience.cards import RANK, parse_card, suit_of
from patience.sthelena import PILES, Position, new_game
from patience.sthelena.position import (
    ACE_FOUNDATIONS,
    FOUNDATION_SUIT,
    KING_FOUNDATIONS,
    base_card,
    wants_after,
)

FULL = 0  # a foundation height meaning "complete"


def cards(texts: str) -> list[int]:
    """Cards from texts (first-deck copies; the rules never tell the twins apart)."""
    return [parse_card(text) for text in texts.split()]


def set_table(
    piles: dict[str, str] | None = None,
    stock: str = "",
    wants: dict[str, int] | None = None,
    redeals_left: int = 2,
) -> Position:
    """A position with the given piles (bottom first), stock (top first) and the
    rank each named foundation wants (the others want their second card)."""
    position = new_game(1)
    position.piles = [cards((piles or {}).get(name, "")) for name in PILES]
    position.stock = list(reversed(cards(stock)))
    position.redeals_left = redeals_left
    names = ("k1", "k2", "k3", "k4", "a1", "a2", "a3", "a4")
    for foundation, name in enumerate(names):
        want = (wants or {}).get(name, wants_after(foundation, RANK[base_card(foundation)]))
        set_foundation(position, foundation, want)
    return position


def set_foundation(position: Position, foundation: int, wants: int) -> None:
    """Fill a foundation so that it wants ``wants`` (0: complete)."""
    suit = FOUNDATION_SUIT[foundation]
    if foundation in KING_FOUNDATIONS:
        ranks: Sequence[int] = range(13, wants, -1)
    else:
        assert foundation in ACE_FOUNDATIONS
        ranks = range(1, (wants or 14))
    pile = [suit * 13 + rank - 1 for rank in ranks]
    old = len(position.foundations[foundation])
    position.foundations[foundation] = pile
    position.wants[foundation] = wants
    position.home += len(pile) - old
    assert all(suit_of(card) == suit for card in pile)


def tops(position: Position) -> dict[str, str | None]:
    from patience.sthelena import text_of

    return {name: (text_of(pile[-1]) if pile else None)
            for name, pile in zip(PILES, position.piles, strict=True)}
