"""St. Helena's rules page in words (RULES-CROSS-AND-ST-HELENA.md, section 2), every
text a msgid for the site's catalogs; the site draws the page round it (the labelled
table, the measured win rates)."""

from __future__ import annotations

from typing import Final

from ..protocol import Guide
from ..words import gettext_noop as _

GUIDE: Final = Guide(
    aim=_("A two-deck patience: build four Kings down and four Aces up, each in its suit, "
          "from twelve piles dealt round them. While the stock lasts, where a pile stands "
          "decides where its card may go."),
    steps=(
        _("The table. Before the deal, one King and one Ace of each suit are taken from "
          "the first deck: the Kings make the top row of foundations, the Aces the row "
          "beneath. Twelve piles stand round them, numbered clockwise from the top left: "
          "piles 1 to 4 above the Kings, pile 5 and pile 6 on the right, piles 7 to 10 "
          "below the Aces, pile 11 and pile 12 on the left."),
        _("The deal. The other 96 cards, the first deck and then the second, are the "
          "stock. One card goes face up on each pile; only a pile's top card is in play."),
        _("Build the foundations in suit. A King foundation builds down, Queen, Jack, and "
          "so on to the Ace; an Ace foundation builds up, 2, 3, and so on to the King. "
          "Each takes 13 cards, and the game is won when all 104 are home."),
        _("While the stock lasts, the place decides. Piles 1 to 4, above the Kings, play "
          "only to the King foundations; piles 7 to 10, below the Aces, only to the Ace "
          "foundations; the four side piles, 5, 6, 11 and 12, to either. Nothing is built "
          "on the piles yet."),
        _("Deal from the stock. Tap the stock (or press D): if a pile is empty, the stock "
          "fills the empty piles, in pile order, and nothing else; otherwise one card goes "
          "face up on every pile, 1 to 12, until the stock runs out."),
        _("Once the stock is empty, everything opens. Any pile's top card may go to any "
          "foundation it fits, and onto another pile's top card of the same suit one rank "
          "above or below it."),
        _("Redeal, twice. When the stock is empty, tap it (or press R) to gather the piles, "
          "from pile 12 back to pile 1, each kept in its order, into a new stock. The deal "
          "starts again, and so do the restrictions of the places while it lasts."),
        _("Win, or know you have lost. You win when all 104 cards are home. The game is "
          "lost when no move is left: the stock empty, no redeal left and no card that can "
          "go anywhere. Every move can be undone, back to the start."),
    ),
    choices=(
        (_("Redeals"),
         _("Two, as the traditional game allows; the third time the stock runs out, the "
           "piles are what you have.")),
        (_("No card moves by itself"),
         _("You move every card; a card that fits a foundation waits for you.")),
        (_("The deal's numbers"),
         _("Deal N always gives the same cards: the number seeds the shuffle of the first "
           "deck, less its four Kings and four Aces, and then of the second.")),
        (_("The daily"),
         _("One deal a day, the same for everyone. In a ranked attempt a deal from the "
           "stock and a redeal cannot be undone: they show cards you had not seen.")),
    ),
    faq=(
        (_("Why can a card not go to the foundation it fits?"),
         _("Because of its pile's place. While the stock lasts, the four piles above the "
           "Kings play only to Kings and the four below the Aces only to Aces. Once the "
           "stock is empty, any pile plays to any foundation.")),
        (_("Why does the stock sometimes deal only a few cards?"),
         _("When a pile is empty, a tap on the stock fills the empty piles, and nothing "
           "else. Only when every pile has a card does it deal one to each of the twelve.")),
        (_("When can I build on the piles?"),
         _("Only once the stock is empty: then a pile's top card may go onto another "
           "pile's top card of the same suit, one rank above or below. Both ways are "
           "allowed, so a pile can go up and down.")),
        (_("What does a redeal do to the order of the cards?"),
         _("It keeps it. The piles are gathered from pile 12 back to pile 1 into one "
           "packet, each pile in its order, and turned face down, so the bottom card of "
           "pile 12 is the new stock's top card. Watching the piles before you redeal tells "
           "you what is coming.")),
        (_("Are the two decks mixed?"),
         _("No. Each deck is shuffled on its own, and the stock is the first deck followed "
           "by the second: the second deck's cards only come after the first's.")),
    ),
)
