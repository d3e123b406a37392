"""What leaves the engine: the visible view and the storage record.

The view is what the player may see (RULES-TWO-DECK-TOMB.md, "Automatic moves
and secrecy"): each wall's top card with the cards under it as a count, the
working places, bases, centre and waste piles whole (every card there was
dealt or moved face up), and the stock as a count in every round: after R
its cards were seen once, but their order is what a ranked attempt must not
read back. The record is the exact, replayable form for storage; it holds the
deck and stays on the server.
"""

from __future__ import annotations

from typing import Any, Final

from ..errors import InvalidDeal
from ..protocol import MovePath, PileView, View
from ..views import path, paths_and_pickable, pile_view
from .deals import Deal, deal_from_number, deal_from_texts, parse_deal_number, text_of
from .moves import (
    BASES,
    CENTRE,
    PLACES,
    STOCK,
    WALLS,
    WASTES,
    Kind,
    Move,
    format_moves,
    parse_moves,
)
from .position import Position
from .variants import get_variant

GAME_SLUG: Final = "two-deck-tomb"
RECORD_FORMAT: Final = 1


class TwoDeckView(View):
    """The two-deck Tomb's keys beside the common ones (docs/view-contract.md)."""

    round: int  # 1..rounds
    rounds: int
    waste_piles: int  # how many waste piles a deal of this round fills


def _texts(cards: list[int]) -> list[str]:
    return [text_of(card) for card in cards]


def table_piles(position: Position) -> dict[str, PileView]:
    """Every pile by its name: a wall as its top card over a count, the stock a count."""
    piles = {STOCK: pile_view([], len(position.stock))}
    for name, wall in zip(WALLS, position.walls, strict=True):
        piles[name] = pile_view(_texts(wall[-1:]), max(len(wall) - 1, 0))
    for names, heaps in ((PLACES, position.places), (BASES, position.bases),
                         (WASTES, position.waste)):
        for name, heap in zip(names, heaps, strict=True):
            piles[name] = pile_view(_texts(heap))
    piles[CENTRE] = pile_view(_texts(position.centre))
    return piles


def move_path(position: Position, move: Move) -> MovePath:
    """Where a legal move lifts from and lands, for dragging, tapping and animation.

    A deal and a gathering move many cards between the stock and the waste piles:
    their path names the first waste pile and the cards moved."""
    if move.kind is Kind.DEAL:
        dealt = min(position.variant.waste_piles(position.round), len(position.stock))
        return path(STOCK, WASTES[0], dealt)
    if move.kind is Kind.REDEAL:
        return path(WASTES[0], STOCK, sum(len(pile) for pile in position.waste))
    source, target = move.notation.split("-")
    return path(source, target.split("x")[0], move.count)


def visible_view(position: Position) -> TwoDeckView:
    """A JSON-ready picture of the table that carries no unseen card."""
    legal, paths, pickable = paths_and_pickable(
        [(move.notation, move_path(position, move)) for move in position.legal_moves()])
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
        "status": position.status.value,
        "round": position.round,
        "rounds": position.variant.rounds,
        "waste_piles": position.variant.waste_piles(position.round),
    }


def to_record(position: Position) -> dict[str, Any]:
    """The exact storage form: variant, deal and the player's moves."""
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
        raise InvalidDeal("not a two-deck Tomb game record")
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
