"""Klondike's table as data, in words marked for the translators (``patience.words``):
the stock, the waste and the four foundations in a row, the seven columns below.

The stock's and the waste's words are the Tomb's own msgids, so the catalogs
already hold them; a column is numbered as St. Helena's piles are
("column %(number)s", filled in after translation)."""

from __future__ import annotations

from typing import Final

from ..protocol import Phrases, Pile, Table
from ..words import gettext_noop as _
from .moves import COLUMNS, FOUNDATIONS
from .position import CARD_COUNT
from .variants import Variant

STOCK_NAME: Final = "stock"
WASTE_NAME: Final = "waste"  # the view's and the table's name of the notation's "w"

_STOCK_PHRASES: Final = Phrases(_("from the stock"), _("to the stock"), the=_("the stock"))
_STOCK_ACCEPTS: Final = {
    1: _("nothing: D turns one card onto the waste, R turns the waste back over once the "
         "stock is empty"),
    3: _("nothing: D turns three cards onto the waste, R turns the waste back over once the "
         "stock is empty"),
}
_WASTE: Final = (_("waste"), _("cards turned from the stock; only the top one is in play"),
                 Phrases(_("from the waste"), _("to the waste"), the=_("the waste")))
# By suit, in patience.cards' order (clubs, spades, hearts, diamonds): f1..f4.
_FOUNDATIONS: Final = (
    (_("clubs foundation"), _("the ace of clubs, then each club in order up to the King"),
     Phrases(_("from the clubs foundation"), _("to the clubs foundation"),
             the=_("the clubs foundation"))),
    (_("spades foundation"), _("the ace of spades, then each spade in order up to the King"),
     Phrases(_("from the spades foundation"), _("to the spades foundation"),
             the=_("the spades foundation"))),
    (_("hearts foundation"), _("the ace of hearts, then each heart in order up to the King"),
     Phrases(_("from the hearts foundation"), _("to the hearts foundation"),
             the=_("the hearts foundation"))),
    (_("diamonds foundation"),
     _("the ace of diamonds, then each diamond in order up to the King"),
     Phrases(_("from the diamonds foundation"), _("to the diamonds foundation"),
             the=_("the diamonds foundation"))),
)
_COLUMN: Final = (
    _("column %(number)s"),
    _("a card one rank lower and of the other colour than its last card, or a run headed by "
      "one; when empty, only a King or a run headed by a King"),
    Phrases(_("from column %(number)s"), _("to column %(number)s")),
)


def klondike_table(variant: Variant) -> Table:
    """The piles in reading order: stock, waste, f1..f4 on row 0 (col 2 left free, as a
    Klondike table leaves a gap), then t1..t7 on row 1."""
    label, accepts, phrases = _WASTE
    piles = [
        Pile(STOCK_NAME, "stock", _("stock"), 0, 0, _STOCK_ACCEPTS[variant.draw],
             phrases=_STOCK_PHRASES),
        Pile(WASTE_NAME, "waste", label, 0, 1, accepts, fan="right", show=variant.draw,
             phrases=phrases),
    ]
    for suit, name in enumerate(FOUNDATIONS):
        label, accepts, phrases = _FOUNDATIONS[suit]
        piles.append(Pile(name, "foundation", label, 0, 3 + suit, accepts, base="A",
                          phrases=phrases))
    label, accepts, phrases = _COLUMN
    for i, name in enumerate(COLUMNS):
        piles.append(Pile(name, "pile", label, 1, i, accepts, fan="down", phrases=phrases,
                          number=i + 1))
    return Table(rows=2, cols=7, piles=tuple(piles), card_count=CARD_COUNT,
                 extras={"draw": variant.draw})
