"""Path converters for URLs that name a game: only a registered game's slug matches.

A game's pages live at ``/<game>/<variant>/...``; without this, any two path segments
would match (``/admin/leaderboards/daily/`` is the admin's own page). The registry is
read on each match, so a game registered later (or by a test) is served at once.
The variant is checked by the view (actions.check_game_variant), which says in its
404 which variants the game has.
"""

from __future__ import annotations

import patience


class GameSlugConverter:
    regex = "[a-z0-9][a-z0-9-]{0,39}"

    def to_python(self, value: str) -> str:
        if value not in patience.GAMES:
            raise ValueError(f"{value!r} is not a registered game")
        return value

    def to_url(self, value: str) -> str:
        return str(value)


class VariantSlugConverter:
    """Any slug-shaped segment: the view says whether the game has such a variant."""

    regex = "[a-z0-9][a-z0-9-]{0,39}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return str(value)
