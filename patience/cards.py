"""Cards as small integers, and their names.

A card is ``suit * 13 + rank - 1`` with suits in PySolFC's order (clubs,
spades, hearts, diamonds) and ranks 1 (ace) to 13 (king). Integers keep the
hot paths of the engine and the solver cheap; the text form (``7H``) is for
the notation and the views.
"""

from __future__ import annotations

from typing import Final

from .errors import InvalidNotation, echo

RANK_LETTERS: Final = "A23456789TJQK"
SUIT_LETTERS: Final = "CSHD"
RANK_NAMES: Final = (
    "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king",
)
SUIT_NAMES: Final = ("clubs", "spades", "hearts", "diamonds")

Card = int
DECK_SIZE: Final = 52
ALL_CARDS: Final = tuple(range(DECK_SIZE))
# RANK[card] is the card's rank 1..13: a table lookup beats arithmetic in CPython.
RANK: Final = tuple(card % 13 + 1 for card in ALL_CARDS)


def make_card(rank: int, suit: int) -> Card:
    return suit * 13 + rank - 1


def suit_of(card: Card) -> int:
    return card // 13


def card_text(card: Card) -> str:
    """``7H`` for the seven of hearts."""
    return RANK_LETTERS[RANK[card] - 1] + SUIT_LETTERS[suit_of(card)]


_CARD_BY_TEXT: Final = {card_text(card): card for card in ALL_CARDS}


def parse_card(text: str) -> Card:
    card = _CARD_BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
    if card is None:
        raise InvalidNotation(f"{echo(text)} is not a card (write rank then suit, like 7H or TS)")
    return card


def rank_phrase(rank: int) -> str:
    """``an 8``, ``a 4``, ``an ace``: a rank with its article, for messages."""
    name = RANK_NAMES[rank - 1]
    article = "an" if name[0] in "a8" else "a"
    return f"{article} {name}"


def card_name(card: Card) -> str:
    """``the 8 of hearts``: how a message names a card the player can see."""
    return f"the {RANK_NAMES[RANK[card] - 1]} of {SUIT_NAMES[suit_of(card)]}"
