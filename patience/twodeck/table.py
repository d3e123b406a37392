"""The two-deck Tomb's table as data, in words marked for the translators
(``patience.words``): the square of walls round the centre, each wall's working
place outside it, the bases in the corners, the stock beside, and the five waste
piles in a row below, fanned.

The grid (rows 0..4, columns 0..9)::

    nw  .   pn  .   ne
    .   .   n   .   .   stock
    pw  w   c   e   pe  x1  x2  x3  x4  x5
    .   .   s   .   .
    sw  .   ps  .   se

The waste piles stand in the square's middle row, which the west and east working
places' fans make tall anyway, so a wide screen gets bigger cards than a row of its
own below would leave; a narrow screen's board moves the stock and the waste piles
under the square (its "tall" layout).

The corners' words are the one-deck Tomb's own msgids (the catalogs hold them);
a waste pile is numbered as St. Helena's piles are ("waste pile %(number)s")."""

from __future__ import annotations

from typing import Final

from ..protocol import Phrases, Pile, Table
from ..words import gettext_noop as _
from .deals import CARD_COUNT
from .moves import BASES, CENTRE, PLACES, STOCK, WALLS, WASTES
from .variants import Variant

_WALLS: Final = (
    (_("north wall"), Phrases(_("from the north wall"), _("to the north wall"),
                              the=_("the north wall"))),
    (_("west wall"), Phrases(_("from the west wall"), _("to the west wall"),
                             the=_("the west wall"))),
    (_("east wall"), Phrases(_("from the east wall"), _("to the east wall"),
                             the=_("the east wall"))),
    (_("south wall"), Phrases(_("from the south wall"), _("to the south wall"),
                              the=_("the south wall"))),
)
_WALL_ACCEPTS: Final = _("nothing: its top card is free, and moving it uncovers the next")
_PLACES: Final = (
    (_("north working place"), Phrases(_("from the north working place"),
                                       _("to the north working place"),
                                       the=_("the north working place"))),
    (_("west working place"), Phrases(_("from the west working place"),
                                      _("to the west working place"),
                                      the=_("the west working place"))),
    (_("east working place"), Phrases(_("from the east working place"),
                                      _("to the east working place"),
                                      the=_("the east working place"))),
    (_("south working place"), Phrases(_("from the south working place"),
                                       _("to the south working place"),
                                       the=_("the south working place"))),
)
_PLACE_ACCEPTS: Final = _("a card of the same suit one rank higher than its top card, "
                          "never on an ace or a King; emptied, it is refilled from its wall")
_CORNERS: Final = (
    (_("north-west corner"), Phrases(_("from the north-west corner"),
                                     _("to the north-west corner"),
                                     the=_("the north-west corner"))),
    (_("north-east corner"), Phrases(_("from the north-east corner"),
                                     _("to the north-east corner"),
                                     the=_("the north-east corner"))),
    (_("south-west corner"), Phrases(_("from the south-west corner"),
                                     _("to the south-west corner"),
                                     the=_("the south-west corner"))),
    (_("south-east corner"), Phrases(_("from the south-east corner"),
                                     _("to the south-east corner"),
                                     the=_("the south-east corner"))),
)
_BASE_ACCEPTS: Final = _("a King whose suit has no base yet, then down in suit to the ace, "
                         "then the suit's other King down to the ace again")
_CENTRE: Final = (_("centre"), _("any ace when empty, then up in suit"),
                  Phrases(_("from the centre"), _("to the centre"), the=_("the centre")))
_WASTE: Final = (
    _("waste pile %(number)s"),
    _("nothing: only the stock deals onto it; its top card is free"),
    Phrases(_("from waste pile %(number)s"), _("to waste pile %(number)s")),
)
_STOCK_ACCEPTS: Final = _("nothing: D deals it onto the waste piles, R gathers them into it "
                          "for the next round")

# Grid places (row, col), in the notation's order.
WALL_PLACES: Final = ((1, 2), (2, 1), (2, 3), (3, 2))
PLACE_PLACES: Final = ((0, 2), (2, 0), (2, 4), (4, 2))
PLACE_FANS: Final = ("right", "down", "down", "right")  # into the empty squares beside them
# A right fan shows its four top cards: what the empty square beside it holds. A longer
# stack (rare: the stacks build up from what the walls give) shows its top four.
PLACE_SHOWS: Final = (4, 0, 0, 4)
CORNER_PLACES: Final = ((0, 0), (0, 4), (4, 0), (4, 4))


def two_deck_table(variant: Variant) -> Table:
    """The piles in the notation's order: walls, working places, corners, centre, waste
    piles, stock (see the module docstring for the grid)."""
    piles: list[Pile] = []
    for i, name in enumerate(WALLS):
        label, phrases = _WALLS[i]
        row, col = WALL_PLACES[i]
        piles.append(Pile(name, "pile", label, row, col, _WALL_ACCEPTS, phrases=phrases))
    for i, name in enumerate(PLACES):
        label, phrases = _PLACES[i]
        row, col = PLACE_PLACES[i]
        piles.append(Pile(name, "pile", label, row, col, _PLACE_ACCEPTS, fan=PLACE_FANS[i],
                          show=PLACE_SHOWS[i], phrases=phrases))
    for i, name in enumerate(BASES):
        label, phrases = _CORNERS[i]
        row, col = CORNER_PLACES[i]
        piles.append(Pile(name, "foundation", label, row, col, _BASE_ACCEPTS, base="K",
                          phrases=phrases))
    label, accepts, phrases = _CENTRE
    piles.append(Pile(CENTRE, "pile", label, 2, 2, accepts, phrases=phrases))
    label, accepts, phrases = _WASTE
    for i, name in enumerate(WASTES):
        piles.append(Pile(name, "waste", label, 2, 5 + i, accepts, fan="down", phrases=phrases,
                          number=i + 1))
    piles.append(Pile(STOCK, "stock", _("stock"), 1, 5, _STOCK_ACCEPTS,
                      phrases=Phrases(_("from the stock"), _("to the stock"),
                                      the=_("the stock"))))
    return Table(rows=5, cols=10, piles=tuple(piles), card_count=CARD_COUNT,
                 extras={"rounds": variant.rounds})
