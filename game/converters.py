"""URL path converters: a registered game's slug, and a registered variant's slug.

``<game:game>`` matches only the slug of a registered game (``patience.GAMES``,
read at each match, so a game registered later needs no change here) and
``<variant:variant>`` only a registered variant's slug (of any game); any other
text does not match, so the URL falls through to the next pattern and finally
to a plain 404. A view given both checks that the variant is the game's
(``game_and_variant``: a variant of another game is a 404 too). Apps above
``game`` (leaderboards) use them for their own ``/<game>/<variant>/...`` URLs:
importing this module registers them.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import register_converter
from django.urls.converters import get_converters

from patience import GAMES, EngineError, Rules, rules_of


class GameSlugConverter:
    regex = "[a-z0-9][a-z0-9-]{0,39}"

    def to_python(self, value: str) -> str:
        if value not in GAMES:
            raise ValueError(f"{value} is not a registered game")
        return value

    def to_url(self, value: object) -> str:
        slug = getattr(value, "slug", value)  # a game's Rules or its slug
        if not isinstance(slug, str) or slug not in GAMES:
            raise ValueError(f"{slug!r:.40} is not a registered game")
        return slug


class VariantSlugConverter:
    regex = "[a-z0-9][a-z0-9-]{0,39}"

    def to_python(self, value: str) -> str:
        try:
            rules_of(value)
        except EngineError as error:
            raise ValueError(f"{value} is not a registered variant") from error
        return value

    def to_url(self, value: object) -> str:
        slug = getattr(value, "slug", value)  # a variant or its slug
        return self.to_python(slug) if isinstance(slug, str) else self.to_python("")


def game_and_variant(game: str, variant: str) -> tuple[Rules, Any]:
    """The game named in a URL and its variant named beside it, or Http404 when the
    variant is not one of that game's (a variant of another game included)."""
    rules = GAMES.get(game)
    if rules is None or variant not in rules.variants:
        raise Http404("no such game and variant")
    return rules, rules.variants[variant]


def register() -> None:
    """Register ``<game:...>`` and ``<variant:...>`` once, whichever app's URLs import
    this first."""
    known = get_converters()
    if "game" not in known:
        register_converter(GameSlugConverter, "game")
    if "variant" not in known:
        register_converter(VariantSlugConverter, "variant")


register()
