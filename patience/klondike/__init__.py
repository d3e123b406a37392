"""The pure rules engine of Klondike (RULES-KLONDIKE.md), turn-1 and turn-3.

Seven columns dealt 1 to 7 cards with the last face up, a 24-card stock turned
one or three cards at a time with unlimited redeals, four foundations built up
in suit from the ace, Windows scoring. Deal N is PySolFC's Klondike game N.
The public surface matches the other games'; ``rules.RULES`` is the game's
``patience.protocol.Rules``. Nothing here imports Django, Celery or the
project's apps.
"""

from ..errors import EngineError, IllegalMove, InvalidDeal, InvalidNotation
from ..protocol import Status
from .deals import (
    DEAL_COLUMNS,
    MAX_DEAL,
    MIN_DEAL,
    STOCK_SIZE,
    TABLEAU_SIZE,
    Deal,
    deal_from_number,
    deal_from_seed,
    deal_from_texts,
    parse_deal_number,
)
from .finish import can_finish, finishing_line
from .moves import (
    ALL_MOVES,
    COLUMN_HOME,
    COLUMNS,
    FOUNDATION_TO,
    FOUNDATIONS,
    REDEAL,
    RUN_MOVES,
    TURN,
    WASTE_HOME,
    WASTE_TO,
    Kind,
    Move,
    format_moves,
    parse_move,
    parse_moves,
)
from .position import BUILDS_ON, CARD_COUNT, Position, fits_home
from .variants import DEFAULT_VARIANT, TURN_1, TURN_3, VARIANTS, Variant, get_variant
from .views import KlondikeView, from_record, to_record, visible_view

__all__ = [
    "ALL_MOVES", "BUILDS_ON", "CARD_COUNT", "COLUMNS", "COLUMN_HOME", "DEAL_COLUMNS",
    "DEFAULT_VARIANT", "FOUNDATIONS", "FOUNDATION_TO", "MAX_DEAL", "MIN_DEAL", "REDEAL",
    "RUN_MOVES", "STOCK_SIZE", "TABLEAU_SIZE", "TURN", "TURN_1", "TURN_3", "VARIANTS",
    "WASTE_HOME", "WASTE_TO", "Deal", "EngineError", "IllegalMove", "InvalidDeal",
    "InvalidNotation", "Kind", "KlondikeView", "Move", "Position", "Status", "Variant",
    "can_finish", "deal_from_number", "deal_from_seed", "deal_from_texts", "finishing_line",
    "fits_home", "format_moves", "from_record", "get_variant", "new_game", "parse_deal_number",
    "parse_move", "parse_moves", "to_record", "visible_view",
]


def new_game(deal: int | Deal, variant: str | Variant = DEFAULT_VARIANT) -> Position:
    """A fresh position for a deal number (or Deal) and a variant (or slug)."""
    if not isinstance(deal, Deal):
        deal = deal_from_number(deal)
    if not isinstance(variant, Variant):
        variant = get_variant(variant)
    return Position(deal, variant)
