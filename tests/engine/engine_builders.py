"""Builders shared by the engine tests: hand-stacked decks and small readers.

Decks are written top of the stock first, as RULES.md and the deal fixtures
write them. A test names only the cards that matter to it; ``stacked`` puts
the other cards after them in a fixed order that starts with the kings, so a
test that turns a card too many meets a card that fits nowhere at the start
of a game rather than a helpful 6 or 7.

(This is a plain module, not a conftest: pytest puts this directory on
``sys.path``, so the test modules import it by name.)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

from patience.tomb import (
    CELLS,
    CLASSIC,
    FOUNDATIONS,
    THREE_CARD,
    Deal,
    IllegalMove,
    Position,
    Variant,
    card_text,
    deal_from_cards,
    parse_move,
    parse_moves,
    visible_view,
)

FIXTURES = Path(__file__).parent / "fixtures"
RANKS = "A23456789TJQK"
SUITS = "CSHD"
# Kings first, aces last: KC KS KH KD QC ... AH AD.
FILLER = tuple(rank + suit for rank in reversed(RANKS) for suit in SUITS)
CORNER_RUN = "789TJQK"
TOMB_RUN = "65432A"


def golden_deals() -> dict[int, list[str]]:
    """The pinned stock orders of tests/engine/fixtures/golden_deals.json."""
    document = json.loads((FIXTURES / "golden_deals.json").read_text())
    return {int(number): texts.split() for number, texts in document["deals"].items()}


def stacked(top: str | Iterable[str] = "") -> Deal:
    """A deck whose stock starts (top first) with ``top``, then ``FILLER``."""
    named = top.split() if isinstance(top, str) else list(top)
    assert len(set(named)) == len(named), f"a card is named twice in {named}"
    return deal_from_cards(named + [text for text in FILLER if text not in named])


def play(position: Position, moves: str) -> Position:
    for move in parse_moves(moves):
        position.apply(move)
    return position


def table(top: str | Iterable[str] = "", moves: str = "", variant: Variant = CLASSIC) -> Position:
    """A position of the stacked deck ``top`` after ``moves`` (classic by default).

    Classic is the default because there every D turns exactly one card, so
    the stacked order is the order the cards come into play.
    """
    return play(Position(stacked(top), variant), moves)


def texts(cards: Iterable[int]) -> list[str]:
    return [card_text(card) for card in cards]


def stock_texts(position: Position) -> list[str]:
    """The stock, top (next to be turned) first."""
    return texts(reversed(position.stock))


def waste_texts(position: Position) -> list[str]:
    """The waste, bottom first: the last one is the card in play."""
    return texts(position.waste)


def cell_texts(position: Position) -> dict[str, str | None]:
    return {
        name: (None if card == -1 else card_text(card))
        for name, card in zip(CELLS, position.cells, strict=True)
    }


def pile_texts(position: Position) -> dict[str, list[str]]:
    return {
        name: texts(pile) for name, pile in zip(FOUNDATIONS, position.foundations, strict=True)
    }


def assert_illegal(position: Position, move: str, message: str) -> None:
    """``move`` is refused with exactly ``message`` and changes nothing.

    ``==`` compares stock, waste, cells, foundations, passes and history; the
    view also covers what the foundations want and the legal moves.
    """
    before, view = position.copy(), visible_view(position)
    with pytest.raises(IllegalMove) as caught:
        position.apply(parse_move(move))
    assert str(caught.value) == message
    assert position == before
    assert visible_view(position) == view


def tomb_order() -> list[str]:
    """The 24 cards A-6 in the order the tomb takes them, suits mixed per round.

    Round r gives the i-th card of 6 5 4 3 2 A the suit SUITS[(i + r) % 4], so
    each round mixes suits and the four rounds use every A-6 exactly once.
    """
    return [
        TOMB_RUN[i] + SUITS[(i + round_) % 4] for round_ in range(4) for i in range(len(TOMB_RUN))
    ]


def home_order() -> list[str]:
    """All 52 cards in an order that can go straight home, one after another.

    Four corners of one suit each (7 up to K), then four tomb rounds.
    """
    corners = [rank + suit for suit in SUITS for rank in CORNER_RUN]
    return corners + tomb_order()


def winning_game(variant: Variant) -> tuple[Deal, str]:
    """A deck that is won by playing every card home as it comes, and those moves.

    In the three-card deal only the last of the three turned cards is in play,
    so each group of three is stacked in reverse: after D the first card of
    the home order is on top, then the second, then the third.
    """
    order = home_order()
    if variant == CLASSIC:
        return deal_from_cards(order), "D F " * len(order)
    assert variant == THREE_CARD
    deck: list[str] = []
    moves: list[str] = []
    for start in range(0, len(order), 3):
        group = order[start:start + 3]
        deck.extend(reversed(group))
        moves.append("D" + " F" * len(group))
    return deal_from_cards(deck), " ".join(moves)


def greedy_playout(position: Position, limit: int | None = None) -> int:
    """Play F when it can, else D or R, else C, until the game ends (or ``limit`` moves).

    Returns how many moves also moved cards out of the cells by themselves.
    """
    automatic = 0
    while (legal := position.legal_moves()) and (limit is None or limit > 0):
        move = min(legal, key=lambda m: "FDRC".index(m.notation[0]))
        home = visible_view(position)["home"]
        position.apply(move)
        if visible_view(position)["home"] > home + (move.notation[0] == "F"):
            automatic += 1
        limit = None if limit is None else limit - 1
    return automatic
