"""Patience games as plug-ins: pure rules packages and the registry that lists them.

Each game is a package here implementing ``patience.protocol.Rules``. The rest
of the project finds a game through this registry, by the game's slug or by a
variant's slug, and never names a game itself. Nothing here imports Django,
Celery, Channels or the project's apps.

A variant's slug is unique across every game, so a table row that stores a
variant slug (a game, a daily, a statistics row) names its game too; the
registry refuses a second game that would reuse one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from .errors import EngineError, IllegalMove, InvalidDeal, InvalidNotation
from .klondike.rules import RULES as KLONDIKE_RULES
from .protocol import Pile, Rules, Status, Table
from .sthelena.rules import RULES as ST_HELENA_RULES
from .tomb.rules import RULES as TOMB_RULES
from .twodeck.rules import RULES as TWO_DECK_RULES

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "EngineError",
    "IllegalMove",
    "InvalidDeal",
    "InvalidNotation",
    "Pile",
    "Rules",
    "Status",
    "Table",
    "all_variants",
    "game_named",
    "rules_of",
    "variant_of",
]


def _register(*games: Rules) -> dict[str, Rules]:
    registry: dict[str, Rules] = {}
    seen: dict[str, str] = {}
    for game in games:
        if game.slug in registry:
            raise ValueError(f"two games are called {game.slug!r}")
        for slug in game.variants:
            if slug in seen:
                raise ValueError(f"variant {slug!r} of {game.slug} is also one of {seen[slug]}")
            seen[slug] = game.slug
        registry[game.slug] = game
    return registry


# The registry: one line a game.
GAMES: Final[Mapping[str, Rules]] = _register(
    TOMB_RULES,
    ST_HELENA_RULES,
    KLONDIKE_RULES,
    TWO_DECK_RULES,
)
DEFAULT_GAME: Final = TOMB_RULES
_GAME_OF_VARIANT: Final = {slug: game for game in GAMES.values() for slug in game.variants}


def game_named(slug: object) -> Rules:
    """The game with this slug, or InvalidNotation naming the known ones."""
    game = GAMES.get(slug) if isinstance(slug, str) else None
    if game is None:
        raise InvalidNotation(f"{slug!r:.20} is not a game (known: {', '.join(GAMES)})")
    return game


def rules_of(variant: object) -> Rules:
    """The game a variant slug belongs to."""
    game = _GAME_OF_VARIANT.get(variant) if isinstance(variant, str) else None
    if game is None:
        raise InvalidNotation(
            f"{variant!r:.20} is not a variant (known: {', '.join(_GAME_OF_VARIANT)})"
        )
    return game


def variant_of(slug: object) -> Any:
    """The variant object for a slug, whichever game it belongs to."""
    return rules_of(slug).variants[str(slug)]


def all_variants() -> Iterator[tuple[Rules, Any]]:
    """Every (game, variant) pair, in registration order."""
    for game in GAMES.values():
        yield from ((game, variant) for variant in game.variants.values())
