"""The words of a game's table (pile names and what each pile takes) in the reader's
language, for the pages the server writes (the table-built rules page).

The registry (patience/) describes each pile in English and cannot import Django, so
its texts are translated here, at the edge: the fixed ones by exact text, the numbered
ones ("pile 3", "6 down to A, ...") by pattern. A text not listed stays English.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

EXACT: dict[str, Promise] = {
    # Napoleon's Tomb
    "north-west corner": gettext_lazy("north-west corner"),
    "north-east corner": gettext_lazy("north-east corner"),
    "south-west corner": gettext_lazy("south-west corner"),
    "south-east corner": gettext_lazy("south-east corner"),
    "north cell": gettext_lazy("north cell"),
    "west cell": gettext_lazy("west cell"),
    "east cell": gettext_lazy("east cell"),
    "south cell": gettext_lazy("south cell"),
    "tomb": pgettext_lazy("pile", "tomb"),
    "stock": pgettext_lazy("pile", "stock"),
    "waste": pgettext_lazy("pile", "waste"),
    "one card from the waste; it goes home by itself when it fits": gettext_lazy(
        "one card from the waste; it goes home by itself when it fits"),
    "nothing: D turns it": gettext_lazy("nothing: D turns it"),
    "cards turned from the stock": gettext_lazy("cards turned from the stock"),
    "north cross place": gettext_lazy("north cross place"),
    "west cross place": gettext_lazy("west cross place"),
    "east cross place": gettext_lazy("east cross place"),
    "south cross place": gettext_lazy("south cross place"),
    "refilled from the stock (then the waste); its card goes to any foundation it fits":
        gettext_lazy("refilled from the stock (then the waste); its card goes to any "
                     "foundation it fits"),
    # St. Helena
    "King of clubs": gettext_lazy("King of clubs"),
    "King of diamonds": gettext_lazy("King of diamonds"),
    "King of hearts": gettext_lazy("King of hearts"),
    "King of spades": gettext_lazy("King of spades"),
    "Ace of clubs": gettext_lazy("Ace of clubs"),
    "Ace of diamonds": gettext_lazy("Ace of diamonds"),
    "Ace of hearts": gettext_lazy("Ace of hearts"),
    "Ace of spades": gettext_lazy("Ace of spades"),
    "clubs, down from the King to the ace": gettext_lazy("clubs, down from the King to the ace"),
    "diamonds, down from the King to the ace": gettext_lazy(
        "diamonds, down from the King to the ace"),
    "hearts, down from the King to the ace": gettext_lazy("hearts, down from the King to the ace"),
    "spades, down from the King to the ace": gettext_lazy("spades, down from the King to the ace"),
    "clubs, up to the King": gettext_lazy("clubs, up to the King"),
    "diamonds, up to the King": gettext_lazy("diamonds, up to the King"),
    "hearts, up to the King": gettext_lazy("hearts, up to the King"),
    "spades, up to the King": gettext_lazy("spades, up to the King"),
    "dealt cards; plays to the King foundations only while the stock lasts; once it is "
    "empty, takes a card of the same suit one rank above or below": gettext_lazy(
        "dealt cards; plays to the King foundations only while the stock lasts; once it is "
        "empty, takes a card of the same suit one rank above or below"),
    "dealt cards; plays to the Ace foundations only while the stock lasts; once it is "
    "empty, takes a card of the same suit one rank above or below": gettext_lazy(
        "dealt cards; plays to the Ace foundations only while the stock lasts; once it is "
        "empty, takes a card of the same suit one rank above or below"),
    "dealt cards; plays to any foundation while the stock lasts; once it is empty, takes a "
    "card of the same suit one rank above or below": gettext_lazy(
        "dealt cards; plays to any foundation while the stock lasts; once it is empty, takes "
        "a card of the same suit one rank above or below"),
    "nothing: D deals it onto the piles, R gathers them into it": gettext_lazy(
        "nothing: D deals it onto the piles, R gathers them into it"),
}

# Numbered texts: the pattern, and the translated sentence its groups fill in.
PATTERNS: tuple[tuple[re.Pattern[str], Callable[[], str]], ...] = (
    (re.compile(r"pile (?P<number>\d+)"), lambda: gettext("pile %(number)s")),
    (re.compile(r"(?P<rank>\d+) up to K, any suit"),
     lambda: gettext("%(rank)s up to K, any suit")),
    (re.compile(r"(?P<rank>\d+) down to A, any suit, four times"),
     lambda: gettext("%(rank)s down to A, any suit, four times")),
)


def table_text(text: str) -> str:
    """``text`` from a game's table in the active language (English if not listed)."""
    found = EXACT.get(text)
    if found is not None:
        return str(found)
    for pattern, sentence in PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            return sentence() % match.groupdict()
    return text


def translated_table(table: dict[str, Any]) -> dict[str, Any]:
    """A copy of a table (payloads.table_of, cached: never changed) with its piles'
    label and accepts in the active language."""
    return {**table, "piles": [
        {**pile, "label": table_text(pile["label"]), "accepts": table_text(pile["accepts"])}
        for pile in table["piles"]]}
