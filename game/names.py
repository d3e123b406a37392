"""Game and variant names in the reader's language.

The registry (patience/) is pure and names everything in English; it cannot import
Django. Pages, payloads and the share line translate the names here, at the edge,
looked up by slug; a game or variant added to the registry without an entry here keeps
its English name until someone translates it.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy


class Named(Protocol):
    @property
    def slug(self) -> str: ...

    @property
    def name(self) -> str: ...


GAME_NAMES: dict[str, Promise] = {
    "napoleons-tomb": gettext_lazy("Napoleon's Tomb"),
    "st-helena": gettext_lazy("St. Helena"),
}

VARIANT_NAMES: dict[str, Promise] = {
    "three-card": gettext_lazy("3-card deal"),
    "classic": gettext_lazy("classic 1-card deal"),
    "cross": gettext_lazy("traditional cross"),
    "st-helena": gettext_lazy("St. Helena"),
}


# The first visit's one-line welcome: what the game asks of the player.
WELCOMES: dict[str, Promise] = {
    "napoleons-tomb": gettext_lazy(
        "New here? Build the corners up from 7 to King and the tomb down from 6 to Ace, "
        "four times round."),
}
ANY_GAME_WELCOME = gettext_lazy(
    "New here? Each pile is named on the table; point at one to read what it takes.")


def welcome(game: Named) -> str:
    """The welcome line of a game, or the one every table can use."""
    return str(WELCOMES.get(game.slug, ANY_GAME_WELCOME))


def game_name(game: Named) -> str:
    """The game's name in the active language (the registry's English if not listed)."""
    found = GAME_NAMES.get(game.slug)
    return str(found) if found is not None else gettext(game.name)


def variant_name(variant: Named) -> str:
    found = VARIANT_NAMES.get(variant.slug)
    return str(found) if found is not None else gettext(variant.name)


def named_game(game: Named) -> dict[str, str]:
    """{"slug", "name"} as pages and payloads show a game."""
    return {"slug": game.slug, "name": game_name(game)}


def named_variant(variant: Named) -> dict[str, str]:
    return {"slug": variant.slug, "name": variant_name(variant)}


def named_variants(variants: Any) -> list[dict[str, str]]:
    """A game's variants (registry objects) as {"slug", "name"}, in order."""
    return [named_variant(variant) for variant in variants]
