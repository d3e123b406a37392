"""The pure rules engine of St. Helena (RULES-CROSS-AND-ST-HELENA.md, section 2).

Two decks never mixed, eight foundations (Kings down, Aces up, in suit),
twelve piles dealt from a 96-card stock, first-round restrictions while the
stock lasts, builds in suit once it is empty, two redeals. The public surface
matches the Tomb's; ``rules.RULES`` is the game's ``patience.protocol.Rules``.
Nothing here imports Django, Celery or the project's apps.
"""

from ..errors import EngineError, IllegalMove, InvalidDeal, InvalidNotation
from ..protocol import Status
from .deals import (
    MAX_DEAL,
    MIN_DEAL,
    STOCK_SIZE,
    Deal,
    deal_from_number,
    deal_from_seed,
    deal_from_texts,
    parse_deal_number,
    text_of,
)
from .finish import finishing_line
from .moves import FOUNDATIONS, PILES, Kind, Move, format_moves, parse_move, parse_moves
from .position import CARD_COUNT, Position
from .variants import DEFAULT_VARIANT, ST_HELENA, VARIANTS, Variant, get_variant
from .views import from_record, to_record, visible_view

__all__ = [
    "CARD_COUNT", "DEFAULT_VARIANT", "FOUNDATIONS", "MAX_DEAL", "MIN_DEAL", "PILES",
    "STOCK_SIZE", "ST_HELENA", "VARIANTS", "Deal", "EngineError", "IllegalMove", "InvalidDeal",
    "InvalidNotation", "Kind", "Move", "Position", "Status", "Variant", "deal_from_number",
    "deal_from_seed", "deal_from_texts", "finishing_line", "format_moves", "from_record",
    "get_variant", "new_game", "parse_deal_number", "parse_move", "parse_moves", "text_of",
    "to_record", "visible_view",
]


def new_game(deal: int | Deal, variant: str | Variant = DEFAULT_VARIANT) -> Position:
    """A fresh position for a deal number (or Deal) and a variant (or slug)."""
    if not isinstance(deal, Deal):
        deal = deal_from_number(deal)
    if not isinstance(variant, Variant):
        variant = get_variant(variant)
    return Position(deal, variant)
