"""The Tomb's table as data, in words marked for the translators (``patience.words``):
the X of corners round the tomb, the cells (the cross's places) between them, the
stock and the waste beside. The classic and 3-card deals and the cross share it; the
cross names its four places otherwise and refills them itself."""

from __future__ import annotations

from typing import Final

from ..cards import DECK_SIZE
from ..protocol import Phrases, Pile, Table
from ..words import gettext_noop as _

CORNER: Final = _("7 up to K, any suit")
TOMB: Final = _("6 down to A, any suit, four times")
CELL: Final = _("one card from the waste; it goes home by itself when it fits")
CROSS_PLACE: Final = _(
    "refilled from the stock (then the waste); its card goes to any foundation it fits")


def _corner(name: str, label: str, row: int, col: int, phrases: Phrases) -> Pile:
    return Pile(name, "foundation", label, row, col, CORNER, base="7", phrases=phrases)


CORNERS: Final = (
    _corner("nw", _("north-west corner"), 0, 0, Phrases(
        _("from the north-west corner"), _("to the north-west corner"),
        the=_("the north-west corner"))),
    _corner("ne", _("north-east corner"), 0, 2, Phrases(
        _("from the north-east corner"), _("to the north-east corner"),
        the=_("the north-east corner"))),
    _corner("sw", _("south-west corner"), 2, 0, Phrases(
        _("from the south-west corner"), _("to the south-west corner"),
        the=_("the south-west corner"))),
    _corner("se", _("south-east corner"), 2, 2, Phrases(
        _("from the south-east corner"), _("to the south-east corner"),
        the=_("the south-east corner"))),
)
TOMB_PILE: Final = Pile("tomb", "foundation", _("tomb"), 1, 1, TOMB, base="6", phrases=Phrases(
    _("from the tomb"), _("to the tomb"), the=_("the tomb")))
STOCK: Final = Pile("stock", "stock", _("stock"), 0, 3, _("nothing: D turns it"), phrases=Phrases(
    _("from the stock"), _("to the stock"), the=_("the stock")))
WASTE: Final = Pile("waste", "waste", _("waste"), 1, 3, _("cards turned from the stock"),
                    fan="right", phrases=Phrases(
                        _("from the waste"), _("to the waste"), the=_("the waste")))

CELLS: Final = (
    Pile("n", "cell", _("north cell"), 0, 1, CELL, phrases=Phrases(
        _("from the north cell"), _("to the north cell"), _("in the north cell"),
        _("the north cell"))),
    Pile("w", "cell", _("west cell"), 1, 0, CELL, phrases=Phrases(
        _("from the west cell"), _("to the west cell"), _("in the west cell"),
        _("the west cell"))),
    Pile("e", "cell", _("east cell"), 1, 2, CELL, phrases=Phrases(
        _("from the east cell"), _("to the east cell"), _("in the east cell"),
        _("the east cell"))),
    Pile("s", "cell", _("south cell"), 2, 1, CELL, phrases=Phrases(
        _("from the south cell"), _("to the south cell"), _("in the south cell"),
        _("the south cell"))),
)
CROSS_PLACES: Final = (
    Pile("n", "cell", _("north cross place"), 0, 1, CROSS_PLACE, phrases=Phrases(
        _("from the north cross place"), _("to the north cross place"),
        _("in the north cross place"), _("the north cross place"))),
    Pile("w", "cell", _("west cross place"), 1, 0, CROSS_PLACE, phrases=Phrases(
        _("from the west cross place"), _("to the west cross place"),
        _("in the west cross place"), _("the west cross place"))),
    Pile("e", "cell", _("east cross place"), 1, 2, CROSS_PLACE, phrases=Phrases(
        _("from the east cross place"), _("to the east cross place"),
        _("in the east cross place"), _("the east cross place"))),
    Pile("s", "cell", _("south cross place"), 2, 1, CROSS_PLACE, phrases=Phrases(
        _("from the south cross place"), _("to the south cross place"),
        _("in the south cross place"), _("the south cross place"))),
)


def tomb_table(places: tuple[Pile, ...] = CELLS) -> Table:
    """The X in reading order (the order the board and the tests list the piles in)."""
    nw, ne, sw, se = CORNERS
    n, w, e, s = places
    piles = (nw, n, ne, w, TOMB_PILE, e, sw, s, se, STOCK, WASTE)
    return Table(rows=3, cols=4, piles=piles, card_count=DECK_SIZE)
