"""The two-deck Tomb as a ``patience.protocol.Rules``: the engine behind one small object."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from ..protocol import Table
from ..words import gettext_noop as _
from .deals import (
    CARD_COUNT,
    MAX_DEAL,
    MIN_DEAL,
    Deal,
    deal_from_number,
    deal_from_seed,
    deal_from_texts,
    face,
)
from .finish import finishing_line
from .guide import GUIDE
from .moves import FIRST_PLACE, Kind, Move, parse_move, parse_moves
from .position import Position
from .table import two_deck_table
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant
from .views import GAME_SLUG, TwoDeckView, from_record, to_record, visible_view


def _faces(cards: list[int]) -> bytes:
    return bytes(face(card) for card in cards)


class TwoDeckRules:
    """The two-deck Tomb: four walls, four working places, bases twice round, one centre."""

    slug: Final = GAME_SLUG
    name: Final = _("Napoleon's Tomb, two decks")
    welcome: Final = _(
        "New here? Build the four corners down from the King to the Ace, twice round in "
        "each suit; working cards beside the walls build up in suit.")
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

    def visible_view(self, position: Position) -> TwoDeckView:
        return visible_view(position)

    def to_record(self, position: Position) -> dict[str, Any]:
        return to_record(position)

    def from_record(self, record: dict[str, Any]) -> Position:
        return from_record(record)

    def reveals(self, position: Position, move: Move) -> bool:
        """D turns stock cards face up (in round 1 never seen; later the view never
        carried the stock's order). A move from a wall uncovers the wall's next card
        (RULES: "moving a wall's top card" reveals, so it counts even for a wall's last
        card). A move that empties a working place whose wall still holds cards
        refills it from that wall, which uncovers the next. Nothing else shows a card:
        R turns cards face down, and the other moves carry face-up cards between
        face-up places."""
        if move.kind is Kind.DEAL:
            return True
        if move.kind is Kind.REDEAL:
            return False
        if move.from_wall:
            return True
        if move.from_place:
            place = move.source - FIRST_PLACE
            return len(position.places[place]) == move.count and bool(position.walls[place])
        return False

    def search_key(self, position: Position) -> Hashable:
        """The table up to which twin is which (twins play alike): walls, working
        places, bases, centre, waste piles, stock and round, by face."""
        return (
            tuple(map(_faces, position.walls)), tuple(map(_faces, position.places)),
            tuple(map(_faces, position.bases)), _faces(position.centre),
            tuple(map(_faces, position.waste)), _faces(position.stock), position.round,
        )

    def finishing_line(self, position: Position) -> list[Move] | None:
        return finishing_line(position)

    def table(self, variant: Variant) -> Table:
        return two_deck_table(variant)

    def score(self, position: Position) -> int | None:
        return None  # the game keeps no score: its boards rank by cards home and time

    def achievements(self, position: Position) -> list[str]:
        return []


RULES: Final = TwoDeckRules()
