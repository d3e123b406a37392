"""St. Helena as a ``patience.protocol.Rules``: the engine behind one small object."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from ..cards import DECK_SIZE, SUIT_NAMES
from ..protocol import Pile, Table
from .deals import MAX_DEAL, MIN_DEAL, Deal, deal_from_number, deal_from_seed, deal_from_texts
from .finish import finishing_line
from .moves import FOUNDATIONS, PILES, Kind, Move, parse_move, parse_moves
from .position import CARD_COUNT, FOUNDATION_SUIT, Position
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant
from .views import GAME_SLUG, from_record, to_record, visible_view

# Grid places (row, col) of the twelve piles, clockwise from top left: p1..p4
# above the Kings, p5 right of the Kings, p6 right of the Aces, p7..p10 below
# the Aces right to left, p11 left of the Aces, p12 left of the Kings.
PILE_PLACES: Final = (
    (0, 1), (0, 2), (0, 3), (0, 4), (1, 5), (2, 5),
    (3, 4), (3, 3), (3, 2), (3, 1), (2, 0), (1, 0),
)
_WHILE_STOCK: Final = (
    *(["to the King foundations only"] * 4), "to any foundation", "to any foundation",
    *(["to the Ace foundations only"] * 4), "to any foundation", "to any foundation",
)


def st_helena_table() -> Table:
    """Twelve piles round two rows of foundations (Kings above Aces), the stock beside."""
    piles: list[Pile] = []
    for i, name in enumerate(PILES):
        row, col = PILE_PLACES[i]
        accepts = (f"dealt cards; plays {_WHILE_STOCK[i]} while the stock lasts; once it is "
                   "empty, takes a card of the same suit one rank above or below")
        piles.append(Pile(name, "pile", f"pile {i + 1}", row, col, accepts))
    for i, name in enumerate(FOUNDATIONS):
        suit = SUIT_NAMES[FOUNDATION_SUIT[i]]
        king = i < 4
        piles.append(Pile(
            name, "foundation", f"{'King' if king else 'Ace'} of {suit}", 1 if king else 2,
            1 + i % 4, f"{suit}, {'down from the King to the ace' if king else 'up to the King'}",
            base="K" if king else "A",
        ))
    piles.append(Pile("stock", "stock", "stock", 0, 5,
                      "nothing: D deals it onto the piles, R gathers them into it"))
    return Table(rows=4, cols=6, piles=tuple(piles), card_count=CARD_COUNT,
                 extras={"redeals": DEFAULT_VARIANT.redeals})


class StHelenaRules:
    """St. Helena: two decks, eight foundations, twelve piles, two redeals."""

    slug: Final = GAME_SLUG
    name: Final = "St. Helena"
    card_count: Final = CARD_COUNT
    min_deal: Final = MIN_DEAL
    max_deal: Final = MAX_DEAL

    @property
    def variants(self) -> Mapping[str, Variant]:
        return VARIANTS

    @property
    def default_variant(self) -> Variant:
        return DEFAULT_VARIANT

    def new_game(self, deal: int | Deal, variant: str | Variant) -> Position:
        if not isinstance(deal, Deal):
            deal = deal_from_number(deal)
        return Position(deal, variant if isinstance(variant, Variant) else get_variant(variant))

    def deal_from_number(self, number: int) -> Deal:
        return deal_from_number(number)

    def deal_from_seed(self, seed: int) -> Deal:
        return deal_from_seed(seed)

    def deal_from_texts(self, texts: Sequence[str], number: int | None, seeded: bool) -> Deal:
        return deal_from_texts(texts, number, seeded)

    def parse_move(self, text: object) -> Move:
        return parse_move(text)

    def parse_moves(self, text: object) -> list[Move]:
        return parse_moves(text)

    def replay(self, deal: Deal, variant: Variant, moves: Sequence[Move]) -> Position:
        return Position.replay(deal, variant, moves)

    def visible_view(self, position: Position) -> dict[str, Any]:
        return visible_view(position)

    def to_record(self, position: Position) -> dict[str, Any]:
        return to_record(position)

    def from_record(self, record: dict[str, Any]) -> Position:
        return from_record(record)

    def reveals(self, position: Position, move: Move) -> bool:
        """Only D shows cards: it turns stock cards face up. In the first round
        they were never seen; after R the stock is face down again, and though
        its cards were once on the table, the view never carries the stock's
        order, so a D then shows the player what the server had kept from
        them (and RULES' "a deal" is a move a ranked attempt never undoes).
        R turns cards face down and a pile move moves a face-up card onto a
        face-up place: neither shows anything."""
        return move.kind is Kind.DEAL

    def search_key(self, position: Position) -> Hashable:
        """The table up to which copy of a card is which (the two decks' twins
        play alike): stock order, piles, foundations' wants, redeals left."""
        return (
            bytes(card % DECK_SIZE for card in position.stock),
            tuple(bytes(card % DECK_SIZE for card in pile) for pile in position.piles),
            tuple(position.wants), position.redeals_left,
        )

    def finishing_line(self, position: Position) -> list[Move] | None:
        return finishing_line(position)

    def table(self, variant: Variant) -> Table:
        return st_helena_table()

    def achievements(self, position: Position) -> list[str]:
        return []


RULES: Final = StHelenaRules()
