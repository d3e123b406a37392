"""What leaves the engine: the visible view and the storage record.

Every card on a pile was dealt face up, so the view shows the piles whole
(bottom first) and the foundations; the stock is only a count, never its
order, in every round: after R the gathered piles are face down again until D
deals them. The record is the exact, replayable form for storage; it holds the
deck and stays on the server.
"""

from __future__ import annotations

from typing import Any, Final

from ..cards import RANK_LETTERS, SUIT_NAMES
from ..errors import InvalidDeal
from ..protocol import MovePath, PileView, View
from ..views import path, paths_and_pickable, pile_view
from .deals import Deal, deal_from_number, deal_from_texts, parse_deal_number, text_of
from .moves import FOUNDATIONS, PILE_COUNT, PILES, Kind, Move, format_moves, parse_moves
from .position import COMPLETE, FOUNDATION_SUIT, Position
from .variants import get_variant

GAME_SLUG: Final = "st-helena"
RECORD_FORMAT: Final = 1


class StHelenaView(View):
    """St. Helena's keys beside the common ones (docs/view-contract.md)."""

    redeals_left: int
    round: int
    stock_phase: bool
    foundations: dict[str, dict[str, Any]]


def table_piles(position: Position) -> dict[str, PileView]:
    """Every pile by its name: all face up but the stock, a count."""
    piles = {"stock": pile_view([], len(position.stock))}
    for i, name in enumerate(PILES):
        piles[name] = pile_view(text_of(card) for card in position.piles[i])
    for i, name in enumerate(FOUNDATIONS):
        piles[name] = pile_view(text_of(card) for card in position.foundations[i])
    return piles


def foundation_progress(position: Position) -> dict[str, dict[str, Any]]:
    """Each foundation's suit and the rank it wants next (None once complete)."""
    return {
        name: {
            "suit": SUIT_NAMES[FOUNDATION_SUIT[i]],
            "wants": None if position.wants[i] == COMPLETE
            else RANK_LETTERS[position.wants[i] - 1],
        }
        for i, name in enumerate(FOUNDATIONS)
    }


def move_path(position: Position, move: Move) -> MovePath:
    """Where a legal move lifts from and lands, for dragging, tapping and animation.

    A deal and a gathering move many cards between the stock and every pile; their
    path names the first pile it fills (or the last it gathers) and the cards moved."""
    if move.kind is Kind.DEAL:
        empty = [i for i in range(PILE_COUNT) if not position.piles[i]]
        return path("stock", PILES[empty[0] if empty else 0], min(len(position.stock), PILE_COUNT))
    if move.kind is Kind.REDEAL:
        return path(PILES[-1], "stock", sum(len(pile) for pile in position.piles))
    names = FOUNDATIONS if move.kind is Kind.HOME else PILES
    return path(PILES[move.source], names[move.target])


def visible_view(position: Position) -> StHelenaView:
    """A JSON-ready picture of the table that carries no unseen card."""
    legal, paths, pickable = paths_and_pickable(
        [(move.notation, move_path(position, move)) for move in position.legal_moves()])
    status = position.status
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
        "status": status.value,
        "redeals_left": position.redeals_left,
        "round": position.round_number,
        "stock_phase": position.stock_phase,
        "foundations": foundation_progress(position),
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
        raise InvalidDeal("not a St. Helena game record")
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
