"""Klondike as a ``patience.protocol.Rules``: the engine behind one small object."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from ..protocol import Table
from ..words import gettext_noop as _
from .deals import MAX_DEAL, MIN_DEAL, Deal, deal_from_number, deal_from_seed, deal_from_texts
from .finish import finishing_line
from .guide import GUIDE
from .moves import Kind, Move, parse_move, parse_moves
from .position import CARD_COUNT, Position
from .table import klondike_table
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant
from .views import GAME_SLUG, KlondikeView, from_record, to_record, visible_view


class KlondikeRules:
    """Klondike: seven columns, a stock turned one or three cards at a time, unlimited redeals."""

    slug: Final = GAME_SLUG
    name: Final = _("Klondike")
    welcome: Final = _(
        "New here? Build each suit up from Ace to King; in the columns, lay cards down a "
        "rank at a time in alternating colours.")
    guide: Final = GUIDE
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

    def visible_view(self, position: Position) -> KlondikeView:
        return visible_view(position)

    def to_record(self, position: Position) -> dict[str, Any]:
        return to_record(position)

    def from_record(self, record: dict[str, Any]) -> Position:
        return from_record(record)

    def reveals(self, position: Position, move: Move) -> bool:
        """D turns stock cards face up: in the first pass they were never seen, and
        after R the view never carried the stock's order, so a D shows what the
        server kept back. A move that leaves a face-down card at a column's end turns
        it up. Nothing else shows a card: R turns cards face down, and the other
        moves carry face-up cards onto face-up places."""
        kind = move.kind
        if kind is Kind.TURN:
            return True
        if kind is Kind.COLUMN_TO_COLUMN or kind is Kind.COLUMN_TO_FOUNDATION:
            left = len(position.columns[move.source]) - move.count
            return left > 0 and left == position.down[move.source]
        return False

    def search_key(self, position: Position) -> Hashable:
        """The whole state but the history: columns (with how many face down), stock,
        waste, foundations, redeals made and score. A search that only asks "can it
        be won" may drop the last two; the score and redeals are kept here so that
        equal keys mean equal views."""
        return (
            tuple(map(bytes, position.columns)), bytes(position.down), bytes(position.stock),
            bytes(position.waste), bytes(position.foundations), position.redeals,
            position.score,
        )

    def finishing_line(self, position: Position) -> list[Move] | None:
        return finishing_line(position)

    def table(self, variant: Variant) -> Table:
        return klondike_table(variant)

    def score(self, position: Position) -> int | None:
        """The Windows score (RULES-KLONDIKE.md, "Score")."""
        return position.score

    def achievements(self, position: Position) -> list[str]:
        return []


RULES: Final = KlondikeRules()
