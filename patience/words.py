"""Marking a game's words for the site's translators without importing Django.

A game names its piles, variants and rules in English. Each such text is written
inside ``gettext_noop(...)``: Django's ``makemessages`` finds the name and puts the
text in the catalogs, and the site translates it at the edge with ``gettext``
(``game.words``). So a game's words are written once, in its own package, and
translated once, in Django's catalogs, for the pages and for the board alike.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """The text as it is: a mark for ``makemessages`` (the same name as Django's)."""
    return message
