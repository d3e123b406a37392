"""The pure rules engine of Napoleon's Tomb (RULES.md).

The public surface is small and game-neutral so another patience can offer
the same one: a deal gives a position; a position lists its legal moves,
applies and undoes them, reports its status, and renders a visible view and a
storage record; moves round-trip through text notation. Nothing here imports
Django, Celery or the project's apps.
"""

from ..cards import Card, card_name, card_text, parse_card
from ..errors import EngineError, IllegalMove, InvalidDeal, InvalidNotation
from ..protocol import Status
from .deals import (
    MAX_DEAL,
    MIN_DEAL,
    Deal,
    deal_from_cards,
    deal_from_number,
    deal_from_seed,
    parse_deal_number,
)
from .finish import can_finish, finishing_line
from .moves import (
    ALL_MOVES,
    CELLS,
    CROSS_MOVES,
    FOUNDATIONS,
    Kind,
    Move,
    format_moves,
    parse_move,
    parse_moves,
)
from .position import Position
from .variants import CLASSIC, CROSS, DEFAULT_VARIANT, THREE_CARD, VARIANTS, Variant, get_variant
from .views import from_record, to_record, visible_view

__all__ = [
    "ALL_MOVES", "CELLS", "CLASSIC", "CROSS", "CROSS_MOVES", "DEFAULT_VARIANT", "FOUNDATIONS",
    "MAX_DEAL", "MIN_DEAL",
    "THREE_CARD", "VARIANTS", "Card", "Deal", "EngineError", "IllegalMove", "InvalidDeal",
    "InvalidNotation", "Kind", "Move", "Position", "Status", "Variant", "can_finish",
    "card_name", "card_text", "deal_from_cards", "deal_from_number", "deal_from_seed",
    "finishing_line", "format_moves", "from_record", "get_variant", "new_game", "parse_card",
    "parse_deal_number", "parse_move", "parse_moves", "to_record", "visible_view",
]

# What the solver needs of the table (cards by rank, the tomb's index, an empty
# cell, the moves its players name), exported so it reads no private module.
from ..cards import ALL_CARDS, RANK
from .moves import DRAW, REDEAL, TO_CELL, TO_FOUNDATION, TOMB
from .position import EMPTY, NO_RANK

__all__ += ["ALL_CARDS", "DRAW", "EMPTY", "NO_RANK", "RANK", "REDEAL", "TOMB", "TO_CELL",
            "TO_FOUNDATION"]


def new_game(deal: int | Deal, variant: str | Variant = DEFAULT_VARIANT) -> Position:
    """A fresh position for a deal number (or Deal) and a variant (or slug)."""
    if not isinstance(deal, Deal):
        deal = deal_from_number(deal)
    if not isinstance(variant, Variant):
        variant = get_variant(variant)
    return Position(deal, variant)
