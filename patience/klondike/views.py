"""What leaves the engine: the visible view and the storage record.

The view is what the player may see (RULES-KLONDIKE.md, "What a client may
see"): the face-up cards of the columns, the whole waste (every waste card was
turned face up; at turn-3 the board fans its top three), the foundations, and
only counts for the face-down cards of each column and for the stock. The
stock is a count in every pass: after R its cards were seen once, but their
order is exactly what a ranked attempt must not be able to read back. The
record is the exact, replayable form for storage; it holds the deck and stays
on the server.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from ..cards import card_text
from ..errors import InvalidDeal
from ..protocol import MovePath, PileView, Status, View
from ..views import path, paths_and_pickable, pile_view
from .deals import Deal, deal_from_number, deal_from_texts, parse_deal_number
from .moves import COLUMNS, FOUNDATIONS, Kind, Move, format_moves, parse_moves
from .position import Position, top_of_foundation
from .table import STOCK_NAME as STOCK
from .table import WASTE_NAME as WASTE
from .variants import get_variant

GAME_SLUG: Final = "klondike"
RECORD_FORMAT: Final = 1
_STATUS: Final[dict[Status, Literal["playing", "won", "lost"]]] = {
    Status.PLAYING: "playing", Status.WON: "won", Status.LOST: "lost",
}


class KlondikeView(View):
    """The common view plus Klondike's own keys."""

    score: int
    draw: int  # cards a D turns: 1 or 3
    redeals: int  # R played so far (unlimited)


def table_piles(position: Position) -> dict[str, PileView]:
    """Every pile by its view name; face-down cards and the stock only as counts."""
    piles = {
        STOCK: pile_view((), len(position.stock)),
        WASTE: pile_view(card_text(card) for card in position.waste),
    }
    for suit, name in enumerate(FOUNDATIONS):
        piles[name] = pile_view(
            card_text(top_of_foundation(suit, rank)) for rank in range(
                1, position.foundations[suit] + 1)
        )
    for i, name in enumerate(COLUMNS):
        piles[name] = pile_view(map(card_text, position.face_up(i)), position.down[i])
    return piles


def move_path(position: Position, move: Move) -> MovePath:
    """Where a legal move lifts from, where it lands and how many cards move as one."""
    kind = move.kind
    if kind is Kind.TURN:
        return path(STOCK, WASTE, min(position.variant.draw, len(position.stock)))
    if kind is Kind.REDEAL:
        return path(WASTE, STOCK, len(position.waste))
    source = move.source_name
    return path(WASTE if source == "w" else source, move.target_name, move.count)


def visible_view(position: Position) -> KlondikeView:
    """A JSON-ready picture of the table that carries no unseen card."""
    legal, paths, pickable = paths_and_pickable(
        [(move.notation, move_path(position, move)) for move in position.legal_moves()]
    )
    return {
        "game": GAME_SLUG,
        "variant": position.variant.slug,
        "piles": table_piles(position),
        "stock_count": len(position.stock),
        "home": position.home,
        "moves": len(position.history),
        "log": [move.notation for move in position.moves],
        "legal": legal,
        "paths": paths,
        "pickable": pickable,
        "can_undo": bool(position.history),
        "status": _STATUS[position.status],
        "score": position.score,
        "draw": position.variant.draw,
        "redeals": position.redeals,
    }


def to_record(position: Position) -> dict[str, Any]:
    """The exact storage form: variant, deal and the player's moves."""
    if position.constructed:
        raise InvalidDeal("a position set out by hand has no deal to record")
    deal = position.deal
    return {
        "format": RECORD_FORMAT,
        "game": GAME_SLUG,
        "variant": position.variant.slug,
        "deal": deal.number,
        "seeded": deal.seeded,
        "cards": deal.texts,
        "moves": format_moves(position.moves),
    }


def from_record(record: dict[str, Any]) -> Position:
    """Rebuild a position from ``to_record``; raises an EngineError if it is not one."""
    if not isinstance(record, dict) or type(record.get("format")) is not int or (
        record["format"] != RECORD_FORMAT or record.get("game", GAME_SLUG) != GAME_SLUG
    ):
        raise InvalidDeal("not a Klondike game record")
    try:
        cards, moves = list(record["cards"]), str(record["moves"])
        variant = get_variant(record["variant"])
    except (KeyError, TypeError) as error:
        raise InvalidDeal(f"the game record is incomplete ({error})") from error
    number = record.get("deal")
    deal: Deal = deal_from_texts(
        cards, None if number is None else parse_deal_number(number), bool(record.get("seeded"))
    )
    if deal.number is not None and deal_from_number(deal.number).cards != deal.cards:
        raise InvalidDeal(f"the record's cards are not those of deal {deal.number}")
    return Position.replay(deal, variant, parse_moves(moves))
