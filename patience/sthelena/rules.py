"""St. Helena as a ``patience.protocol.Rules``: the engine behind one small object."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

from ..cards import DECK_SIZE
from ..protocol import Phrases, Pile, Table
from ..words import gettext_noop as _
from .deals import MAX_DEAL, MIN_DEAL, Deal, deal_from_number, deal_from_seed, deal_from_texts
from .finish import finishing_line
from .guide import GUIDE
from .moves import FOUNDATIONS, PILES, Kind, Move, parse_move, parse_moves
from .position import CARD_COUNT, FOUNDATION_SUIT, Position
from .variants import DEFAULT_VARIANT, VARIANTS, Variant, get_variant
from .views import GAME_SLUG, StHelenaView, from_record, to_record, visible_view

# Grid places (row, col) of the twelve piles, clockwise from top left: p1..p4
# above the Kings, p5 right of the Kings, p6 right of the Aces, p7..p10 below
# the Aces right to left, p11 left of the Aces, p12 left of the Kings.
PILE_PLACES: Final = (
    (0, 1), (0, 2), (0, 3), (0, 4), (1, 5), (2, 5),
    (3, 4), (3, 3), (3, 2), (3, 1), (2, 0), (1, 0),
)
_KINGS_ONLY: Final = _("dealt cards; plays to the King foundations only while the stock lasts; "
                       "once it is empty, takes a card of the same suit one rank above or below")
_ANY: Final = _("dealt cards; plays to any foundation while the stock lasts; once it is "
                "empty, takes a card of the same suit one rank above or below")
_ACES_ONLY: Final = _("dealt cards; plays to the Ace foundations only while the stock lasts; "
                      "once it is empty, takes a card of the same suit one rank above or below")
_WHILE_STOCK: Final = (*[_KINGS_ONLY] * 4, _ANY, _ANY, *[_ACES_ONLY] * 4, _ANY, _ANY)
_PILE: Final = Phrases(_("from pile %(number)s"), _("to pile %(number)s"))
# Each foundation by the card it starts with: the Kings', then the Aces', by suit
# (clubs, spades, hearts, diamonds: patience.cards' order).
_KINGS_AND_ACES: Final = (
    (_("King of clubs"), _("clubs, down from the King to the ace"), Phrases(
        _("from the King of clubs"), _("to the King of clubs"))),
    (_("King of spades"), _("spades, down from the King to the ace"), Phrases(
        _("from the King of spades"), _("to the King of spades"))),
    (_("King of hearts"), _("hearts, down from the King to the ace"), Phrases(
        _("from the King of hearts"), _("to the King of hearts"))),
    (_("King of diamonds"), _("diamonds, down from the King to the ace"), Phrases(
        _("from the King of diamonds"), _("to the King of diamonds"))),
    (_("Ace of clubs"), _("clubs, up to the King"), Phrases(
        _("from the Ace of clubs"), _("to the Ace of clubs"))),
    (_("Ace of spades"), _("spades, up to the King"), Phrases(
        _("from the Ace of spades"), _("to the Ace of spades"))),
    (_("Ace of hearts"), _("hearts, up to the King"), Phrases(
        _("from the Ace of hearts"), _("to the Ace of hearts"))),
    (_("Ace of diamonds"), _("diamonds, up to the King"), Phrases(
        _("from the Ace of diamonds"), _("to the Ace of diamonds"))),
)


def st_helena_table() -> Table:
    """Twelve piles round two rows of foundations (Kings above Aces), the stock beside."""
    piles: list[Pile] = []
    for i, name in enumerate(PILES):
        row, col = PILE_PLACES[i]
        piles.append(Pile(name, "pile", _("pile %(number)s"), row, col, _WHILE_STOCK[i],
                          phrases=_PILE, number=i + 1))
    for i, name in enumerate(FOUNDATIONS):
        king = i < 4
        label, accepts, phrases = _KINGS_AND_ACES[FOUNDATION_SUIT[i] + (0 if king else 4)]
        piles.append(Pile(name, "foundation", label, 1 if king else 2, 1 + i % 4, accepts,
                          base="K" if king else "A", phrases=phrases))
    piles.append(Pile("stock", "stock", _("stock"), 0, 5,
                      _("nothing: D deals it onto the piles, R gathers them into it"),
                      phrases=Phrases(_("from the stock"), _("to the stock"), the=_("the stock"))))
    return Table(rows=4, cols=6, piles=tuple(piles), card_count=CARD_COUNT,
                 extras={"redeals": DEFAULT_VARIANT.redeals})


class StHelenaRules:
    """St. Helena: two decks, eight foundations, twelve piles, two redeals."""

    slug: Final = GAME_SLUG
    name: Final = _("St. Helena")
    guide: Final = GUIDE
    welcome: Final = _(
        "New here? Build the Kings down and the Aces up, in suit. While the stock lasts, "
        "the piles above the Kings play only to Kings, the piles below the Aces only to Aces.")
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

    def visible_view(self, position: Position) -> StHelenaView:
        return visible_view(position)

    def to_record(self, position: Position) -> dict[str, Any]:
        return to_record(position)

    def from_record(self, record: dict[str, Any]) -> Position:
        return from_record(record)

    def reveals(self, position: Position, move: Move) -> bool:
        """Only D shows cards: it turns stock cards face up. In the first round
        they were never seen; after R the stock is face down again, and though
        its cards were once on the table, the view never carries the stock's
        order, so a D then shows the player what the server had kept from
        them (and RULES' "a deal" is a move a ranked attempt never undoes).
        R turns cards face down and a pile move moves a face-up card onto a
        face-up place: neither shows anything."""
        return move.kind is Kind.DEAL

    def search_key(self, position: Position) -> Hashable:
        """The table up to which copy of a card is which (the two decks' twins
        play alike): stock order, piles, foundations' wants, redeals left."""
        return (
            bytes(card % DECK_SIZE for card in position.stock),
            tuple(bytes(card % DECK_SIZE for card in pile) for pile in position.piles),
            tuple(position.wants), position.redeals_left,
        )

    def finishing_line(self, position: Position) -> list[Move] | None:
        return finishing_line(position)

    def table(self, variant: Variant) -> Table:
        return st_helena_table()

    def score(self, position: Position) -> int | None:
        return None  # the game keeps no score: its boards rank by cards home and time

    def achievements(self, position: Position) -> list[str]:
        return []


RULES: Final = StHelenaRules()
