"""Napoleon's Tomb as a ``patience.protocol.Rules``: the engine behind one small object."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from ..cards import parse_card
from ..protocol import Pile, Table
from .cross import achievements, cross_table
from .deals import MAX_DEAL, MIN_DEAL, Deal, deal_from_number, deal_from_seed
from .finish import finishing_line
from .moves import Kind, Move, parse_move, parse_moves
from .position import Position
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant
from .views import from_record, to_record, visible_view

# Kinds of move that turn a card the player has not seen face up.
_REVEALING: Final = frozenset({Kind.DRAW, Kind.REDEAL})


def _tomb_table() -> Table:
    """The X: corners round the tomb, the cells between them, stock and waste beside."""
    corner = "7 up to K, any suit"
    cell = "one card from the waste; it goes home by itself when it fits"
    piles = (
        Pile("nw", "foundation", "north-west corner", 0, 0, corner, base="7"),
        Pile("n", "cell", "north cell", 0, 1, cell),
        Pile("ne", "foundation", "north-east corner", 0, 2, corner, base="7"),
        Pile("w", "cell", "west cell", 1, 0, cell),
        Pile("tomb", "foundation", "tomb", 1, 1, "6 down to A, any suit, four times", base="6"),
        Pile("e", "cell", "east cell", 1, 2, cell),
        Pile("sw", "foundation", "south-west corner", 2, 0, corner, base="7"),
        Pile("s", "cell", "south cell", 2, 1, cell),
        Pile("se", "foundation", "south-east corner", 2, 2, corner, base="7"),
        Pile("stock", "stock", "stock", 0, 3, "nothing: D turns it"),
        Pile("waste", "waste", "waste", 1, 3, "cards turned from the stock", fan="right"),
    )
    return Table(rows=3, cols=4, piles=piles, card_count=52)


class TombRules:
    """Napoleon's Tomb (RULES.md): one deck, an X of five foundations, four cells."""

    slug: Final = "napoleons-tomb"
    name: Final = "Napoleon's Tomb"
    card_count: Final = 52
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
        return Deal(cards=tuple(parse_card(text) for text in texts), number=number, seeded=seeded)

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
        """D and R turn cards; in the cross an X refills its place from the stock while
        the stock lasts (from the waste, whose cards are all in view, it shows nothing)."""
        if move.kind is Kind.CROSS:
            return bool(position.stock)
        return move.kind in _REVEALING

    def search_key(self, position: Position) -> Hashable:
        return (
            len(position.stock), tuple(position.waste), tuple(sorted(position.cells)),
            tuple(position.wants), position.redeals_left,
        )

    def finishing_line(self, position: Position) -> list[Move] | None:
        return finishing_line(position)

    def table(self, variant: Variant) -> Table:
        return cross_table() if variant.cross else _tomb_table()

    def achievements(self, position: Position) -> list[str]:
        return achievements(position)


RULES: Final = TombRules()
