"""The pure rules engine of the two-deck "Гробница Наполеона" (RULES-TWO-DECK-TOMB.md).

Two decks, 104 distinct cards. Four walls of 11 face-down cards stand round a
square, each with a working card outside it that builds up in suit; four
King-based bases in the corners are built down twice round; one Ace pile sits
in the centre; the stock is dealt in five rounds onto 5, 4, 3, 2 and 1 waste
piles. The public surface matches the other games'; ``rules.RULES`` is the
game's ``patience.protocol.Rules``. Nothing here imports Django, Celery or the
project's apps.
"""

from ..errors import EngineError, IllegalMove, InvalidDeal, InvalidNotation
from ..protocol import Status
from .deals import (
    CARD_COUNT,
    MAX_DEAL,
    MIN_DEAL,
    STOCK_SIZE,
    Deal,
    deal_from_number,
    deal_from_seed,
    deal_from_texts,
    face,
    parse_deal_number,
    text_of,
)
from .finish import finishing_line
from .moves import (
    ALL_MOVES,
    BASES,
    CENTRE,
    DEAL,
    PLACES,
    REDEAL,
    WALLS,
    WASTES,
    Kind,
    Move,
    format_moves,
    parse_move,
    parse_moves,
)
from .position import Position
from .variants import DEFAULT_VARIANT, TWO_DECK_TOMB, VARIANTS, Variant, get_variant
from .views import TwoDeckView, from_record, to_record, visible_view

__all__ = [
    "ALL_MOVES", "BASES", "CARD_COUNT", "CENTRE", "DEAL", "DEFAULT_VARIANT", "MAX_DEAL",
    "MIN_DEAL", "PLACES", "REDEAL", "STOCK_SIZE", "TWO_DECK_TOMB", "VARIANTS", "WALLS",
    "WASTES", "Deal", "EngineError", "IllegalMove", "InvalidDeal", "InvalidNotation", "Kind",
    "Move", "Position", "Status", "TwoDeckView", "Variant", "deal_from_number",
    "deal_from_seed", "deal_from_texts", "face", "finishing_line", "format_moves",
    "from_record", "get_variant", "new_game", "parse_deal_number", "parse_move",
    "parse_moves", "text_of", "to_record", "visible_view",
]


def new_game(deal: int | Deal, variant: str | Variant = DEFAULT_VARIANT) -> Position:
    """A fresh position for a deal number (or Deal) and a variant (or slug)."""
    if not isinstance(deal, Deal):
        deal = deal_from_number(deal)
    if not isinstance(variant, Variant):
        variant = get_variant(variant)
    return Position(deal, variant)
