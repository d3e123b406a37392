"""Klondike's rules page in words (RULES-KLONDIKE.md), every text a msgid for the
site's catalogs; the site draws the page round it (the labelled table, the variants,
the measured win rates)."""

from __future__ import annotations

from typing import Final

from ..protocol import Guide, Published
from ..words import gettext_noop as _

GUIDE: Final = Guide(
    aim=_("Klondike is the patience most people simply call solitaire: one pack, seven "
          "columns, and four foundations to fill, each with one suit from the Ace up to the "
          "King."),
    steps=(
        _("The four parts of the table. The seven columns in the middle are the tableau, "
          "where most of the play happens. The four spaces at the top right are the "
          "foundations: filling them wins. The face-down pile at the top left is the stock, "
          "and the space beside it, where its cards are turned face up, is the waste."),
        _("The deal. Column 1 holds one card, column 2 two, and so on up to seven in "
          "column 7: 28 cards, only the last card of each column face up. The other 24 "
          "cards are the stock. Cards rank from the Ace, low, to the King; hearts and "
          "diamonds are red, spades and clubs black."),
        _("Send Aces home. An empty foundation takes only an Ace; then the 2 of its suit, "
          "the 3, and so on up to the King. Drag a card there, tap it and tap the "
          "foundation, or double-click it and it finds its own way."),
        _("Build the columns down in alternating colours. A card goes onto the last card "
          "of a column one rank higher and of the other colour: a red 6 on a black 7. A "
          "run of face-up cards that already descends in alternating colours moves as "
          "one piece, however long, by the rule of its first card: pick up that card and "
          "the rest come with it."),
        _("Uncover the face-down cards. When a move leaves a face-down card at the end of "
          "a column, it turns face up at once, as part of the same move."),
        _("Turn the stock when the columns are stuck. Tap the stock: one card (turn 1) or "
          "three (turn 3, where only the top one of the three is in play) go face up onto "
          "the waste. The waste's top card may go to a column or a foundation. When the "
          "stock is empty, tap it again and the waste goes back under it, face down, in "
          "the order it came out, as often as you like."),
        _("Put a King into an empty column. A column cleared of every card takes a King, "
          "or a run headed by a King, and nothing else."),
        _("Finish. Once the stock and the waste are empty and every card in the columns is "
          "face up, nothing can go wrong: Finish plays the rest home."),
    ),
    choices=(
        (_("Passes through the stock"),
         _("Unlimited, in both variants. At turn 1 each pass costs 100 points; at turn 3 "
           "passes are free.")),
        (_("Runs"),
         _("Any run of face-up cards in sequence moves as one piece, at any length.")),
        (_("Foundation back to a column"),
         _("Allowed, for 15 points: a foundation's top card may go back onto a column "
           "where it fits.")),
        (_("Scoring"),
         _("The Windows table: 10 points for a card onto a foundation from anywhere, 5 "
           "for a card from the waste to a column, 5 for a face-down card turned up, "
           "minus 15 for a card taken back off a foundation, minus 100 for a pass at "
           "turn 1. The score never drops below zero, and there is no time bonus: the "
           "clock is a plain timer.")),
        (_("Records"),
         _("Best score, fastest win and fewest moves, for each variant, kept apart for "
           "deals dealt by \"winnable deals only\" and for any other deal; a time or a "
           "move count is filed only for a win.")),
        (_("Nothing left to do"),
         _("The game says so only from what you have seen: no move left but turning the "
           "stock, and no card in the stock or waste that could go anywhere. Before you "
           "have turned every stock card once, it never says so.")),
        (_("The daily"),
         _("One deal a day for each variant, the same for everyone, proved winnable by "
           "the site's solver. In a ranked attempt a stock turn and a move that turned a "
           "face-down card up cannot be undone: otherwise one could look, take it back "
           "and play knowing.")),
    ),
    faq=(
        (_("What is the difference between turn 1 and turn 3?"),
         _("How many cards a tap on the stock turns. At turn 1 every card of the stock "
           "comes into play in turn; at turn 3 only every third one does, until a card "
           "taken from the waste shifts the rest. Turn 3 is the traditional game and "
           "much harder.")),
        (_("Can I move more than one card at a time?"),
         _("Yes: any run of face-up cards that descends in alternating colours. Pick up "
           "its first card and the rest follow; the column it goes to must take that "
           "first card.")),
        (_("What can go into an empty column?"),
         _("Only a King, or a run with a King at its head. That is the rule, not a "
           "restriction of this site, and it is why an empty column is not always the "
           "win it looks like.")),
        (_("Can I take a card back off a foundation?"),
         _("Yes, if it fits on a column: one rank lower and the other colour than the "
           "column's last card. It costs 15 points.")),
    ),
    published=(
        # The same game as here: unlimited passes, only the top waste card in play at
        # turn 3, Kings only into empty columns, foundation cards allowed back.
        Published("turn-3", _("Solvitaire (Blake and Gent, 2019)"),
                  _("Exhaustive search seeing every card, on random deals"), 81.861, 82.029),
        Published("turn-3", _("lonelybot"),
                  _("Exhaustive search seeing every card: 4,843,708 won of 5,910,579 deals"),
                  81.92, 81.98),
        Published("turn-3", _("Bjarnason, Fern and Tadepalli, 2009"),
                  _("Bounds on the deals that can be won, seeing every card"), 82.0, 91.44),
        Published("turn-3", _("Klondike-Solver (ShootMe)"),
                  _("Search with a cap on its states: 836 won of 1,000 deals"), 81.2, 85.8),
        Published("turn-1", _("Klondike-Solver (ShootMe)"),
                  _("Search with a cap on its states: 919 won of 1,000 deals"), 90.1, 93.4),
        Published("turn-3", _("lonelybot"),
                  _("Playing without seeing the face-down cards: 7,148 won of 15,024"),
                  46.78, 48.38, sees_all=False),
        Published("turn-3", _("Bjarnason, Fern and Tadepalli, 2009"),
                  _("Playing without seeing the face-down cards"), 35.05, 38.89,
                  sees_all=False),
    ),
)
