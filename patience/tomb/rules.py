"""Napoleon's Tomb as a ``patience.protocol.Rules``: the engine behind one small object."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from ..cards import parse_card
from ..protocol import Table
from ..words import gettext_noop as _
from .cross import achievements, cross_table
from .deals import MAX_DEAL, MIN_DEAL, Deal, deal_from_number, deal_from_seed
from .finish import finishing_line
from .moves import Kind, Move, parse_move, parse_moves
from .position import Position
from .table import tomb_table
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant
from .views import TombView, from_record, to_record, visible_view

# Kinds of move that turn a card the player has not seen face up.
_REVEALING: Final = frozenset({Kind.DRAW, Kind.REDEAL})


class TombRules:
    """Napoleon's Tomb (RULES.md): one deck, an X of five foundations, four cells."""

    slug: Final = "napoleons-tomb"
    name: Final = _("Napoleon's Tomb")
    guide: Final = None  # its page is the site's own (game/rules/<game>.html) or the table's
    welcome: Final = _(
        "New here? Build the corners up from 7 to King and the tomb down from 6 to Ace, "
        "four times round.")
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

    def visible_view(self, position: Position) -> TombView:
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
        return cross_table() if variant.cross else tomb_table()

    def score(self, position: Position) -> int | None:
        return None  # the game keeps no score: its boards rank by cards home and time

    def achievements(self, position: Position) -> list[str]:
        return achievements(position)


RULES: Final = TombRules()
