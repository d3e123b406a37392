"""What leaves the engine: the visible view and the storage record.

The visible view is everything a player has been shown and nothing else: the
whole waste (every waste card was turned face up), cells, foundations, the
number of cards in the stock, never their order. The record is the exact,
replayable form used for storage; it holds the deck and must stay on the
server.
"""

from __future__ import annotations

from typing import Any, Final, TypedDict

from ..cards import RANK_LETTERS, card_text, parse_card
from ..errors import InvalidDeal
from ..protocol import MovePath, PileView, View
from ..views import path, paths_and_pickable, pile_view
from .cross import achievements
from .deals import Deal, deal_from_number, parse_deal_number
from .moves import CELLS, FOUNDATIONS, TOMB, Kind, Move, format_moves, parse_moves
from .position import EMPTY, TOMB_CAPACITY, TOMB_RUN, Position
from .variants import get_variant

RECORD_FORMAT: Final = 1


def tomb_progress(position: Position) -> dict[str, Any]:
    """The tomb counter: the rank it wants and which time round it is on."""
    count = len(position.foundations[TOMB])
    if count == TOMB_CAPACITY:
        return {"wants": None, "round": TOMB_CAPACITY // TOMB_RUN, "complete": True}
    wants = RANK_LETTERS[position.wants[TOMB] - 1]
    return {"wants": wants, "round": count // TOMB_RUN + 1, "complete": False}


# "pass" is a keyword, so only the functional form can declare it.
_Pass = TypedDict("_Pass", {"pass": int})


class TombView(View, _Pass, total=False):
    """The Tomb's keys beside the common ones (docs/view-contract.md)."""

    waste: list[str]
    cells: dict[str, str | None]
    foundations: dict[str, list[str]]
    tomb: dict[str, Any]
    passes: int
    passes_left: int
    cross: bool
    achievements: list[str]


def visible_view(position: Position) -> TombView:
    """A JSON-ready picture of the table that carries no unseen card."""
    cells = position.cells
    legal, paths, pickable = paths_and_pickable(
        [(move.notation, move_path(move, position)) for move in position.legal_moves()])
    view: TombView = {
        "variant": position.variant.slug,
        "stock_count": len(position.stock),
        "waste": [card_text(card) for card in position.waste],
        "cells": {
            name: (None if cells[i] == EMPTY else card_text(cells[i]))
            for i, name in enumerate(CELLS)
        },
        "foundations": {
            name: [card_text(card) for card in position.foundations[i]]
            for i, name in enumerate(FOUNDATIONS)
        },
        "tomb": tomb_progress(position),
        "home": position.home,
        "pass": position.pass_number,
        "passes": position.variant.passes,
        "passes_left": position.passes_left,
        "moves": len(position.history),
        "log": [move.notation for move in position.moves],
        "legal": legal,
        "can_undo": bool(position.history),
        "status": position.status.value,
        "game": "napoleons-tomb",
        "piles": table_piles(position),
        "paths": paths,
        "pickable": pickable,
    }
    if position.variant.cross:
        # The cross places are the cells (same names, same table); say which rules hold.
        view["cross"] = True
        if position.home == len(position.deal.cards):
            view["achievements"] = achievements(position)
    return view


def table_piles(position: Position) -> dict[str, PileView]:
    """Every pile of the table by its name: all face up but the stock, a count."""
    piles = {
        "stock": pile_view([], len(position.stock)),
        "waste": pile_view(card_text(card) for card in position.waste),
    }
    for i, name in enumerate(CELLS):
        card = position.cells[i]
        piles[name] = pile_view([] if card == EMPTY else [card_text(card)])
    for i, name in enumerate(FOUNDATIONS):
        piles[name] = pile_view(card_text(card) for card in position.foundations[i])
    return piles


def move_path(move: Move, position: Position) -> MovePath:
    """Where a legal move lifts from and lands, for dragging, tapping and animation."""
    if move.kind is Kind.DRAW:
        return path("stock", "waste", min(position.variant.turn, len(position.stock)))
    if move.kind is Kind.REDEAL:
        return path("waste", "stock", len(position.waste))
    if move.kind is Kind.CROSS:
        return path(CELLS[move.place or 0], FOUNDATIONS[move.target or 0])
    names = FOUNDATIONS if move.kind is Kind.FOUNDATION else CELLS
    return path("waste", names[move.target or 0])


def to_record(position: Position) -> dict[str, Any]:
    """The exact storage form: variant, deal and the player's moves."""
    deal = position.deal
    return {
        "format": RECORD_FORMAT,
        "variant": position.variant.slug,
        "deal": deal.number,
        "seeded": deal.seeded,
        "cards": deal.texts,
        "moves": format_moves(position.moves),
    }


def from_record(record: dict[str, Any]) -> Position:
    """Rebuild a position from ``to_record``; raises ValueError if it is not one."""
    if not isinstance(record, dict) or type(record.get("format")) is not int or (
        record["format"] != RECORD_FORMAT
    ):
        raise InvalidDeal("not a game record of this engine")
    try:
        cards, moves = list(record["cards"]), str(record["moves"])
        variant = get_variant(record["variant"])
    except (KeyError, TypeError) as error:
        raise InvalidDeal(f"the game record is incomplete ({error})") from error
    number = record.get("deal")
    deal = Deal(
        cards=tuple(parse_card(text) for text in cards),
        number=None if number is None else parse_deal_number(number),
        seeded=bool(record.get("seeded")),
    )
    if deal.number is not None and deal_from_number(deal.number).cards != deal.cards:
        raise InvalidDeal(f"the record's cards are not those of deal {deal.number}")
    return Position.replay(deal, variant, parse_moves(moves))
