"""A game's words in the reader's language: its name, its variants', its welcome and
its table's.

The games (patience/) are pure and write their words in English, each marked for the
catalogs with ``patience.words.gettext_noop``; they are translated here, at the edge,
by the one catalog the pages and the board share. Nothing here names a game.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.utils.translation import gettext, gettext_lazy


class Named(Protocol):
    @property
    def slug(self) -> str: ...

    @property
    def name(self) -> str: ...


# True on a phone as with a mouse: a covered pile's name is not on the table, and a
# phone has no hover; the rules page draws every pile named.
ANY_GAME_WELCOME = gettext_lazy(
    "New here? The rules show the table with every pile named and what it takes.")


def welcome(game: Any) -> str:
    """The game's one-line welcome (its own, else the one every table can use)."""
    return gettext(game.welcome) if game.welcome else str(ANY_GAME_WELCOME)


def game_name(game: Named) -> str:
    """The game's name in the active language (its English msgid, marked in its package)."""
    return gettext(game.name)


def variant_name(variant: Named) -> str:
    return gettext(variant.name)


def game_and_variant_name(game: Any, variant: Named) -> str:
    """"Napoleon's Tomb, traditional cross"; a game's only variant, or one named as the
    game is, is the game itself: "St. Helena" once, never "St. Helena St. Helena"."""
    name, own = game_name(game), variant_name(variant)
    if len(game.variants) == 1 or own == name:
        return name
    return gettext("%(game)s, %(variant)s") % {"game": name, "variant": own}


def translated_table(rules: Any, variant: Any) -> dict[str, Any]:
    """The variant's table as data (``Table.as_data``), every word in the active language."""
    return dict(rules.table(variant).as_data(gettext))


def named_game(game: Named) -> dict[str, str]:
    """{"slug", "name"} as pages and payloads show a game."""
    return {"slug": game.slug, "name": game_name(game)}


def named_variant(variant: Named) -> dict[str, str]:
    return {"slug": variant.slug, "name": variant_name(variant)}


def named_variants(variants: Any) -> list[dict[str, str]]:
    """A game's variants (registry objects) as {"slug", "name"}, in order."""
    return [named_variant(variant) for variant in variants]


def titled_step(step: str) -> dict[str, str]:
    """A step of play as its title and its words: a Guide writes each step as a short
    sentence that names it ("Deal from the stock.") and then the rest."""
    title, stop, body = step.partition(". ")
    return {"title": title, "body": body} if stop and body else {"title": "", "body": step}


def translated_guide(guide: Any) -> dict[str, Any] | None:
    """A game's rules text (``patience.protocol.Guide``) in the active language."""
    if guide is None:
        return None
    return {
        "aim": gettext(guide.aim),
        "steps": [titled_step(gettext(step)) for step in guide.steps],
        "choices": [(gettext(what), gettext(how)) for what, how in guide.choices],
        "faq": [(gettext(question), gettext(answer)) for question, answer in guide.faq],
    }
