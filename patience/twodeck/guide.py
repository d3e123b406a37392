"""The two-deck Tomb's rules page in words (RULES-TWO-DECK-TOMB.md), every text a
msgid for the site's catalogs; the site draws the page round it (the labelled table,
the measured win rates)."""

from __future__ import annotations

from typing import Final

from ..protocol import Guide
from ..words import gettext_noop as _

GUIDE: Final = Guide(
    aim=_("A Russian patience for two packs: build four bases in the corners from the King "
          "down to the Ace, twice round in each suit, until all 104 cards lie on them."),
    steps=(
        _("The table. Four walls of face-down cards stand round a square; only each wall's "
          "top card shows. Outside each wall lies its working card. The corners hold the "
          "bases, the middle of the square is the centre, and the stock is dealt onto the "
          "five waste piles beside it."),
        _("The deal. Any Kings among the eight cards that show go to the corners at once, "
          "one per suit, and a working place a King left is refilled from its wall."),
        _("The bases. Each corner builds down in one suit from the King to the Ace, then "
          "takes that suit's other King and goes down to the Ace again. An empty corner "
          "takes a free King whose suit has no base yet."),
        _("The working places. A working card takes a card of its suit one rank higher: a "
          "6 of hearts on a 5 of hearts. Nothing goes on a working Ace or King. A whole "
          "working stack may go onto a base in one move when its top card fits there. An "
          "emptied working place is refilled at once from its wall."),
        _("The centre. The first free Ace you put there starts it; it builds up in suit, "
          "and its top card is free. Anything free may go to the bases from it."),
        _("The stock. Each deal turns one card onto each waste pile: five piles in the "
          "first round, then four, three, two and one. Only a waste pile's top card is "
          "free. When the stock is spent, R gathers the piles, the last at the bottom, "
          "turned over without shuffling, for the next round: five rounds in all."),
        _("Move cards. Drag a free card, or tap it and then where it goes; a working "
          "stack goes to a base whole when you drag its bottom card. On a keyboard, the "
          "arrows move between piles, Enter or Space picks cards up and puts them down, "
          "and D deals or gathers."),
        _("Win, or know you have lost. You win when all 104 cards lie on the four bases. "
          "The game is lost when the fifth round's stock is spent and no move is left; "
          "the game says so."),
    ),
    choices=(
        (_("Kings at the deal"),
         _("Only the Kings among the first eight cards that show go to the corners by "
           "themselves; a King that shows later waits for you to move it to an empty "
           "corner.")),
        (_("Lost"),
         _("The game is lost when no move is left: after the fifth round, or earlier when "
           "the stock and the waste piles are empty and nothing fits.")),
        (_("The daily"),
         _("In a ranked attempt a deal, a move from a wall and a refill cannot be undone: "
           "each shows a card you had not seen.")),
        (_("The deal's numbers"),
         _("Deal N always gives the same cards: the number seeds a shuffle of the two "
           "packs together, the project's own, pinned by its tests.")),
    ),
    faq=(
        (_("Why can nothing go on a working Ace or King?"),
         _("A working place builds up in suit, and the rules keep its ends apart: a "
           "working Ace waits for the centre or a base's end, and a working King for an "
           "empty corner or a base's Ace.")),
        (_("What are the twin cards?"),
         _("Two packs give two of every card. They play alike, but each is its own card: "
           "a 6 of hearts may go on either 5 of hearts.")),
        (_("Why does a working place stay empty?"),
         _("A working place is refilled only from its own wall. Once that wall is empty, "
           "the place stays empty for good.")),
        (_("What comes first in the next round?"),
         _("The waste piles are gathered from the last to the first, the last at the "
           "bottom, and turned over without shuffling: the next round starts with the "
           "bottom card of the last pile. Watching the piles before you gather them tells "
           "you what is coming.")),
        (_("Is this the Napoleon's Tomb of one pack?"),
         _("No. Russian books give both games the same name, but this one is played with "
           "two packs, walls and working places. Its closest relative in a public program "
           "is the patience called Well.")),
    ),
)
